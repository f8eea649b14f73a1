package stats

import (
	"fmt"
	"math"

	"github.com/prodlab/prodlab/internal/results"
)

// ComparePaired tests whether B differs from A when trials come in pairs:
// a[i] and b[i] ran back to back in the same round of one run, as the lab's
// interleaved rounds do. It takes each pair's log ratio ln(b[i]/a[i]) and
// tests their mean against 0 with Student's one-sample t-test, so whatever
// moves both trials of a pair (a noisy neighbour, a warming JIT, a slow
// minute) cancels out instead of widening the interval, as it does in
// Welch's test. Diff is the geometric mean ratio minus 1; Lo and Hi bound it
// at level, exactly (the interval is symmetric in log space), and DiffErr is
// their half-distance, for the "± x %" wording. Values must be positive.
func ComparePaired(a, b []float64, level float64, dir Direction) Verdict {
	v := Verdict{Diff: math.NaN(), DiffErr: math.NaN(), Lo: math.NaN(), Hi: math.NaN(),
		T: math.NaN(), DF: math.NaN(), P: math.NaN(), Level: level, Test: PairedTest, Pairs: len(a)}
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
	s := Summarize(lr, level)
	v.Diff = math.Expm1(s.Mean)
	v.DF = float64(s.N - 1)
	if s.SD == 0 {
		v.Lo, v.Hi, v.DiffErr = v.Diff, v.Diff, 0
		v.T, v.P = 0, 1
		if s.Mean != 0 {
			v.T, v.P = math.Copysign(math.Inf(1), s.Mean), 0
		}
	} else {
		v.T = s.Mean / (s.SD / math.Sqrt(float64(s.N)))
		v.P = 2 * tCDF(-math.Abs(v.T), v.DF)
		v.Lo, v.Hi = math.Expm1(s.Mean-s.Err), math.Expm1(s.Mean+s.Err)
		v.DiffErr = (v.Hi - v.Lo) / 2
	}
	v.Significant = v.P < 1-level
	if !v.Significant {
		v.Text = fmt.Sprintf("no significant difference (p=%s, paired t-test on %d log ratios at %s)", pValue(v.P), s.N, Percent(level))
		return v
	}
	v.Text = fmt.Sprintf("%s by %.1f %% ± %.1f %% (paired)", verdictWord(dir, s.Mean), math.Abs(v.Diff)*100, v.DiffErr*100)
	return v
}

// Paired returns the values of metric m for the trials that a and b both
// counted, matched by trial number, in trial order. Scenarios of one run
// share trial numbers: trial i of every scenario ran in round i.
func Paired(a, b *ScenarioStats, m Metric) (xs, ys []float64) {
	byTrial := make(map[int]*results.Record, len(b.counted))
	for i := range b.counted {
		byTrial[b.counted[i].Trial] = &b.counted[i]
	}
	for i := range a.counted {
		if rb, ok := byTrial[a.counted[i].Trial]; ok {
			xs = append(xs, m.Trial(&a.counted[i]))
			ys = append(ys, m.Trial(rb))
		}
	}
	return xs, ys
}
