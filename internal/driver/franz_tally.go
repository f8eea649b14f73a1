package driver

import (
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// franzHooks counts produce requests and the batches franz-go wrote, and
// gauges the produce requests in flight.
type franzHooks struct {
	requests     atomic.Int64
	batches      atomic.Int64
	uncompressed atomic.Int64
	compressed   atomic.Int64
	// records counts the records of the batches written: kgo calls
	// OnProduceBatchWritten from a goroutine of its own, after the
	// batch's promises may have run, so a flush can return before the
	// last batches are counted; awaitBatches waits for them.
	records atomic.Int64
	// inflight counts produce requests written and not yet answered. A
	// request enters it when OnBrokerWrite reports bytes of it written and
	// leaves it at OnBrokerE2E, which kgo calls exactly once per request
	// when it is done with it: response read (or read failed), connection
	// died with the request pending, write failed, or acks=0 (no response).
	// OnBrokerRead alone would miss the requests queued behind a dead
	// connection's first one, which kgo fails without a read.
	inflight inflightGauge
}

func (h *franzHooks) OnBrokerWrite(_ kgo.BrokerMetadata, key int16, written int, _, _ time.Duration, err error) {
	if key != 0 { // 0 = Produce
		return
	}
	if err == nil {
		h.requests.Add(1)
	}
	if written > 0 {
		h.inflight.inc()
	}
}

func (h *franzHooks) OnBrokerE2E(_ kgo.BrokerMetadata, key int16, e kgo.BrokerE2E) {
	// A request that never reached the wire (BytesWritten 0) had no
	// OnBrokerWrite with bytes, so it never entered the gauge.
	if key == 0 && e.BytesWritten > 0 {
		h.inflight.dec()
	}
}

func (h *franzHooks) OnProduceBatchWritten(_ kgo.BrokerMetadata, _ string, _ int32, m kgo.ProduceBatchMetrics) {
	h.uncompressed.Add(int64(m.UncompressedBytes))
	h.compressed.Add(int64(m.CompressedBytes))
	h.records.Add(int64(m.NumRecords))
	h.batches.Add(1)
}

// awaitBatches waits until the batches written hold at least records
// records (those acknowledged), polling, at most for limit: the batch
// hooks run after the promises (see records).
func (h *franzHooks) awaitBatches(records int64, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for h.records.Load() < records && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
}

var (
	_ kgo.HookBrokerWrite         = (*franzHooks)(nil)
	_ kgo.HookBrokerE2E           = (*franzHooks)(nil)
	_ kgo.HookProduceBatchWritten = (*franzHooks)(nil)
)
