package driver

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// tally accumulates the completions a client reports (sendLoop.done). Warm-up records (sequence numbers below firstMeasured) count
// apart from measured ones; the timeline and the ack log see both.
type tally struct {
	// firstMeasured is the sequence number of the first measured record:
	// 0 without warm-up, math.MaxInt64 while a warm-up runs (every record
	// handed over so far is a warm-up record). The produce loop stores it
	// before handing over that record, so a promise always sees the value
	// that classifies its record.
	firstMeasured atomic.Int64

	mu       sync.Mutex
	hist     *hdrhistogram.Histogram
	warmHist *hdrhistogram.Histogram // the warm-up's latencies; nil without one
	warmErrs map[string]int64        // the warm-up's failures by message; nil until one
	acked    int64
	failed   int64
	errs     map[string]int64
	acks     *AckLog // nil unless audited
	tl       *timeline
	warmAck  int64
	warmFail int64
	// parts counts the measured records acknowledged by partition, indexed
	// by partition: a slice, not a map, on the path of every record.
	parts []int64
	// intended measures from each record's intended send time (rate-limited
	// trials only).
	intended *hdrhistogram.Histogram
	// prog counts for Trial.Progress, under mu (nil without progress).
	prog *progressMeter
}

// record counts one finished record seq of valueLen value bytes on
// partition, handed over at handoff and due at intended, reported with err
// latUs after its hand-off. It runs once a record: no defer, and no clock
// of its own.
func (ty *tally) record(seq int64, partition int32, valueLen int, handoff, intended time.Time, latUs int64, err error) {
	warm := seq < ty.firstMeasured.Load()
	ty.mu.Lock()
	if ty.prog != nil {
		if err != nil {
			ty.prog.failLocked()
		} else {
			ty.prog.ackLocked(latUs)
		}
	}
	if err != nil {
		ty.failLocked(seq, warm, err)
		ty.mu.Unlock()
		return
	}
	if warm {
		ty.warmAck++
		_ = ty.warmHist.RecordValue(latUs)
	} else {
		ty.acked++
		if int(partition) >= len(ty.parts) {
			ty.parts = append(ty.parts, make([]int64, int(partition)+1-len(ty.parts))...)
		}
		ty.parts[partition]++
		_ = ty.hist.RecordValue(latUs)
		if ty.intended != nil {
			_ = ty.intended.RecordValue(max(handoff.Sub(intended).Microseconds()+latUs, 1))
		}
	}
	if ty.acks != nil {
		ty.acks.Ack(seq)
	}
	if ty.tl != nil {
		ty.tl.ackLocked(latUs, int64(valueLen))
	}
	ty.mu.Unlock()
}

// failLocked counts failed record seq; the caller holds ty.mu.
func (ty *tally) failLocked(seq int64, warm bool, err error) {
	if warm {
		ty.warmFail++
		if ty.warmErrs == nil {
			ty.warmErrs = map[string]int64{}
		}
		ty.warmErrs[err.Error()]++
	} else {
		ty.failed++
		ty.errs[err.Error()]++
	}
	if ty.acks != nil {
		ty.acks.Fail(seq)
	}
	if ty.tl != nil {
		ty.tl.failLocked()
	}
}

// partitionRecords is parts as a map of the partitions that acknowledged a
// measured record.
func (ty *tally) partitionRecords() map[int32]int64 {
	out := make(map[int32]int64, len(ty.parts))
	for p, n := range ty.parts {
		if n > 0 {
			out[int32(p)] = n
		}
	}
	return out
}
