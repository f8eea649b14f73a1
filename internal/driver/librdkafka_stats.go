package driver

import (
	"encoding/json"
	"maps"
	"sync"
	"time"

	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/secret"
)

// rdStats sums librdkafka's statistics reports (STATISTICS.md) into the
// counters every driver reports: produce requests (each broker's
// req.Produce, a counter), batches and their bytes (each topic's batchcnt
// and batchsize windows, which restart at every report, so their counts
// and sums add up over reports), and the bytes of the records written
// (txmsg_bytes, a counter: keys and values before compression).
type rdStats struct {
	mu      sync.Mutex
	reports int
	wake    chan struct{}
	sums    rdCounters
}

// rdCounters are the counters of a trial's reports so far.
type rdCounters struct {
	requests, batches, compressed, uncompressed int64
}

// rdReport is the part of a statistics report rdStats reads.
type rdReport struct {
	TxmsgBytes int64 `json:"txmsg_bytes"`
	Brokers    map[string]struct {
		Req map[string]int64 `json:"req"`
	} `json:"brokers"`
	Topics map[string]struct {
		Batchsize struct {
			Sum int64 `json:"sum"`
			Cnt int64 `json:"cnt"`
		} `json:"batchsize"`
	} `json:"topics"`
}

// add reads one report; a report that does not parse is skipped.
func (s *rdStats) add(js string) {
	var r rdReport
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var req int64
	for _, b := range r.Brokers {
		req += b.Req["Produce"]
	}
	s.sums.requests = req
	s.sums.uncompressed = r.TxmsgBytes
	for _, t := range r.Topics {
		s.sums.batches += t.Batchsize.Cnt
		s.sums.compressed += t.Batchsize.Sum
	}
	s.reports++
	if s.wake != nil {
		close(s.wake)
		s.wake = nil
	}
}

// await waits for the next report, at most d.
func (s *rdStats) await(d time.Duration) {
	s.mu.Lock()
	if s.wake == nil {
		s.wake = make(chan struct{})
	}
	wake := s.wake
	s.mu.Unlock()
	select {
	case <-wake:
	case <-time.After(d):
	}
}

// final is the counters of every report so far.
func (s *rdStats) final() rdCounters {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sums
}

// librdkafkaEffective is the configuration librdkafka resolved, as the
// record's effective configuration: the properties a producer has (not
// the consumer's), secrets hidden.
func librdkafkaEffective(resolved map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range maps.All(resolved) {
		if _, ok := kafkaconf.Librdkafka(k); ok {
			out[k] = v
		}
	}
	return secret.Mask(out)
}

// rdRecordOverhead and rdBatchOverhead are the bytes the v2 record format
// adds to a record's key, value and headers (length, attributes,
// timestamp and offset deltas, key, value and header lengths: 7 to 9 for
// prodlab's small records and batches) and to a batch (its 61-byte
// header).
const (
	rdRecordOverhead = 8
	rdBatchOverhead  = 61
)

// rdUncompressed is a trial's uncompressed batch bytes, comparable with
// the other clients' (record batches as written before compression).
// Without compression they are the batches' own bytes, exactly. With it,
// librdkafka reports only the compressed batches, so the uncompressed
// size is built from its count of key and value bytes (txmsg_bytes), the
// headers prodlab added and the format's framing, estimated at
// rdRecordOverhead per record (within a byte or two) and rdBatchOverhead
// per batch.
func rdUncompressed(c rdCounters, codec string, headerBytes, records int64) int64 {
	if codec == "" || codec == "none" {
		return c.compressed
	}
	return c.uncompressed + headerBytes + rdRecordOverhead*records + rdBatchOverhead*c.batches
}
