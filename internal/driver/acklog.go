package driver

import (
	"sync"

	"github.com/prodlab/prodlab/internal/bitset"
)

// AckLog remembers which record sequence numbers a producer saw acknowledged
// or failed, so the audit can tell lost from never-sent and phantom records.
// It keeps one bit per sequence number per state and grows on demand, so a
// steady-state trial, whose record count is not known in advance, can use it.
type AckLog struct {
	mu     sync.Mutex
	acked  bitset.Set
	failed bitset.Set
}

// NewAckLog returns a log sized for n records; it grows past n on demand.
func NewAckLog(n int64) *AckLog {
	return &AckLog{acked: bitset.New(n), failed: bitset.New(n)}
}

// set marks seq in bits, one of the two sets. Both sets grow together so
// that Len covers either; a log filled in order costs amortised O(1) per
// record. The caller holds mu.
func (a *AckLog) set(bits *bitset.Set, seq int64) {
	if seq < 0 {
		return
	}
	a.acked.Grow(seq)
	a.failed.Grow(seq)
	bits.Add(seq)
}

// Ack marks seq acknowledged; negative sequence numbers are ignored.
func (a *AckLog) Ack(seq int64) { a.mu.Lock(); a.set(&a.acked, seq); a.mu.Unlock() }

// Fail marks seq as reported failed to the application; negative sequence
// numbers are ignored.
func (a *AckLog) Fail(seq int64) { a.mu.Lock(); a.set(&a.failed, seq); a.mu.Unlock() }

// Acked reports whether seq was acknowledged.
func (a *AckLog) Acked(seq int64) bool { a.mu.Lock(); defer a.mu.Unlock(); return a.acked.Has(seq) }

// Failed reports whether seq was reported failed.
func (a *AckLog) Failed(seq int64) bool { a.mu.Lock(); defer a.mu.Unlock(); return a.failed.Has(seq) }

// Len is the number of sequence numbers the log currently covers: at least
// one past the highest sequence number marked, rounded up to a word.
func (a *AckLog) Len() int64 { a.mu.Lock(); defer a.mu.Unlock(); return a.acked.Len() }

// Ranges returns the acknowledged and the failed sequence numbers as sorted
// [from, to) ranges, as the worker protocol carries them.
func (a *AckLog) Ranges() (acked, failed [][2]int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return bitRanges(a.acked), bitRanges(a.failed)
}

// bitRanges lists the runs of set bits of s as [from, to) ranges.
func bitRanges(s bitset.Set) [][2]int64 {
	var out [][2]int64
	start := int64(-1)
	n := s.Len()
	for i := int64(0); i < n; i++ {
		switch has := s.Has(i); {
		case has && start < 0:
			start = i
		case !has && start >= 0:
			out = append(out, [2]int64{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, [2]int64{start, n})
	}
	return out
}
