package driver

import "sync"

// AckLog remembers which record sequence numbers a producer saw acknowledged
// or failed, so the audit can tell lost from never-sent and phantom records.
// It keeps one bit per sequence number per state and grows on demand, so a
// steady-state trial, whose record count is not known in advance, can use it.
type AckLog struct {
	mu     sync.Mutex
	acked  []uint64
	failed []uint64
}

// NewAckLog returns a log sized for n records; it grows past n on demand.
func NewAckLog(n int64) *AckLog {
	words := max(n+63, 0) / 64
	return &AckLog{acked: make([]uint64, words), failed: make([]uint64, words)}
}

// grow makes both bitsets cover seq, at least doubling them when they grow
// so that a log filled in order costs amortised O(1) per record. The caller
// holds mu.
func (a *AckLog) grow(seq int64) {
	need := int(seq/64) + 1
	if need <= len(a.acked) {
		return
	}
	n := max(need, 2*len(a.acked), 16)
	acked, failed := make([]uint64, n), make([]uint64, n)
	copy(acked, a.acked)
	copy(failed, a.failed)
	a.acked, a.failed = acked, failed
}

func (a *AckLog) set(bits *[]uint64, seq int64) {
	if seq < 0 {
		return
	}
	a.grow(seq)
	(*bits)[seq/64] |= 1 << (uint(seq) % 64)
}

func get(bits []uint64, seq int64) bool {
	return seq >= 0 && seq/64 < int64(len(bits)) && bits[seq/64]&(1<<(uint(seq)%64)) != 0
}

// Ack marks seq acknowledged; negative sequence numbers are ignored.
func (a *AckLog) Ack(seq int64) { a.mu.Lock(); a.set(&a.acked, seq); a.mu.Unlock() }

// Fail marks seq as reported failed to the application; negative sequence
// numbers are ignored.
func (a *AckLog) Fail(seq int64) { a.mu.Lock(); a.set(&a.failed, seq); a.mu.Unlock() }

// Acked reports whether seq was acknowledged.
func (a *AckLog) Acked(seq int64) bool { a.mu.Lock(); defer a.mu.Unlock(); return get(a.acked, seq) }

// Failed reports whether seq was reported failed.
func (a *AckLog) Failed(seq int64) bool { a.mu.Lock(); defer a.mu.Unlock(); return get(a.failed, seq) }

// Len is the number of sequence numbers the log currently covers: at least
// one past the highest sequence number marked, rounded up to a word.
func (a *AckLog) Len() int64 { a.mu.Lock(); defer a.mu.Unlock(); return int64(len(a.acked)) * 64 }
