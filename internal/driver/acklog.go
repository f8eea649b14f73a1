package driver

import "sync"

// AckLog remembers which record sequence numbers a producer saw acknowledged
// or failed, so the audit can tell lost from never-sent and phantom records.
// It keeps one bit per sequence number per state.
type AckLog struct {
	mu     sync.Mutex
	acked  []uint64
	failed []uint64
}

// NewAckLog sizes the log for n records.
func NewAckLog(n int64) *AckLog {
	words := (n + 63) / 64
	return &AckLog{acked: make([]uint64, words), failed: make([]uint64, words)}
}

func set(bits []uint64, seq int64) {
	if seq >= 0 && seq/64 < int64(len(bits)) {
		bits[seq/64] |= 1 << (uint(seq) % 64)
	}
}

func get(bits []uint64, seq int64) bool {
	return seq >= 0 && seq/64 < int64(len(bits)) && bits[seq/64]&(1<<(uint(seq)%64)) != 0
}

// Ack marks seq acknowledged.
func (a *AckLog) Ack(seq int64) { a.mu.Lock(); set(a.acked, seq); a.mu.Unlock() }

// Fail marks seq as reported failed to the application.
func (a *AckLog) Fail(seq int64) { a.mu.Lock(); set(a.failed, seq); a.mu.Unlock() }

// Acked reports whether seq was acknowledged.
func (a *AckLog) Acked(seq int64) bool { a.mu.Lock(); defer a.mu.Unlock(); return get(a.acked, seq) }

// Failed reports whether seq was reported failed.
func (a *AckLog) Failed(seq int64) bool { a.mu.Lock(); defer a.mu.Unlock(); return get(a.failed, seq) }

// Len is the number of sequence numbers the log covers.
func (a *AckLog) Len() int64 { return int64(len(a.acked)) * 64 }
