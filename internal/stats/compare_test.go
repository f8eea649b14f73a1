package stats

import (
	"math"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/histtest"
)

func TestCompare(t *testing.T) {
	// Wikipedia's Welch's t-test example (A1, A2): t = 2.455, df = 24.99,
	// p = 0.0214. Expected figures are scipy 1.17.1's (stats.ttest_ind
	// with equal_var=False; the delta-method error and the two one-sided
	// p-values with stats.t.ppf and stats.t.sf on the same formulas; the
	// rounds estimates by stepping k = 1, 2, ... in the same formulas with
	// stats.t.ppf at the whole part of Welch's df).
	a1 := []float64{27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4}
	a2 := []float64{27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4}
	sum := func(xs []float64) Summary { return Summarize(xs, DefaultConfidence) }
	tests := []compareCase{
		// Significant at 95 %: B is 10.4 % above A, ± 9.35 %.
		{"wikipedia 95%", sum(a1), sum(a2), Options{}, 2.455356398286006, 24.988529290231416, 0.021378001462866992,
			0.10406660262568046, 0.09350847766288807, 0.8775495251583425, KindFaster,
			"faster by 10.4 % [+1.1 %, +19.8 %] (Welch, 95 %)"},
		// The same data at 99.9 %: the interval includes 0 and is far wider
		// than ±5 %; the rounds estimate says how many more trials.
		{"wikipedia 99.9%", sum(a1), sum(a2), Options{Level: 0.999}, 2.455356398286006, 24.988529290231416, 0.021378001462866992,
			0.10406660262568046, 0.16913750042001877, math.NaN(), KindInconclusive,
			"inconclusive: [-6.5 %, +27.3 %] is wider than ±5 %; about 20 more trials per side would decide it (Welch, 99.9 %)"},
		// Equal variances: t = 20 exactly, df = 8; B's latency is 20 % higher.
		{"clear latency rise", sum([]float64{100, 102, 98, 101, 99}), sum([]float64{120, 118, 122, 119, 121}),
			Options{Dir: LowerIsBetter}, 20, 8, 4.073918328674922e-08, 0.2, 0.025470648180456714, 0.9999995845832793, KindHigher,
			"higher by 20.0 % [+17.5 %, +22.5 %] (Welch, 95 %)"},
		// The same pair with A and B swapped: lower latency, and slower for
		// a throughput.
		{"clear latency drop", sum([]float64{120, 118, 122, 119, 121}), sum([]float64{100, 102, 98, 101, 99}),
			Options{Dir: LowerIsBetter}, -20, 8, 4.073918328674922e-08, -1.0 / 6, math.NaN(), math.NaN(), KindLower,
			"lower by 16.7 % [-18.4 %, -14.9 %] (Welch, 95 %)"},
		{"throughput drop", sum([]float64{120, 118, 122, 119, 121}), sum([]float64{100, 102, 98, 101, 99}),
			Options{}, -20, 8, 4.073918328674922e-08, -1.0 / 6, math.NaN(), math.NaN(), KindSlower,
			"slower by 16.7 % [-18.4 %, -14.9 %] (Welch, 95 %)"},
		// A small shift under large noise: t = 0.4, p = 0.70; neither a
		// difference nor equivalence.
		{"noise", sum([]float64{100, 110, 90, 105, 95}), sum([]float64{102, 112, 92, 107, 97}),
			Options{}, 0.4, 8, 0.6996245047604208, 0.02, 0.11645891661895841, 0.284452337759997, KindInconclusive,
			"inconclusive: [-9.6 %, +13.6 %] is wider than ±5 %; about 35 more trials per side would decide it (Welch, 95 %)"},
		// Two steady setups 0.3 % apart: equivalent within ±5 %, TOST p = 2.2e-7.
		{"equivalent", sum([]float64{100, 101, 99, 100.5, 99.5, 100.2}), sum([]float64{100.3, 100.9, 99.6, 100.4, 100.1, 100.7}),
			Options{}, 0.8676336231896096, 8.54502727852441, 0.409298657483616, 0.0029990003332220905, 0.007899842112166652,
			2.2349247556932216e-07, KindEquivalent, "equivalent within ±5 %: +0.3 % [-0.5 %, +1.1 %] (Welch, 95 %)"},
		// One trial on a side: no test, only the difference.
		{"one trial", sum([]float64{100}), sum([]float64{110, 111}),
			Options{}, math.NaN(), math.NaN(), math.NaN(), 0.105, math.NaN(), math.NaN(), KindNotTested,
			"not tested: needs at least 2 trials on each side (have 1 and 2)"},
		// Zero variance on both sides and equal means: the interval is
		// never narrower than the resolution (0.1 % by default), so it is
		// ±0.1 %, not the point 0, and T, P and TOST p come from that floor:
		// se = 0.001/t.ppf(0.975, 3), TOST p = t.sf(0.05/se, 3) (scipy).
		{"identical", sum([]float64{5, 5}), sum([]float64{5, 5, 5}),
			Options{}, 0, 3, 1, 0, 0.001, 2.7364387883094503e-07, KindEquivalent, "equivalent within ±5 %: +0.0 % [-0.1 %, +0.1 %] (Welch, 95 %)"},
		// Zero variance and different means: not certain, but known to the
		// resolution; se = 0.001/t.ppf(0.975, 2), t = 0.2/se, p = 2·t.sf(t, 2).
		{"constant shift", sum([]float64{5, 5}), sum([]float64{6, 6}),
			Options{}, 860.5305459498925, 2, 1.350412777038447e-06, 0.2, 0.001, 0.9999987996349782, KindFaster, "faster by 20.0 % [+19.9 %, +20.1 %] (Welch, 95 %)"},
		// A's mean is 0: no relative difference to speak of.
		{"zero mean", sum([]float64{0, 0}), sum([]float64{1, 2}),
			Options{}, math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), KindNotTested,
			"not tested: relative difference undefined (A's mean is 0)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkCompare(t, tt) })
	}
}

// compareCase is one case of TestCompare.
type compareCase struct {
	name      string
	a, b      Summary
	o         Options
	t, df, p  float64
	diff, err float64 // NaN: not checked
	equivP    float64 // NaN: not checked
	kind      string
	text      string
}

// checkCompare runs Compare on tt and checks every figure it gives.
func checkCompare(t *testing.T, tt compareCase) {
	t.Helper()
	v := Compare(tt.a, tt.b, tt.o)
	check := func(what string, got, want, rel float64) {
		t.Helper()
		if math.IsNaN(want) || math.IsInf(want, 0) && got == want {
			return
		}
		if !histtest.Near(got, want, rel) && !(want == 0 && math.Abs(got) < 1e-12) {
			t.Errorf("%s = %.12g, want %.12g", what, got, want)
		}
	}
	check("t", v.T, tt.t, 1e-9)
	check("df", v.DF, tt.df, 1e-9)
	check("p", v.P, tt.p, 1e-6)
	check("diff", v.Diff, tt.diff, 1e-9)
	check("diff err", v.DiffErr, tt.err, 1e-6)
	check("equiv p", v.EquivP, tt.equivP, 1e-5)
	if v.Kind != tt.kind {
		t.Errorf("kind = %q, want %q", v.Kind, tt.kind)
	}
	if v.Text != tt.text {
		t.Errorf("text = %q, want %q", v.Text, tt.text)
	}
	if v.Test != WelchTest || v.Margin != DefaultMargin {
		t.Errorf("test %q margin %v", v.Test, v.Margin)
	}
}

// TestWelch: Welch's test on the logs of the values, so the interval is
// that of the ratio of geometric means and never passes −100 %. Expected
// figures are scipy 1.17's: stats.ttest_ind(ln b, ln a, equal_var=False)
// for t, df and p; exp(d ∓ t.ppf(0.975, df)·se) − 1 for the bounds; the
// larger of t.sf((d − ln 0.95)/se, df) and t.sf((ln 1.05 − d)/se, df) for
// TOST p; with se at least ln(1.001)/t.ppf(0.975, df) (the resolution).
func TestWelch(t *testing.T) {
	a1 := []float64{27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4}
	a2 := []float64{27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4}
	self := []float64{100, 160, 40}
	tests := []struct {
		name                        string
		a, b                        []float64
		t, df, p, diff, lo, hi, eqP float64
		kind, text                  string // text: a prefix
	}{
		// Wikipedia's example on logs: 11.0 % above (the raw method said
		// 10.4 % ± 9.35 %).
		{"wikipedia", a1, a2, 2.574727393027612, 23.708484020804573, 0.016714555720377517,
			0.10950958198577687, 0.02077611283179835, 0.2059564257467075, 0.9076021484478067,
			KindFaster, "faster by 11.0 % [+2.1 %, +20.6 %] (Welch, 95 %)"},
		// A run compared with itself: the raw method said
		// +0.0 % [-135.7 %, +135.7 %]; on logs the bounds are ratios.
		{"itself", self, self, 0, 4, 1, 0, -0.7977491775141189, 3.9443556654500567, 0.46826345870649455,
			KindInconclusive, "inconclusive: [-79.8 %, +394.4 %] is wider than ±5 %"},
		// A collapse: the raw method's interval passes −100 %.
		{"collapse", []float64{1000, 1500, 500}, []float64{24, 25, 23}, -11.299265992783157, 2.0225292055530195,
			0.007437273146058897, -0.9735998775640817, -0.9932866551071683, -0.8961819367606642, 0.9961742176227019,
			KindSlower, "slower by 97.4 % [-99.3 %, -89.6 %] (Welch, 95 %)"},
		// No spread: the resolution floor, not certainty.
		{"2 + 2 identical", []float64{100, 100}, []float64{105, 105}, 210.0320791298658, 2, 2.266803997556123e-05,
			0.05, 0.04895104895104818, 0.05104999999999923, 0.5, KindFaster, "faster by 5.0 % [+4.9 %, +5.1 %] (Welch, 95 %)"},
	}
	for _, tt := range tests {
		v := Welch(tt.a, tt.b, Options{})
		for _, c := range []struct {
			what      string
			got, want float64
		}{{"t", v.T, tt.t}, {"df", v.DF, tt.df}, {"p", v.P, tt.p}, {"diff", v.Diff, tt.diff},
			{"lo", v.Lo, tt.lo}, {"hi", v.Hi, tt.hi}, {"equiv p", v.EquivP, tt.eqP}} {
			if !histtest.Near(c.got, c.want, 1e-6) && !(c.want == 0 && math.Abs(c.got) < 1e-12) {
				t.Errorf("%s: %s = %.12g, want %.12g", tt.name, c.what, c.got, c.want)
			}
		}
		if v.Kind != tt.kind || !strings.HasPrefix(v.Text, tt.text) {
			t.Errorf("%s: %s %q, want %s %q…", tt.name, v.Kind, v.Text, tt.kind, tt.text)
		}
		if v.Lo <= -1 {
			t.Errorf("%s: lower bound %v passes -100 %%", tt.name, v.Lo)
		}
	}
	// Values that cannot be logged fall back to the raw method.
	a, b := []float64{0, 2, 1}, []float64{1, 2, 3}
	if got, want := Welch(a, b, Options{}), Compare(Summarize(a, DefaultConfidence), Summarize(b, DefaultConfidence), Options{}); got.Text != want.Text {
		t.Errorf("zero value: %q, want the raw method's %q", got.Text, want.Text)
	}
}
