package driver

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/twmb/franz-go/pkg/kgo"
)

// franzHooks counts produce requests and the batches franz-go wrote, and
// gauges the produce requests in flight.
type franzHooks struct {
	requests     atomic.Int64
	batches      atomic.Int64
	uncompressed atomic.Int64
	compressed   atomic.Int64
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
	h.batches.Add(1)
	h.uncompressed.Add(int64(m.UncompressedBytes))
	h.compressed.Add(int64(m.CompressedBytes))
}

// franzTally accumulates acknowledgements from the client's promise
// callbacks. Warm-up records (sequence numbers below firstMeasured) count
// apart from measured ones; the timeline and the ack log see both.
type franzTally struct {
	// firstMeasured is the sequence number of the first measured record:
	// 0 without warm-up, math.MaxInt64 while a warm-up runs (every record
	// handed over so far is a warm-up record). The produce loop stores it
	// before handing over that record, so a promise always sees the value
	// that classifies its record.
	firstMeasured atomic.Int64

	mu       sync.Mutex
	hist     *hdrhistogram.Histogram
	acked    int64
	failed   int64
	errs     map[string]int64
	lastAck  time.Time
	acks     *AckLog // nil unless audited
	tl       *timeline
	warmAck  int64
	warmFail int64
	// parts counts the measured records acknowledged by partition.
	parts map[int32]int64
	// intended measures from each record's intended send time (rate-limited
	// trials only).
	intended *hdrhistogram.Histogram
}

// record counts one finished record: r was handed over at r.handoff and its
// promise ran at now with err.
func (ty *franzTally) record(r *franzRecord, now time.Time, latUs int64, err error) {
	warm := r.seq < ty.firstMeasured.Load()
	ty.mu.Lock()
	defer ty.mu.Unlock()
	if err != nil {
		if warm {
			ty.warmFail++
		} else {
			ty.failed++
			ty.errs[err.Error()]++
		}
		if ty.acks != nil {
			ty.acks.Fail(r.seq)
		}
		if ty.tl != nil {
			ty.tl.failLocked()
		}
		return
	}
	if warm {
		ty.warmAck++
	} else {
		ty.acked++
		ty.parts[r.Partition]++
		_ = ty.hist.RecordValue(latUs)
		if ty.intended != nil {
			_ = ty.intended.RecordValue(max(now.Sub(r.intended).Microseconds(), 1))
		}
		ty.lastAck = now
	}
	if ty.acks != nil {
		ty.acks.Ack(r.seq)
	}
	if ty.tl != nil {
		ty.tl.ackLocked(latUs, int64(len(r.Value)))
	}
}

var (
	_ kgo.HookBrokerWrite         = (*franzHooks)(nil)
	_ kgo.HookBrokerE2E           = (*franzHooks)(nil)
	_ kgo.HookProduceBatchWritten = (*franzHooks)(nil)
)
