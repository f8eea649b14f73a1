package main

import (
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/stats"
)

// TestResampleRule: rounds whose difference lies near half the margin end
// decided in every simulated run at the decisive precision, leave some
// undecided at ±5 %, and are cut short by a tight cap; the summary carries
// the runs' spread and the pooled difference.
func TestResampleRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var runs [][]float64
	for _, sd := range []float64{0.04, 0.06, 0.08} {
		var lr []float64
		for range 30 {
			lr = append(lr, 0.027+sd*rng.NormFloat64())
		}
		runs = append(runs, lr)
	}
	decisive := stats.DecisivePrecision(0, stats.DefaultMargin)
	for _, tc := range []struct {
		name         string
		target       float64
		maxRounds    int
		check        func(resampled) bool
		wantDescribe string
	}{
		{"decisive precision decides every run", decisive, 1000, func(r resampled) bool { return r.Decided == 1 && r.Capped == 0 }, "all decided, none capped"},
		{"±5 % leaves some undecided", 0.05, 1000, func(r resampled) bool { return r.Decided < 0.9 && r.Capped == 0 }, "under 90 % decided, none capped"},
		{"a tight cap stops most runs", decisive, 10, func(r resampled) bool { return r.Capped > 0.5 && r.Decided < 1 && r.MedianRounds == 10 }, "most capped at 10 rounds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := resampleRule(runs, stats.StopRule{Target: tc.target}, tc.maxRounds, 400, rand.New(rand.NewPCG(1, 30)))
			if !tc.check(r) {
				t.Errorf("want %s; got %s", tc.wantDescribe, r)
			}
			if r.Runs != 3 || !(r.SDLo < 0.06 && r.SDHi > 0.06) || math.Abs(r.Diff-0.027) > 0.02 {
				t.Errorf("summary: %d runs, SD %.3f–%.3f, difference %.3f; want 3 runs around SD 0.04–0.08 and about +2.7 %%", r.Runs, r.SDLo, r.SDHi, r.Diff)
			}
		})
	}
}

// TestCochranQ checks Q and its p-value on estimates worked by hand.
func TestCochranQ(t *testing.T) {
	for _, tc := range []struct {
		name         string
		means, ses   []float64
		wantQ, wantP float64
	}{
		{"agree", []float64{0.02, 0.02, 0.02}, []float64{0.01, 0.02, 0.01}, 0, 1},
		{"two, two SEs apart", []float64{0, 0.1}, []float64{0.05, 0.05}, 2, 0.1573},
		{"weights", []float64{0, 0.03}, []float64{0.01, 0.02}, 1.8, 0.1797},
		{"one run", []float64{0.02}, []float64{0.01}, math.NaN(), math.NaN()},
		{"no spread", []float64{0.02, 0.03}, []float64{0, 0.01}, math.NaN(), math.NaN()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, p := cochranQ(tc.means, tc.ses)
			same := func(a, b, tol float64) bool { return math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) <= tol }
			if !same(q, tc.wantQ, 1e-9) || !same(p, tc.wantP, 5e-5) {
				t.Errorf("Q %v (p %v), want %v (p %v)", q, p, tc.wantQ, tc.wantP)
			}
		})
	}
}

// TestResampleNothingToCompare: run directories without two scenarios to
// pair are an error that names them, not an empty answer.
func TestResampleNothingToCompare(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "results.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := resample([]string{dir}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "no planned comparison has two rounds of throughput in "+dir) {
		t.Errorf("err = %v, want one naming %s", err, dir)
	}
}
