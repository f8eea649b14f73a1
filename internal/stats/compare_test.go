package stats

import (
	"math"
	"testing"
)

func TestCompare(t *testing.T) {
	// Wikipedia's Welch's t-test example (A1, A2): t = 2.455, df = 24.99,
	// p = 0.0214 (scipy: 2.455356398286006, 24.988529290231416,
	// 0.021378001462866992).
	a1 := []float64{27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4}
	a2 := []float64{27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4}
	sum := func(xs []float64) Summary { return Summarize(xs, DefaultConfidence) }
	tests := []struct {
		name      string
		a, b      Summary
		level     float64
		dir       Direction
		t, df, p  float64
		diff, err float64 // NaN: not checked
		text      string
	}{
		// Significant at 95 %: B is 10.4 % above A; the delta-method error
		// (scipy's t.ppf with the same formula) is 9.35 %.
		{"wikipedia 95%", sum(a1), sum(a2), 0.95, HigherIsBetter,
			2.455356398286006, 24.988529290231416, 0.021378001462866992, 0.10406660262568046, 0.09350847766288808,
			"faster by 10.4 % ± 9.4 %"},
		// The same data is not significant at 99.9 %.
		{"wikipedia 99.9%", sum(a1), sum(a2), DefaultConfidence, HigherIsBetter,
			2.455356398286006, 24.988529290231416, 0.021378001462866992, 0.10406660262568046, 0.16913750042001877,
			"no significant difference (p=0.021, Welch's t-test at 99.9 %)"},
		// Equal variances: t = 20 exactly, df = 8, p = 4.0739e-08 (scipy);
		// B's latency is 20 % higher.
		{"clear latency rise", sum([]float64{100, 102, 98, 101, 99}), sum([]float64{120, 118, 122, 119, 121}),
			DefaultConfidence, LowerIsBetter, 20, 8, 4.073918328674922e-08, 0.2, 0.055683038509517495,
			"higher by 20.0 % ± 5.6 %"},
		// The same pair with A and B swapped: lower latency, and slower for a
		// throughput.
		{"clear latency drop", sum([]float64{120, 118, 122, 119, 121}), sum([]float64{100, 102, 98, 101, 99}),
			DefaultConfidence, LowerIsBetter, -20, 8, 4.073918328674922e-08, -1.0 / 6, 0.038668776742720484,
			"lower by 16.7 % ± 3.9 %"},
		{"throughput drop", sum([]float64{120, 118, 122, 119, 121}), sum([]float64{100, 102, 98, 101, 99}),
			DefaultConfidence, HigherIsBetter, -20, 8, 4.073918328674922e-08, -1.0 / 6, math.NaN(),
			"slower by 16.7 % ± 3.9 %"},
		// A small shift under large noise: t = 0.4, p = 0.6996 (scipy).
		{"noise", sum([]float64{100, 110, 90, 105, 95}), sum([]float64{102, 112, 92, 107, 97}),
			DefaultConfidence, HigherIsBetter, 0.4, 8, 0.6996245047604208, 0.02, math.NaN(),
			"no significant difference (p=0.7, Welch's t-test at 99.9 %)"},
		// One trial on a side: no test, only the difference.
		{"one trial", sum([]float64{100}), sum([]float64{110, 111}),
			DefaultConfidence, HigherIsBetter, math.NaN(), math.NaN(), math.NaN(), 0.105, math.NaN(),
			"not tested: needs at least 2 trials on each side (have 1 and 2)"},
		// Zero variance on both sides and equal means: no difference, p = 1.
		{"identical", sum([]float64{5, 5}), sum([]float64{5, 5, 5}),
			DefaultConfidence, HigherIsBetter, 0, 3, 1, 0, 0,
			"no significant difference (p=1, Welch's t-test at 99.9 %)"},
		// Zero variance and different means: certain, p = 0, no error.
		{"constant shift", sum([]float64{5, 5}), sum([]float64{6, 6}),
			DefaultConfidence, HigherIsBetter, math.Inf(1), 2, 0, 0.2, 0,
			"faster by 20.0 % ± 0.0 %"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Compare(tt.a, tt.b, tt.level, tt.dir)
			check := func(what string, got, want, rel float64) {
				t.Helper()
				if math.IsInf(want, 0) && got == want {
					return
				}
				if !near(got, want, rel) && !(want == 0 && math.Abs(got) < 1e-12) {
					t.Errorf("%s = %.12g, want %.12g", what, got, want)
				}
			}
			check("t", v.T, tt.t, 1e-9)
			check("df", v.DF, tt.df, 1e-9)
			check("p", v.P, tt.p, 1e-6)
			check("diff", v.Diff, tt.diff, 1e-3)
			if !math.IsNaN(tt.err) {
				check("diff err", v.DiffErr, tt.err, 1e-6)
			}
			if v.Text != tt.text {
				t.Errorf("text = %q, want %q", v.Text, tt.text)
			}
		})
	}
}
