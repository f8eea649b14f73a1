package lab

import (
	"fmt"
	"strings"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// violation is one kind of delivery failure the audit counts, with the
// expect: key that declares it expected.
type violation struct {
	key      string // expect.<key>
	what     string // how the count reads
	count    func(*results.Audit) int64
	expected func(expfile.Expect) bool
}

// violations are the audit findings that break delivery. Foreign records
// (another producer's, on a shared topic) are not among them.
var violations = []violation{
	{"lost", "lost acknowledged", func(a *results.Audit) int64 { return a.Lost }, func(x expfile.Expect) bool { return x.Lost }},
	{"duplicates", "duplicated", func(a *results.Audit) int64 { return a.Duplicates }, func(x expfile.Expect) bool { return x.Duplicates }},
	{"reordered", "reordered", func(a *results.Audit) int64 { return a.Reordered }, func(x expfile.Expect) bool { return x.Reordered }},
	{"phantom", "phantom (reported failed, yet written)", func(a *results.Audit) int64 { return a.Phantom }, func(x expfile.Expect) bool { return x.Phantom }},
	{"aborted.visible", "aborted-transaction (visible to read_committed)", func(a *results.Audit) int64 {
		if a.Transactions == nil {
			return 0
		}
		return a.Transactions.AbortedVisible
	}, func(x expfile.Expect) bool { return x.AbortedVisible }},
}

// checkDelivery marks a trial that ran to its end violated when its audit
// found what x does not expect, with the counts and the key that would
// declare them expected. Expected findings leave the status alone: the
// counts stay in the record and the table.
func checkDelivery(rec *results.Record, x expfile.Expect) {
	if rec.Audit == nil || rec.Status != results.StatusOK {
		return
	}
	var found, keys []string
	for _, v := range violations {
		if n := v.count(rec.Audit); n > 0 && !v.expected(x) {
			found = append(found, fmt.Sprintf("%s %s", textfmt.Group(float64(n), 0), v.what))
			keys = append(keys, "expect."+v.key+": true")
		}
	}
	if len(found) == 0 {
		return
	}
	rec.Status = results.StatusViolated
	rec.Error = fmt.Sprintf("delivery violated: %s records (an experiment that expects this says %s)",
		strings.Join(found, ", "), strings.Join(keys, ", "))
}
