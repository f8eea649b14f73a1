package audit

import "github.com/prodlab/prodlab/internal/results"

// Result is the outcome of an audit; the package documentation defines each
// count.
type Result struct {
	Acked      int64
	Lost       int64
	Duplicates int64
	Reordered  int64
	Phantom    int64
	Foreign    int64
	// Read is every record observed, this run's and foreign.
	Read int64
	// Txn holds the transaction figures of a transactional producer; nil
	// otherwise.
	Txn *TxnResult
}

// TxnResult is what an audit found of a transactional producer's
// transactions: Aborted records were in transactions it aborted, and
// AbortedSeen of them were read back (a violation under read_committed;
// under read_uncommitted, the aborted records the log holds).
//
// Undecided records were in a transaction that neither committed nor
// aborted (open when the producer stopped: fenced, or an abort that
// failed); UndecidedSeen of them were read back. Not a violation in
// itself (a commit whose answer was lost may have happened), but after
// a fence, which aborts the open transaction, they must not be visible.
type TxnResult struct {
	Aborted, AbortedSeen     int64
	Undecided, UndecidedSeen int64
}

// add sums o into t, either nil.
func (t *TxnResult) add(o *TxnResult) *TxnResult {
	if o == nil {
		return t
	}
	if t == nil {
		t = &TxnResult{}
	}
	t.Aborted += o.Aborted
	t.AbortedSeen += o.AbortedSeen
	t.Undecided += o.Undecided
	t.UndecidedSeen += o.UndecidedSeen
	return t
}

// Record maps the result onto the audit object of results.jsonl. Read is
// not part of that contract and is dropped.
// A transactional producer's figures go to Transactions as read with
// read_committed; the caller adds the read_uncommitted reconciliation.
func (r Result) Record() results.Audit {
	a := results.Audit{
		Acked:      r.Acked,
		Lost:       r.Lost,
		Duplicates: r.Duplicates,
		Reordered:  r.Reordered,
		Phantom:    r.Phantom,
		Foreign:    r.Foreign,
	}
	if r.Txn != nil {
		a.Transactions = &results.AuditTxn{Isolation: "read_committed", Aborted: r.Txn.Aborted, AbortedVisible: r.Txn.AbortedSeen,
			Undecided: r.Txn.Undecided, UndecidedVisible: r.Txn.UndecidedSeen}
	}
	return a
}

// Clean reports whether the run delivered every acknowledged record exactly
// once, in order, nothing it was told had failed and (read as
// read_committed) nothing of an aborted transaction.
func (r Result) Clean() bool {
	return r.Lost == 0 && r.Duplicates == 0 && r.Reordered == 0 && r.Phantom == 0 && (r.Txn == nil || r.Txn.AbortedSeen == 0)
}
