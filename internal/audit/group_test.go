package audit

import "testing"

// TestProducerGroup checks a topic written by two producer runs: each run's
// sequence is checked on its own, interleaving between runs is not
// reordering, and every defect is found in the run it belongs to.
func TestProducerGroup(t *testing.T) {
	const a, b = "run1-s0-r0/p0", "run1-s0-r0/p1"
	tagRun := func(p int32, tag string, seqs ...int64) []obs {
		out := make([]obs, len(seqs))
		for i, s := range seqs {
			out[i] = tagged(p, tag, s)
		}
		return out
	}
	// interleave merges two record lists alternately, as two producers
	// writing one partition would.
	interleave := func(x, y []obs) []obs {
		var out []obs
		for i := 0; i < len(x) || i < len(y); i++ {
			if i < len(x) {
				out = append(out, x[i])
			}
			if i < len(y) {
				out = append(out, y[i])
			}
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		records []obs
		want    Result
	}{
		{
			// Both runs complete, interleaved in one partition: clean.
			name:    "clean, interleaved",
			records: interleave(tagRun(0, a, 0, 1, 2, 3), tagRun(0, b, 0, 1, 2, 3)),
			want:    Result{Acked: 8, Read: 8},
		},
		{
			// Run b's seq 2 missing: one loss, in b only.
			name:    "loss in the second run",
			records: interleave(tagRun(0, a, 0, 1, 2, 3), tagRun(0, b, 0, 1, 3)),
			want:    Result{Acked: 8, Lost: 1, Read: 7},
		},
		{
			// Run a's seqs 1 and 2 swapped: reordered in a's own sequence,
			// although b's records sit between them.
			name:    "reordered within one run",
			records: interleave(tagRun(0, a, 0, 2, 1, 3), tagRun(0, b, 0, 1, 2, 3)),
			want:    Result{Acked: 8, Reordered: 1, Read: 8},
		},
		{
			// Run b's seq 0 twice: a duplicate; run a's seq 0 is its own
			// number, not a duplicate of b's.
			name:    "duplicate in one run",
			records: cat(tagRun(0, a, 0, 1, 2, 3), tagRun(0, b, 0, 0, 1, 2, 3)),
			want:    Result{Acked: 8, Duplicates: 1, Read: 9},
		},
		{
			// A third run's record and a headerless one are foreign.
			name:    "foreign records",
			records: cat(tagRun(0, a, 0, 1, 2, 3), tagRun(1, b, 0, 1, 2, 3), tagRun(1, "run1-s0-r0/p2", 0), []obs{raw(0, "nonsense")}),
			want:    Result{Acked: 8, Foreign: 2, Read: 10},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ca := NewChecker(a, 4, newTestOutcome(4).ack(span(0, 4)...))
			cb := NewChecker(b, 4, newTestOutcome(4).ack(span(0, 4)...))
			g := NewGroup(ca, cb)
			next := map[int32]int64{}
			for _, r := range tc.records {
				g.Observe(r.p, next[r.p], r.h)
				next[r.p]++
			}
			g.Observe(0, 0, tagRun(0, a, 0)[0].h) // a re-delivery: ignored
			if got := g.Result(); got != tc.want {
				t.Errorf("result %+v, want %+v", got, tc.want)
			}
		})
	}
}
