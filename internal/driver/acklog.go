package driver

import (
	"sync"

	"github.com/prodlab/prodlab/internal/bitset"
)

// AckLog remembers which record sequence numbers a producer saw acknowledged
// or failed, so the audit can tell lost from never-sent and phantom records.
// It keeps one bit per sequence number per state and grows on demand, so a
// steady-state trial, whose record count is not known in advance, can use it.
//
// A transactional producer's log also keeps each record's transaction:
// committed or aborted (MarkTxn). Its records count as acknowledged only
// once their transaction committed, since only then is the application
// told they are durable; a record of a transaction neither committed nor
// aborted (the trial ended with it open) is undecided, neither acked nor
// failed, like a send still in flight.
type AckLog struct {
	mu     sync.Mutex
	acked  bitset.Set
	failed bitset.Set
	// txn is set by SetTransactional or MarkTxn; committed and aborted
	// hold the records of committed and aborted transactions.
	txn                bool
	committed, aborted bitset.Set
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

// Acked reports whether seq was acknowledged (for a transactional producer:
// and its transaction committed).
func (a *AckLog) Acked(seq int64) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.acked.Has(seq) && (!a.txn || a.committed.Has(seq))
}

// MarkTxn records that the transaction holding records [from, to)
// committed, or was aborted. The log is transactional from then on. A nil
// log ignores it (a trial without audit).
func (a *AckLog) MarkTxn(from, to int64, committed bool) {
	if a == nil || from >= to || from < 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.txn = true
	bits := &a.aborted
	if committed {
		bits = &a.committed
	}
	bits.Grow(to - 1)
	for seq := from; seq < to; seq++ {
		bits.Add(seq)
	}
}

// SetTransactional makes the log a transactional producer's before any
// transaction ended, so that the records of one never ended are
// undecided rather than acked. A nil log ignores it.
func (a *AckLog) SetTransactional() {
	if a != nil {
		a.mu.Lock()
		a.txn = true
		a.mu.Unlock()
	}
}

// Transactional reports whether the log is a transactional producer's
// (SetTransactional or MarkTxn).
func (a *AckLog) Transactional() bool { a.mu.Lock(); defer a.mu.Unlock(); return a.txn }

// Undecided reports whether seq, of a transactional producer's log, is in
// no transaction that committed or aborted. The log's range is rounded up
// (and a burst's is sized in advance), so callers ask only of seqs that
// were handed over (the audit: below the run's sent count).
func (a *AckLog) Undecided(seq int64) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.txn && seq >= 0 && seq < a.acked.Len() && !a.committed.Has(seq) && !a.aborted.Has(seq)
}

// Aborted reports whether seq was in a transaction the producer aborted.
func (a *AckLog) Aborted(seq int64) bool { a.mu.Lock(); defer a.mu.Unlock(); return a.aborted.Has(seq) }

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

// TxnRanges returns the records of committed and of aborted transactions
// as sorted [from, to) ranges, as the worker protocol carries them; both nil
// for a producer that is not transactional.
func (a *AckLog) TxnRanges() (committed, aborted [][2]int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.txn {
		return nil, nil
	}
	return bitRanges(a.committed), bitRanges(a.aborted)
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
