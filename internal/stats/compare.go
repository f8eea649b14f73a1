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
)

// Verdict is the outcome of comparing B against A.
type Verdict struct {
	// Test is WelchTest or PairedTest; Pairs counts the pairs of a paired
	// test.
	Test  string `json:"test"`
	Pairs int    `json:"pairs,omitempty"`
	// Diff is the relative difference of the means, (B-A)/A: +0.05 means B
	// is 5 % above A. NaN when A's mean is 0 or a side has no trials.
	Diff float64 `json:"diff"`
	// DiffErr is the half-width of Diff's confidence interval at Level
	// (delta method on the ratio of means, Welch's degrees of freedom).
	// NaN when either side has fewer than two trials.
	DiffErr float64 `json:"diff_err"`
	// Lo and Hi bound Diff's confidence interval at Level: Diff ∓ DiffErr
	// for Welch's test, the exact (asymmetric) bounds for a paired one.
	Lo float64 `json:"diff_lo"`
	Hi float64 `json:"diff_hi"`
	// T, DF and P are Welch's statistic, degrees of freedom and two-sided
	// p-value.
	T  float64 `json:"t"`
	DF float64 `json:"df"`
	P  float64 `json:"p"`
	// Level is the confidence level of the test (0.999).
	Level float64 `json:"level"`
	// Significant is P < 1-Level.
	Significant bool `json:"significant"`
	// Text is the verdict in words, e.g. "faster by 12.3 % ± 4.5 %".
	Text string `json:"text"`
}

// Compare tests whether B's mean differs from A's with Welch's unequal
// variances t-test at confidence level (DefaultConfidence, say), and words
// the result for a metric improving in direction dir:
//
//	faster by 12.3 % ± 4.5 %      (significant, HigherIsBetter, B above A)
//	lower by 8.0 % ± 2.1 %        (significant, LowerIsBetter, B below A)
//	no significant difference (p=0.42, Welch's t-test at 99.9 %)
//
// Both sides need at least two trials; otherwise the verdict says so and
// only Diff is set. When both sides have zero variance the test is
// degenerate: equal means are no difference (p=1), different ones are
// significant (p=0).
func Compare(a, b Summary, level float64, dir Direction) Verdict {
	v := Verdict{Diff: math.NaN(), DiffErr: math.NaN(), Lo: math.NaN(), Hi: math.NaN(),
		T: math.NaN(), DF: math.NaN(), P: math.NaN(), Level: level, Test: WelchTest}
	if a.N > 0 && b.N > 0 && a.Mean != 0 {
		v.Diff = (b.Mean - a.Mean) / a.Mean
	}
	if a.N < 2 || b.N < 2 {
		v.Text = fmt.Sprintf("not tested: needs at least 2 trials on each side (have %d and %d)", a.N, b.N)
		return v
	}
	va, vb := a.SD*a.SD/float64(a.N), b.SD*b.SD/float64(b.N) // squared standard errors
	se := math.Sqrt(va + vb)
	d := b.Mean - a.Mean
	if se == 0 {
		v.DF = float64(a.N + b.N - 2)
		v.P, v.T = 1, 0
		if d != 0 {
			v.P, v.T = 0, math.Copysign(math.Inf(1), d)
		}
		v.DiffErr = 0
	} else {
		v.T = d / se
		v.DF = (va + vb) * (va + vb) / (va*va/float64(a.N-1) + vb*vb/float64(b.N-1))
		v.P = 2 * tCDF(-math.Abs(v.T), v.DF)
		if a.Mean != 0 && b.Mean != 0 {
			// Var(B/A) ≈ (B/A)²·(seA²/A² + seB²/B²), first-order delta method.
			r := b.Mean / a.Mean
			seRel := math.Abs(r) * math.Sqrt(va/(a.Mean*a.Mean)+vb/(b.Mean*b.Mean))
			v.DiffErr = TQuantile(1-(1-level)/2, v.DF) * seRel
		}
	}
	if !math.IsNaN(v.Diff) && !math.IsNaN(v.DiffErr) {
		v.Lo, v.Hi = v.Diff-v.DiffErr, v.Diff+v.DiffErr
	}
	v.Significant = v.P < 1-level
	if !v.Significant {
		v.Text = fmt.Sprintf("no significant difference (p=%s, Welch's t-test at %s)", pValue(v.P), Percent(level))
		return v
	}
	word := verdictWord(dir, d)
	if math.IsNaN(v.Diff) {
		v.Text = word + " (relative difference undefined: A's mean is 0)"
		return v
	}
	v.Text = fmt.Sprintf("%s by %.1f %% ± %.1f %%", word, math.Abs(v.Diff)*100, v.DiffErr*100)
	return v
}

// verdictWord says which way B moved (d is its signed difference from A)
// for a metric improving in direction dir.
func verdictWord(dir Direction, d float64) string {
	up, down := "faster", "slower"
	if dir == LowerIsBetter {
		up, down = "higher", "lower"
	}
	if d < 0 {
		return down
	}
	return up
}

// pValue renders a p-value with two significant digits, in scientific
// notation when tiny.
func pValue(p float64) string {
	if p != 0 && p < 0.001 {
		return strconv.FormatFloat(p, 'e', 1, 64)
	}
	return strconv.FormatFloat(p, 'g', 2, 64)
}

// Percent renders a confidence level as "99.9 %".
func Percent(level float64) string {
	return strconv.FormatFloat(level*100, 'f', -1, 64) + " %"
}

// MarshalJSON writes NaN and infinite figures (a test that did not run, the
// t of a zero-variance difference) as null, since JSON has neither.
func (v Verdict) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Test        string   `json:"test"`
		Pairs       int      `json:"pairs,omitempty"`
		Diff        *float64 `json:"diff"`
		DiffErr     *float64 `json:"diff_err"`
		Lo          *float64 `json:"diff_lo"`
		Hi          *float64 `json:"diff_hi"`
		T           *float64 `json:"t"`
		DF          *float64 `json:"df"`
		P           *float64 `json:"p"`
		Level       float64  `json:"level"`
		Significant bool     `json:"significant"`
		Text        string   `json:"text"`
	}{v.Test, v.Pairs, finite(v.Diff), finite(v.DiffErr), finite(v.Lo), finite(v.Hi),
		finite(v.T), finite(v.DF), finite(v.P), v.Level, v.Significant, v.Text})
}
