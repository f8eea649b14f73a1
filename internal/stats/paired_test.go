package stats

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/histtest"
)

func TestComparePaired(t *testing.T) {
	// Expected figures are scipy 1.17.1's on ln(b/a): stats.ttest_1samp
	// for t and p; t.ppf(0.975, n-1) for the bounds; the two one-sided
	// tests as ttest_1samp against ln(0.95) (alternative="greater") and
	// ln(1.05) (alternative="less"), the larger p being EquivP (this is
	// Schuirmann's TOST, as TOSTER's t_TOST computes it in log space); the
	// rounds estimate by stepping n = 6, 7, ... until t.ppf·s/√n is below
	// the target.
	drift := []float64{200, 260, 150, 300, 180, 240, 210, 280}
	slower := []float64{0.95, 0.951, 0.949, 0.95, 0.952, 0.948, 0.95, 0.951}
	drifted := make([]float64, len(drift))
	for i := range drift {
		drifted[i] = drift[i] * slower[i]
	}
	base := []float64{1000, 1200, 900, 1100, 1050, 980}
	tiny := make([]float64, len(base))
	for i, f := range []float64{1.010, 1.0105, 1.0095, 1.0102, 1.0098, 1.0100} {
		tiny[i] = base[i] * f
	}
	nan := math.NaN()
	tests := []pairedCase{
		// Five pairs 4.3 % apart: significant at 95 % (at 99.9 % it was
		// not), and not within ±5 % (TOST p = 0.195).
		{"five pairs", []float64{100, 120, 90, 110, 105}, []float64{95, 118, 85, 104, 101}, HigherIsBetter,
			-5.83660249756342, 0.004295005253730173, -0.043082047531476875, -0.06291953208166226, -0.02282461420767865, 0.19534307020316571,
			0, KindSlower, "slower by 4.3 % [-6.3 %, -2.3 %] (paired, 95 %)"},
		// Levels drift by ±30 % between rounds while B is 5 % below A in
		// every round: Welch's test sees nothing, the paired one the 5 %.
		{"drifting machine, steady 5 % cost", drift, drifted, HigherIsBetter,
			-110.29251591662067, 1.3279312926617093e-12, -0.049875715510219604, -0.05091733695056202, -0.04883295088681503, 0.39304689504993984,
			0, KindSlower, "slower by 5.0 % [-5.1 %, -4.9 %] (paired, 95 %)"},
		{"lower is better wording", drift, drifted, LowerIsBetter,
			nan, nan, nan, nan, nan, nan, 0, KindLower, "lower by 5.0 % [-5.1 %, -4.9 %] (paired, 95 %)"},
		{"lower is better, higher", drifted, drift, LowerIsBetter,
			nan, nan, nan, nan, nan, nan, 0, KindHigher, "higher by 5.2 % [+5.1 %, +5.4 %] (paired, 95 %)"},
		// Six pairs 0.4 % apart: TOST p = 4.0e-9, equivalent.
		{"equivalent", []float64{100, 102, 98, 101, 99, 100.5}, []float64{100.4, 102.3, 98.6, 101.2, 99.5, 100.9}, HigherIsBetter,
			6.696865458218957, 0.0011230852858685593, 0.004011507607081612, 0.002469796924585258, 0.00555558930547871, 4.013588253235022e-09,
			0, KindEquivalent, "equivalent within ±5 %: +0.4 % [+0.2 %, +0.6 %] (paired, 95 %)"},
		// The order of the rule: a 1 % difference measured to ±0.04 % is
		// highly significant (p = 1e-8) but well within the margin, so the
		// answer is "equivalent", not "faster".
		{"tiny but significant is equivalent", base, tiny, HigherIsBetter,
			72.27754950717242, 9.602768429914478e-09, 0.009999952145210479, 0.009642590467713224, 0.010357440310407192, 5.308675022058725e-12,
			0, KindEquivalent, "equivalent within ±5 %: +1.0 % [+1.0 %, +1.0 %] (paired, 95 %)"},
		// Noisy pairs: neither; 35 more rounds would show equivalence if
		// the spread stayed the same.
		{"inconclusive", []float64{100, 120, 90, 110, 105}, []float64{112, 109, 97, 121, 101}, HigherIsBetter,
			0.7219224603055538, 0.5102892226633532, 0.030157080427335673, -0.08107936600244019, 0.15485883229975464, 0.3335267247931166,
			35, KindInconclusive, "inconclusive: [-8.1 %, +15.5 %] is wider than ±5 %; about 35 more rounds would decide it (paired, 95 %)"},
		// No spread: the interval is the resolution (0.1 % by default), not
		// a point; se = ln(1.001)/t.ppf(0.975, n-1), and t, p and TOST p on
		// that se (scipy, as above).
		{"identical pairs", []float64{1, 2, 3}, []float64{1, 2, 3}, HigherIsBetter,
			0, 1, 0, -0.000999000999000999, 0.001, 1.1334019987780274e-05, 0, KindEquivalent, "equivalent within ±5 %: +0.0 % [-0.1 %, +0.1 %] (paired, 95 %)"},
		{"constant ratio", []float64{1, 2, 3}, []float64{2, 4, 6}, HigherIsBetter,
			2983.8625459518885, 1.1231617388968737e-07, 1, 0.9980019980019981, 1.0019999999999998, 0.9999999350154536, 0, KindFaster, "faster by 100.0 % [+99.8 %, +100.2 %] (paired, 95 %)"},
		// The issue's case: two identical pairs 5 % apart gave "+5.0 %
		// [+5.0 %, +5.0 %]" with p = 0.
		{"two identical pairs", []float64{100, 200}, []float64{105, 210}, HigherIsBetter,
			620.2477323202323, 0.0010263950798845823, 0.05, 0.048951048951048994, 0.05105000000000004, 0.5, 0, KindFaster, "faster by 5.0 % [+4.9 %, +5.1 %] (paired, 95 %)"},
		{"one pair", []float64{1}, []float64{2}, HigherIsBetter,
			nan, nan, nan, nan, nan, nan, 0, KindNotTested, "not tested: needs at least 2 pairs of trials (have 1)"},
		{"zero value", []float64{1, 0}, []float64{2, 3}, HigherIsBetter,
			nan, nan, nan, nan, nan, nan, 0, KindNotTested, "not tested: a paired test on ratios needs positive values (pair 1 has 0 and 3)"},
		{"not pairs", []float64{1, 2}, []float64{2}, HigherIsBetter,
			nan, nan, nan, nan, nan, nan, 0, KindNotTested, "not tested: 2 trials on one side and 1 on the other are not pairs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkPaired(t, tc) })
	}
	// The same drifting data under Welch's test: inconclusive, which is
	// why comparisons within a run pair their trials.
	if v := Compare(Summarize(drift, DefaultConfidence), Summarize(drifted, DefaultConfidence), Options{}); v.Kind != KindInconclusive {
		t.Errorf("Welch on drifting data: %s", v.Text)
	}
}

// pairedCase is one case of TestComparePaired.
type pairedCase struct {
	name                       string
	a, b                       []float64
	dir                        Direction
	t, p, diff, lo, hi, equivP float64 // NaN: not checked
	more                       int
	kind, text                 string
}

// checkPaired runs ComparePaired on tc and checks every figure it gives.
func checkPaired(t *testing.T, tc pairedCase) {
	t.Helper()
	// This case's spread (±0.04 %) is below the default resolution:
	// it states a finer one to keep testing the rule's order.
	o := Options{Dir: tc.dir}
	if tc.name == "tiny but significant is equivalent" {
		o.Resolution = 1e-6
	}
	v := ComparePaired(tc.a, tc.b, o)
	if v.Text != tc.text {
		t.Errorf("text %q, want %q", v.Text, tc.text)
	}
	if v.Kind != tc.kind || v.MoreRounds != tc.more {
		t.Errorf("kind %q more %d, want %q %d", v.Kind, v.MoreRounds, tc.kind, tc.more)
	}
	if v.Test != PairedTest {
		t.Errorf("test %q, want %q", v.Test, PairedTest)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"t", v.T, tc.t}, {"p", v.P, tc.p}, {"diff", v.Diff, tc.diff}, {"lo", v.Lo, tc.lo}, {"hi", v.Hi, tc.hi}, {"equiv p", v.EquivP, tc.equivP}} {
		if math.IsNaN(c.want) {
			continue
		}
		if c.got != c.want && !histtest.Near(c.got, c.want, 1e-6) && !(c.want == 0 && math.Abs(c.got) < 1e-12) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if tc.kind != KindNotTested && v.Significant != (v.P < 1-DefaultConfidence) {
		t.Errorf("significant %v with p %v", v.Significant, v.P)
	}
	if strings.Contains(v.Text, "no significant difference") {
		t.Errorf("text %q", v.Text)
	}
}

// TestVerdictJSON: the field names other tools read, and figures a test
// could not compute as null, not an encoding error.
func TestVerdictJSON(t *testing.T) {
	tests := []struct {
		name string
		v    Verdict
		want []string // substrings of the JSON
	}{
		// Not tested: NaN figures are null; kind and margin still there.
		{"not tested", ComparePaired([]float64{1}, []float64{2}, Options{}),
			[]string{`"test":"paired"`, `"kind":"not tested"`, `"t":null`, `"equiv_p":null`, `"margin":0.05`, `"more_rounds":0`}},
		// t = +Inf is null too (a decoded or hand-made verdict: the
		// resolution floor keeps tested ones finite).
		{"infinite t", Verdict{Kind: KindFaster, T: math.Inf(1), Diff: 1, Lo: 1, Hi: 1, EquivP: 1, Level: 0.95},
			[]string{`"t":null`, `"kind":"faster"`, `"equiv_p":1`, `"diff_lo":1`, `"diff_hi":1`, `"level":0.95`}},
		// An inconclusive verdict carries its rounds estimate.
		{"inconclusive", ComparePaired([]float64{100, 120, 90, 110, 105}, []float64{112, 109, 97, 121, 101}, Options{}),
			[]string{`"kind":"inconclusive"`, `"more_rounds":35`, `"significant":false`, `"pairs":5`}},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.v)
		if err != nil {
			t.Fatalf("%s: marshal %+v: %v", tt.name, tt.v, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s: json %s lacks %s", tt.name, b, w)
			}
		}
	}
}

// TestMinPairs: a verdict on fewer pairs than the stopping rule's minimum
// says so; inconclusive when the rule chose the rounds, standing but
// marked when the user fixed them.
func TestMinPairs(t *testing.T) {
	four := [][]float64{{100, 200, 150, 120}, {105, 210, 157.5, 126}}
	tests := []struct {
		name       string
		a, b       []float64
		welch      bool
		o          Options
		kind, text string
	}{
		{"rule, paired", four[0], four[1], false, Options{MinPairs: 8}, KindInconclusive,
			"not enough rounds: 4 of the 8 the rule needs; [+4.9 %, +5.1 %] (paired, 95 %)"},
		{"fixed, paired", four[0], four[1], false, Options{MinPairs: 8, FixedRounds: true}, KindFaster,
			"faster by 5.0 % [+4.9 %, +5.1 %] (paired, 95 %, fewer than 8 pairs)"},
		{"rule, welch", four[0], four[1], true, Options{MinPairs: 8}, KindInconclusive,
			"not enough rounds: 4 of the 8 the rule needs; [-37.4 %, +76.1 %] (Welch, 95 %)"},
		{"fixed, welch", four[0], four[1], true, Options{MinPairs: 8, FixedRounds: true}, KindInconclusive,
			"fewer than 8 trials per side)"},
		{"enough", four[0], four[1], false, Options{MinPairs: 4}, KindFaster,
			"faster by 5.0 % [+4.9 %, +5.1 %] (paired, 95 %)"},
		{"no minimum", four[0], four[1], false, Options{}, KindFaster,
			"faster by 5.0 % [+4.9 %, +5.1 %] (paired, 95 %)"},
		{"not tested stays", four[0][:1], four[1][:1], false, Options{MinPairs: 8}, KindNotTested,
			"not tested: needs at least 2 pairs of trials (have 1)"},
	}
	for _, tt := range tests {
		v := ComparePaired(tt.a, tt.b, tt.o)
		if tt.welch {
			v = Welch(tt.a, tt.b, tt.o)
		}
		if v.Kind != tt.kind || !strings.HasSuffix(v.Text, tt.text) {
			t.Errorf("%s: %s %q, want %s …%q", tt.name, v.Kind, v.Text, tt.kind, tt.text)
		}
		if v.Kind == KindInconclusive && !tt.o.FixedRounds && v.MoreRounds < tt.o.MinPairs-len(tt.a) {
			t.Errorf("%s: %d more rounds, want at least %d", tt.name, v.MoreRounds, tt.o.MinPairs-len(tt.a))
		}
	}
}
