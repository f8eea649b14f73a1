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
}

// Record maps the result onto the audit object of results.jsonl. Read is
// not part of that contract and is dropped.
func (r Result) Record() results.Audit {
	return results.Audit{
		Acked:      r.Acked,
		Lost:       r.Lost,
		Duplicates: r.Duplicates,
		Reordered:  r.Reordered,
		Phantom:    r.Phantom,
		Foreign:    r.Foreign,
	}
}

// Clean reports whether the run delivered every acknowledged record exactly
// once, in order, and nothing it was told had failed.
func (r Result) Clean() bool {
	return r.Lost == 0 && r.Duplicates == 0 && r.Reordered == 0 && r.Phantom == 0
}
