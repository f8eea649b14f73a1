package stats

import (
	"fmt"
	"math"
)

// ComparePaired compares B with A when trials come in pairs: a[i] and b[i]
// ran back to back in the same round of one run, as the lab's interleaved
// rounds do. It takes each pair's log ratio ln(b[i]/a[i]) and applies
// prodlab's four-outcome rule (see Options and evidence.decide) to their
// mean with Student's one-sample t, so whatever moves both trials of a
// pair (a noisy neighbour, a warming JIT, a slow minute) cancels out
// instead of widening the interval, as it does in Welch's test:
//
//	faster by 12.3 % [+8.1 %, +16.4 %] (paired, 95 %)
//	equivalent within ±5 %: +0.4 % [-1.2 %, +2.0 %] (paired, 95 %)
//	inconclusive: [-9.8 %, +12.1 %] is wider than ±5 %; about 14 more rounds would decide it (paired, 95 %)
//
// Diff is the geometric mean ratio minus 1; Lo and Hi bound it at Level,
// exactly (the interval is symmetric in log space), and DiffErr is their
// half-distance. Equivalence is tested in log space against the bounds
// ln(1-Margin) and ln(1+Margin), which map back to exactly ±Margin. T and
// P test the mean log ratio against 0, so Significant agrees with "the
// interval excludes 0". Values must be positive, and there must be at
// least two pairs. The interval is never narrower than ±ln(1+Resolution)
// in log space (evidence.floored): two identical pairs 5 % apart give
// [+4.9 %, +5.1 %], not a certain +5.0 %.
func ComparePaired(a, b []float64, o Options) Verdict {
	o = o.withDefaults()
	v := notTested(PairedTest, o)
	v.Pairs = len(a)
	if msg := o.invalid(); msg != "" {
		v.Text = msg
		return v
	}
	if len(a) != len(b) {
		v.Text = fmt.Sprintf("not tested: %d trials on one side and %d on the other are not pairs", len(a), len(b))
		return v
	}
	lr := make([]float64, len(a))
	for i := range a {
		if !(a[i] > 0 && b[i] > 0) {
			v.Text = fmt.Sprintf("not tested: a paired test on ratios needs positive values (pair %d has %g and %g)", i, a[i], b[i])
			return v
		}
		lr[i] = math.Log(b[i] / a[i])
	}
	if len(lr) < 2 {
		v.Text = fmt.Sprintf("not tested: needs at least 2 pairs of trials (have %d)", len(lr))
		return v
	}
	v.trials = len(lr)
	v.concludeMean(lr, o, "paired", "round")
	return v
}

// concludeMean fills v from the one-sample t on xs, log ratios: their
// mean against 0 and the margin's bounds, with the rounds estimate
// assuming their spread stays (each more unit — a round, a life — adds
// one value). ComparePaired passes the pairs' log ratios, and
// ComparePairedLives the lives' means.
func (v *Verdict) concludeMean(xs []float64, o Options, test, unit string) {
	s := Summarize(xs, o.Level)
	v.Diff = math.Expm1(s.Mean)
	e := evidence{est: s.Mean, df: float64(s.N - 1),
		lo: math.Log1p(-o.Margin), hi: math.Log1p(o.Margin),
		seAt: func(k int) (float64, float64) {
			return s.SD / math.Sqrt(float64(s.N+k)), float64(s.N + k - 1)
		}}
	e.se, _ = e.seAt(0)
	v.conclude(e, o, test, unit)
}

// Judge compares a metric of B with A, the one place that chooses the
// test: paired by round (ComparePaired) on xs and ys, the metric's values
// in the rounds both sides counted, when there are at least two pairs,
// else Welch's test on the two sides' values as and bs (Welch). Pass no
// pairs when A and B did not run side by side in one run: trial numbers of
// different runs do not pair. o.Dir is the metric's direction.
func Judge(as, bs, xs, ys []float64, o Options) Verdict {
	if len(xs) >= 2 {
		return ComparePaired(xs, ys, o)
	}
	return Welch(as, bs, o)
}
