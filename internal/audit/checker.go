package audit

import (
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/auditheader"
	"github.com/prodlab/prodlab/internal/bitset"
)

// Outcome is what the producer application was told about each sequence
// number. The driver package's *AckLog satisfies it; the audit takes the
// interface so it needs to know nothing about drivers.
type Outcome interface {
	// Acked reports whether the send of seq was acknowledged.
	Acked(seq int64) bool
	// Failed reports whether the send of seq was reported failed.
	Failed(seq int64) bool
}

// TxnOutcome is what a transactional producer's application was told
// about each record's transaction; the driver's *AckLog satisfies it. For
// such a producer, Outcome.Acked means acknowledged and committed.
type TxnOutcome interface {
	// Transactional reports whether the producer ran transactions.
	Transactional() bool
	// Aborted reports whether seq was in a transaction it aborted.
	Aborted(seq int64) bool
	// Undecided reports whether seq was in a transaction that neither
	// committed nor aborted (open when the producer stopped, e.g. fenced).
	Undecided(seq int64) bool
}

// Checker counts what one producer run left in a topic, record by record.
// Feed it every record read back with Observe, in offset order within each
// partition, then ask for the Result. The package documentation defines the
// counts. A Checker is not safe for concurrent use: ReadBack calls Observe
// from one goroutine.
type Checker struct {
	tag  string
	sent int64
	out  Outcome
	txn  TxnOutcome // nil unless the producer ran transactions

	// seen holds every seq of this run found at least once.
	seen bitset.Set
	// early holds the seqs whose first copy was counted reordered, so that
	// an in-order copy found later in another partition can take the role
	// of the original (see Observe).
	early bitset.Set
	// parts keeps per-partition ordering state; last/lastID cache the
	// partition of the previous record, since fetches arrive in runs of
	// one partition.
	parts  map[int32]*partState
	last   *partState
	lastID int32

	read, foreign, duplicates, reordered, phantom int64
	// abortedSeen and undecidedSeen count the seqs of aborted and of
	// undecided transactions found, once each.
	abortedSeen, undecidedSeen int64
}

// partState is what the checker remembers about one partition: enough to
// spot reordering and to ignore a record delivered to it twice.
type partState struct {
	// maxSeq is the highest seq of this run seen so far in the partition,
	// -1 before the first.
	maxSeq int64
	// nextOffset is one past the last observed offset.
	nextOffset int64
}

// NewChecker returns a checker for the producer run tagged tag that handed
// sent records (seq 0..sent-1) to its producer; out says which of them were
// acknowledged or failed. A nil out means nothing was acknowledged or
// failed.
func NewChecker(tag string, sent int64, out Outcome) *Checker {
	if sent < 0 {
		sent = 0
	}
	var txn TxnOutcome
	if t, ok := out.(TxnOutcome); ok && t.Transactional() {
		txn = t
	}
	return &Checker{
		txn:   txn,
		tag:   tag,
		sent:  sent,
		out:   out,
		seen:  bitset.New(sent),
		early: bitset.New(sent),
		parts: make(map[int32]*partState),
	}
}

// Observe accounts for one record read back from partition at offset, with
// the record's headers. It is the hot path, called for every record: it does
// not allocate (after the first record of a partition) and never panics on
// malformed input. Records must come in offset order per partition; a
// record at or below an offset already observed in its partition is a
// consumer re-delivery, not a record in the log twice, and is ignored.
func (c *Checker) Observe(partition int32, offset int64, headers []kgo.RecordHeader) {
	ps := c.part(partition)
	if offset < ps.nextOffset {
		return
	}
	ps.nextOffset = offset + 1
	c.read++

	seq, ok := c.own(headers)
	if !ok {
		c.foreign++
		return
	}
	inOrder := seq >= ps.maxSeq
	ps.maxSeq = max(ps.maxSeq, seq)
	if c.seen.Has(seq) {
		c.duplicates++
		if inOrder && c.early.Has(seq) {
			// The copy read first was out of order in its partition and
			// this one is in order in its own: this is the original and
			// that was the extra copy, which counts only as a duplicate.
			// Without this, a duplicate written to another partition
			// would count as reordered or not depending on which
			// partition the consumer happened to read first.
			c.reordered--
			c.early.Remove(seq)
		}
		return
	}
	c.seen.Add(seq)
	if !inOrder {
		c.reordered++
		c.early.Add(seq)
	}
	if c.out != nil && c.out.Failed(seq) {
		c.phantom++
	}
	if c.txn != nil {
		switch {
		case c.txn.Aborted(seq):
			c.abortedSeen++
		case c.txn.Undecided(seq):
			c.undecidedSeen++
		}
	}
}

// own returns the seq of a record of this run, or false when the record is
// foreign: no prodlab header, an unparseable one, another run's tag, or a
// seq this run never sent.
func (c *Checker) own(headers []kgo.RecordHeader) (int64, bool) {
	for i := range headers {
		if headers[i].Key != auditheader.Key {
			continue
		}
		tag, seq, ok := auditheader.ParseBytes(headers[i].Value)
		if !ok || string(tag) != c.tag || seq >= c.sent {
			return 0, false
		}
		return seq, true
	}
	return 0, false
}

// part returns the state of partition p, creating it on first sight.
func (c *Checker) part(p int32) *partState {
	if c.last != nil && c.lastID == p {
		return c.last
	}
	ps, ok := c.parts[p]
	if !ok {
		ps = &partState{maxSeq: -1, nextOffset: -1 << 63}
		c.parts[p] = ps
	}
	c.last, c.lastID = ps, p
	return ps
}

// Result returns the counts so far. It can be called at any time, also
// after an incomplete read-back, and walks [0, sent) once to count acked and
// lost sequence numbers.
func (c *Checker) Result() Result {
	r := Result{
		Duplicates: c.duplicates,
		Reordered:  c.reordered,
		Phantom:    c.phantom,
		Foreign:    c.foreign,
		Read:       c.read,
	}
	if c.out == nil {
		return r
	}
	if c.txn != nil {
		r.Txn = &TxnResult{AbortedSeen: c.abortedSeen, UndecidedSeen: c.undecidedSeen}
	}
	for seq := range c.sent {
		if c.out.Acked(seq) {
			r.Acked++
			if !c.seen.Has(seq) {
				r.Lost++
			}
		}
		if c.txn != nil {
			switch {
			case c.txn.Aborted(seq):
				r.Txn.Aborted++
			case c.txn.Undecided(seq):
				r.Txn.Undecided++
			}
		}
	}
	return r
}
