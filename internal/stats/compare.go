package stats

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Direction says which way a metric improves, for the wording of verdicts.
type Direction int

const (
	// HigherIsBetter metrics (throughput) are "faster" or "slower".
	HigherIsBetter Direction = iota
	// LowerIsBetter metrics (latency, bytes on disk) are "lower" or "higher".
	LowerIsBetter
)

// Tests a Verdict can come from.
const (
	WelchTest  = "welch"  // Welch's unequal-variances t-test on two samples
	PairedTest = "paired" // Student's t-test on the log ratios of paired trials
	// CapacityTest compares two capacity searches' sustainable rates
	// (CompareThresholds).
	CapacityTest = "capacity search"
)

// Verdict is the outcome of comparing B against A.
type Verdict struct {
	// Test is WelchTest, PairedTest or CapacityTest; Pairs counts the
	// pairs of a paired test.
	Test  string `json:"test"`
	Pairs int    `json:"pairs,omitempty"`
	// Kind is the answer: KindFaster, KindSlower (KindLower, KindHigher for
	// LowerIsBetter metrics), KindEquivalent, KindInconclusive or
	// KindNotTested.
	Kind string `json:"kind"`
	// Diff is the relative difference of B from A: +0.05 means B is 5 %
	// above A. It is the geometric mean ratio minus 1 for both tests on
	// logs, (B-A)/A of the means for Welch's raw fallback (Compare). NaN
	// when A's mean is 0 or a side has no trials.
	Diff float64 `json:"diff"`
	// DiffErr is the half-width of Diff's confidence interval at Level,
	// (Hi-Lo)/2. NaN when either side has fewer than two trials.
	DiffErr float64 `json:"diff_err"`
	// Lo and Hi bound Diff's confidence interval at Level: the exact
	// (asymmetric) bounds mapped back from log space, or Diff ∓ DiffErr for
	// the raw fallback.
	Lo float64 `json:"diff_lo"`
	Hi float64 `json:"diff_hi"`
	// T, DF and P are the test's statistic, degrees of freedom and
	// two-sided p-value against "no difference".
	T  float64 `json:"t"`
	DF float64 `json:"df"`
	P  float64 `json:"p"`
	// Level is the confidence level of the test (DefaultConfidence).
	Level float64 `json:"level"`
	// Significant is P < 1-Level.
	Significant bool `json:"significant"`
	// Margin is the equivalence margin the verdict used (relative, 0.05
	// for ±5 %), and EquivP the p-value of the two one-sided tests against
	// it (the larger of the two): equivalence is shown when EquivP <
	// 1-Level. NaN when not tested.
	Margin float64 `json:"margin"`
	EquivP float64 `json:"equiv_p"`
	// MoreRounds estimates, for an inconclusive verdict, how many more
	// pairs (paired) or trials per side (Welch) would decide it at the
	// present spread; -1 when that cannot be estimated, 0 for any other
	// kind.
	MoreRounds int `json:"more_rounds"`
	// Text is the verdict in words, e.g.
	// "faster by 12.3 % [+8.1 %, +16.4 %] (paired, 95 %)".
	Text string `json:"text"`

	// trials is the fewest trials on a side: the pairs of a paired test,
	// min(n_A, n_B) for Welch's; lives the lives a verdict over lives
	// counted (0 for any other). StopRule reads both.
	trials, lives int
}

// notTested returns the verdict of a comparison that did not run: every
// figure NaN, kind KindNotTested.
func notTested(test string, o Options) Verdict {
	return Verdict{Test: test, Kind: KindNotTested, Diff: math.NaN(), DiffErr: math.NaN(), Lo: math.NaN(), Hi: math.NaN(),
		T: math.NaN(), DF: math.NaN(), P: math.NaN(), Level: o.Level, Margin: o.Margin, EquivP: math.NaN()}
}

// Welch compares B's values with A's with Welch's unequal-variances
// t-test on their logarithms, and answers with prodlab's four-outcome rule
// (see Options and evidence.decide):
//
//	faster by 10.4 % [+1.1 %, +19.8 %] (Welch, 95 %)
//	equivalent within ±5 %: +0.4 % [-1.2 %, +2.0 %] (Welch, 95 %)
//	inconclusive: [-9.8 %, +12.1 %] is wider than ±5 %; about 14 more trials per side would decide it (Welch, 95 %)
//
// It works on ln x, as the paired test does, so the interval is that of
// the ratio of geometric means and can never pass −100 %: T, DF and P
// test mean(ln B) − mean(ln A) against 0 with Welch–Satterthwaite degrees
// of freedom of the logs, Diff is exp(that)−1, and Lo and Hi are the
// log-space interval mapped back, exp(lo)−1 and exp(hi)−1. Equivalence is
// tested against ln(1∓Margin). Values ≤ 0 cannot be logged: then the
// test falls back to Compare on the raw values. The interval is never
// narrower than ±ln(1+Resolution) in log space (evidence.floored).
func Welch(as, bs []float64, o Options) Verdict {
	for _, x := range append(append([]float64(nil), as...), bs...) {
		if !(x > 0) {
			return Compare(Summarize(as, DefaultConfidence), Summarize(bs, DefaultConfidence), o)
		}
	}
	o = o.withDefaults()
	v := notTested(WelchTest, o)
	v.trials = min(len(as), len(bs))
	a, b := Summarize(logs(as), o.Level), Summarize(logs(bs), o.Level)
	if a.N > 0 && b.N > 0 {
		v.Diff = math.Expm1(b.Mean - a.Mean)
	}
	if v.untestable(o, a.N, b.N) {
		return v
	}
	e := evidence{est: b.Mean - a.Mean, lo: math.Log1p(-o.Margin), hi: math.Log1p(o.Margin), seAt: welchSE(a, b)}
	e.se, e.df = e.seAt(0)
	v.conclude(e, o, "Welch", "trial per side")
	return v
}

// untestable says why two sides of na and nb trials cannot be tested
// with o (an invalid level or margin, fewer than 2 trials a side), in
// v.Text, and reports whether they cannot.
func (v *Verdict) untestable(o Options, na, nb int) bool {
	if msg := o.invalid(); msg != "" {
		v.Text = msg
		return true
	}
	if na < 2 || nb < 2 {
		v.Text = fmt.Sprintf("not tested: needs at least 2 trials on each side (have %d and %d)", na, nb)
		return true
	}
	return false
}

// conclude fills a log-space verdict from its evidence: the interval
// floored at the resolution, t, p and significance, the kind with its
// text (test and unit name them), and the mark of too few pairs.
func (v *Verdict) conclude(e evidence, o Options, test, unit string) {
	e = e.floored(math.Log1p(o.Resolution), o.Level)
	v.DF, v.T = e.df, e.est/e.se
	v.P = 2 * tCDF(-math.Abs(v.T), v.DF)
	v.Significant = v.P < 1-o.Level
	v.settle(e.decide(o.Level), o, math.Expm1, test, unit)
	v.DiffErr = (v.Hi - v.Lo) / 2
	v.markShort(o)
}

// logs returns the natural logarithms of xs.
func logs(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Log(x)
	}
	return out
}

// welchSE returns the standard error of the difference of a's and b's
// means, and its Welch–Satterthwaite degrees of freedom, with k more
// trials on each side at the same spread.
func welchSE(a, b Summary) func(k int) (float64, float64) {
	return func(k int) (float64, float64) {
		va, vb := a.SD*a.SD/float64(a.N+k), b.SD*b.SD/float64(b.N+k)
		if va+vb == 0 {
			return 0, float64(a.N + b.N + 2*k - 2)
		}
		return math.Sqrt(va + vb), welchDF(va, vb, a.N+k, b.N+k)
	}
}

// Compare is Welch's test on raw values, from their summaries, for values
// that cannot be logged (Welch falls back to it): it answers like Welch,
// but on the relative difference (B-A)/A.
//
// T, DF and P are Welch's test of the difference of the means. The
// interval, the equivalence test and the rule work on the relative
// difference (B-A)/A with the delta-method standard error
// √(seB² + (B/A)²·seA²)/|A| and Welch's degrees of freedom, so the
// interval can pass −100 %; Significant (P < 1-Level) and "the interval
// excludes 0" can disagree right at the boundary when A and B are far
// apart, where the delta method is least exact. Both sides need at least
// two trials, and A's mean must not be 0; otherwise the verdict says so
// (KindNotTested) and only Diff is set. The interval is never narrower
// than ±Resolution (evidence.floored); when both sides have zero
// variance, T and P come from that floor too.
func Compare(a, b Summary, o Options) Verdict {
	o = o.withDefaults()
	v := notTested(WelchTest, o)
	v.trials = min(a.N, b.N)
	if a.N > 0 && b.N > 0 && a.Mean != 0 {
		v.Diff = (b.Mean - a.Mean) / a.Mean
	}
	if v.untestable(o, a.N, b.N) {
		return v
	}
	se, df := welchSE(a, b)(0)
	d := b.Mean - a.Mean
	v.DF, v.T = df, d/se
	if a.Mean == 0 {
		v.P = 2 * tCDF(-math.Abs(v.T), v.DF)
		if se == 0 {
			v.P, v.T = 1, 0
			if d != 0 {
				v.P, v.T = 0, math.Copysign(math.Inf(1), d)
			}
		}
		v.Significant = v.P < 1-o.Level
		v.Text = "not tested: relative difference undefined (A's mean is 0)"
		return v
	}
	r := b.Mean / a.Mean
	// relSE is the delta-method standard error of B/A with n_A+k and
	// n_B+k trials: Var(B/A) ≈ (seB² + (B/A)²·seA²)/A², and Welch's df.
	relSE := func(k int) (float64, float64) {
		va, vb := a.SD*a.SD/float64(a.N+k), b.SD*b.SD/float64(b.N+k)
		s := math.Sqrt(vb+r*r*va) / math.Abs(a.Mean)
		if va+vb == 0 {
			return s, float64(a.N + b.N + 2*k - 2)
		}
		return s, welchDF(va, vb, a.N+k, b.N+k)
	}
	e := evidence{est: v.Diff, lo: -o.Margin, hi: o.Margin, seAt: relSE}
	e.se, e.df = relSE(0)
	e = e.floored(o.Resolution, o.Level)
	if se == 0 {
		v.T = e.est / e.se
	}
	v.P = 2 * tCDF(-math.Abs(v.T), v.DF)
	v.Significant = v.P < 1-o.Level
	dec := e.decide(o.Level)
	v.DiffErr = (dec.ciHi - dec.ciLo) / 2
	v.settle(dec, o, func(x float64) float64 { return x }, "Welch", "trial per side")
	v.markShort(o)
	return v
}

// welchDF is the Welch–Satterthwaite degrees of freedom of two samples
// whose squared standard errors are va and vb.
func welchDF(va, vb float64, na, nb int) float64 {
	return (va + vb) * (va + vb) / (va*va/float64(na-1) + vb*vb/float64(nb-1))
}

// Percent renders a confidence level as "95 %" or "99.9 %" (to at most
// two decimals of a percent, so 0.95 is not "94.99999999999999 %" and a
// race's Bonferroni level 1 − 0.05/6 is "99.17 %", not "99.166667 %").
func Percent(level float64) string {
	return strconv.FormatFloat(math.Round(level*1e4)/1e2, 'f', -1, 64) + " %"
}

// MarshalJSON writes NaN and infinite figures (a test that did not run, the
// t of a zero-variance difference) as null, since JSON has neither.
func (v Verdict) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Test        string   `json:"test"`
		Pairs       int      `json:"pairs,omitempty"`
		Kind        string   `json:"kind"`
		Diff        *float64 `json:"diff"`
		DiffErr     *float64 `json:"diff_err"`
		Lo          *float64 `json:"diff_lo"`
		Hi          *float64 `json:"diff_hi"`
		T           *float64 `json:"t"`
		DF          *float64 `json:"df"`
		P           *float64 `json:"p"`
		Level       float64  `json:"level"`
		Significant bool     `json:"significant"`
		Margin      float64  `json:"margin"`
		EquivP      *float64 `json:"equiv_p"`
		MoreRounds  int      `json:"more_rounds"`
		Text        string   `json:"text"`
	}{v.Test, v.Pairs, v.Kind, finite(v.Diff), finite(v.DiffErr), finite(v.Lo), finite(v.Hi),
		finite(v.T), finite(v.DF), finite(v.P), v.Level, v.Significant, v.Margin, finite(v.EquivP), v.MoreRounds, v.Text})
}
