package stats

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
)

func TestComparePaired(t *testing.T) {
	// Expected figures from scipy 1.17.1: stats.ttest_1samp on
	// log(b/a), t.ppf(0.9995, n-1) for the bounds.
	drift := []float64{200, 260, 150, 300, 180, 240, 210, 280}
	slower := []float64{0.95, 0.951, 0.949, 0.95, 0.952, 0.948, 0.95, 0.951}
	drifted := make([]float64, len(drift))
	for i := range drift {
		drifted[i] = drift[i] * slower[i]
	}
	tests := []struct {
		name               string
		a, b               []float64
		dir                Direction
		t, p, diff, lo, hi float64 // NaN: not checked
		text               string
	}{
		{"five pairs, not significant at 99.9 %",
			[]float64{100, 120, 90, 110, 105}, []float64{95, 118, 85, 104, 101}, HigherIsBetter,
			-5.83660249756342, 0.004295005253730173, -0.043082047531476875, -0.10327229827964206, 0.02114829953374931,
			"no significant difference (p=0.0043, paired t-test on 5 log ratios at 99.9 %)"},
		// Levels drift by ±30 % between rounds while B is 5 % below A in
		// every round: Welch's test sees nothing (scipy: p = 0.66), the
		// paired one sees the 5 %.
		{"drifting machine, steady 5 % cost", drift, drifted, HigherIsBetter,
			-110.29251591662069, 1.3279312926617087e-12, -0.0498757155102196, -0.0522562175822283, -0.047489234195487326,
			"slower by 5.0 % ± 0.2 % (paired)"},
		{"lower is better wording", drift, drifted, LowerIsBetter,
			math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), "lower by 5.0 % ± 0.2 % (paired)"},
		{"identical pairs", []float64{1, 2, 3}, []float64{1, 2, 3}, HigherIsBetter,
			0, 1, 0, 0, 0, "no significant difference (p=1, paired t-test on 3 log ratios at 99.9 %)"},
		{"constant ratio", []float64{1, 2, 3}, []float64{2, 4, 6}, HigherIsBetter,
			math.Inf(1), 0, 1, 1, 1, "faster by 100.0 % ± 0.0 % (paired)"},
		{"one pair", []float64{1}, []float64{2}, HigherIsBetter,
			math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), "not tested: needs at least 2 pairs of trials (have 1)"},
		{"zero value", []float64{1, 0}, []float64{2, 3}, HigherIsBetter,
			math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), "not tested: a paired test on ratios needs positive values (pair 1 has 0 and 3)"},
		{"not pairs", []float64{1, 2}, []float64{2}, HigherIsBetter,
			math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), "not tested: 2 trials on one side and 1 on the other are not pairs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := ComparePaired(tc.a, tc.b, DefaultConfidence, tc.dir)
			if v.Text != tc.text {
				t.Errorf("text %q, want %q", v.Text, tc.text)
			}
			if v.Test != PairedTest {
				t.Errorf("test %q, want %q", v.Test, PairedTest)
			}
			for _, c := range []struct {
				name      string
				got, want float64
			}{{"t", v.T, tc.t}, {"p", v.P, tc.p}, {"diff", v.Diff, tc.diff}, {"lo", v.Lo, tc.lo}, {"hi", v.Hi, tc.hi}} {
				if math.IsNaN(c.want) {
					continue
				}
				if c.got != c.want && !near(c.got, c.want, 1e-6) && !(c.want == 0 && math.Abs(c.got) < 1e-12) {
					t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
				}
			}
			if v.Significant != (v.P < 1-DefaultConfidence) {
				t.Errorf("significant %v with p %v", v.Significant, v.P)
			}
		})
	}
	// The same drifting data under Welch's test: no difference found,
	// which is why comparisons within a run pair their trials.
	if v := Compare(Summarize(drift, DefaultConfidence), Summarize(drifted, DefaultConfidence), DefaultConfidence, HigherIsBetter); v.Significant || !strings.HasPrefix(v.Text, "no significant difference") {
		t.Errorf("Welch on drifting data: %s", v.Text)
	}
}

// TestPaired: trials pair by number; a trial missing on one side (failed)
// drops out of the pairs.
func TestPaired(t *testing.T) {
	rec := func(trial int, mps float64) results.Record {
		r := results.Record{Trial: trial, Status: results.StatusOK}
		r.Throughput.RecordsPerS = mps
		return r
	}
	a := ScenarioStats{counted: []results.Record{rec(0, 10), rec(1, 11), rec(2, 12)}}
	b := ScenarioStats{counted: []results.Record{rec(2, 22), rec(0, 20)}}
	xs, ys := Paired(&a, &b, Metrics[0])
	if len(xs) != 2 || xs[0] != 10 || ys[0] != 20 || xs[1] != 12 || ys[1] != 22 {
		t.Errorf("Paired = %v, %v; want [10 12], [20 22]", xs, ys)
	}
}

// TestVerdictJSON: figures a test could not compute are null, not an
// encoding error.
func TestVerdictJSON(t *testing.T) {
	for _, v := range []Verdict{
		ComparePaired([]float64{1}, []float64{2}, DefaultConfidence, HigherIsBetter),
		ComparePaired([]float64{1, 2}, []float64{2, 4}, DefaultConfidence, HigherIsBetter), // t = +Inf
	} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("marshal %+v: %v", v, err)
		}
		if !strings.Contains(string(b), `"t":null`) || !strings.Contains(string(b), `"test":"paired"`) {
			t.Errorf("json %s: want t null and test paired", b)
		}
	}
}
