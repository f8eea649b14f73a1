package stats

import (
	"fmt"
	"math"
)

// LivesTest is the test of a paired verdict pooled over several lives of
// the system measured (ComparePairedLives).
const LivesTest = "paired over lives"

// ComparePairedLives compares B with A when the pairs come from several
// lives of the system measured: a[l][i] and b[l][i] are pair i of life l,
// and each life started its own broker and client JVMs: a run, or one of
// the lives of a run with lives: N.
// Rounds within one life share whatever that life settled into — the
// JIT's choices, the heap, where the page cache sits — so a life can
// favour one arm for as long as it lasts, and the pairs of one life do not
// sample that (bench/RESULTS.md §30: the 1-broker idempotence pair moved
// by about ±2 % from one run to the next, twice what its intervals
// allowed).
//
// So each life counts once, as the levels of Kalibera and Jones's
// "Rigorous benchmarking in reasonable time": the estimate is the mean of
// the lives' mean log ratios, its standard error their SD over √L, with
// L−1 degrees of freedom. That interval covers whatever part of the
// difference varies between lives, at the price of few degrees of
// freedom: two lives give t = 12.7 at 95 %, five 2.78. The rule, wording
// and resolution floor are ComparePaired's; the rounds estimate of an
// inconclusive verdict counts more lives. Lives without a pair are left
// out; with fewer than two lives left it is ComparePaired on the one.
func ComparePairedLives(a, b [][]float64, o Options) Verdict {
	o = o.withDefaults()
	v := notTested(LivesTest, o)
	if msg := o.invalid(); msg != "" {
		v.Text = msg
		return v
	}
	if len(a) != len(b) {
		v.Text = fmt.Sprintf("not tested: %d lives on one side and %d on the other", len(a), len(b))
		return v
	}
	var means []float64
	pairs := 0
	var oneA, oneB []float64
	for l := range a {
		if len(a[l]) == 0 && len(b[l]) == 0 {
			continue
		}
		if len(a[l]) != len(b[l]) {
			v.Text = fmt.Sprintf("not tested: life %d has %d trials on one side and %d on the other, which are not pairs", l+1, len(a[l]), len(b[l]))
			return v
		}
		m, ok := meanLogRatio(a[l], b[l])
		if !ok {
			v.Text = fmt.Sprintf("not tested: a paired test on ratios needs positive values (life %d)", l+1)
			return v
		}
		means = append(means, m)
		pairs += len(a[l])
		oneA, oneB = a[l], b[l]
	}
	if len(means) < 2 {
		return ComparePaired(oneA, oneB, o)
	}
	v.Pairs = pairs
	v.trials, v.lives = pairs, len(means)
	v.concludeMean(means, o, fmt.Sprintf("paired over %d lives", len(means)), "life")
	return v
}

// Paired reports whether v comes from a paired test, on one life's
// rounds or over lives: its interval is that of a ratio, symmetric in log
// space.
func (v Verdict) Paired() bool { return v.Test == PairedTest || v.Test == LivesTest }

// meanLogRatio is the mean of ln(b[i]/a[i]); ok is false when a value is
// not positive or there is no pair.
func meanLogRatio(a, b []float64) (float64, bool) {
	if len(a) == 0 || len(a) != len(b) {
		return 0, false
	}
	sum := 0.0
	for i := range a {
		if !(a[i] > 0 && b[i] > 0) {
			return 0, false
		}
		sum += math.Log(b[i] / a[i])
	}
	return sum / float64(len(a)), true
}
