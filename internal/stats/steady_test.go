package stats

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/histtest"
)

// series returns n interval throughputs f(i) times lognormal noise of
// sigma (deterministic seed).
func series(n int, sigma float64, f func(i int) float64) []float64 {
	rng := rand.New(rand.NewPCG(3, 4))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = f(i) * math.Exp(sigma*rng.NormFloat64())
	}
	return xs
}

func TestCheckSteady(t *testing.T) {
	tests := []struct {
		name   string
		xs     []float64
		ok     bool
		reason string // prefix of Reason
	}{
		// Flat at 50k with 5 % noise: steady.
		{"flat", series(30, 0.05, func(int) float64 { return 50000 }), true, ""},
		// +30 % over the window, little noise: trending.
		{"linear trend", series(30, 0.02, func(i int) float64 { return 50000 * (1 + 0.3*float64(i)/30) }), false, "trending"},
		// First half 50k, second half 100k: the fitted line climbs ~100 %.
		{"step", series(20, 0.02, func(i int) float64 { return 50000 + 50000*float64(i/10) }), false, "trending"},
		// A small significant trend (+3 %) is within MaxDrift: steady.
		{"small trend", series(60, 0.01, func(i int) float64 { return 50000 * (1 + 0.03*float64(i)/60) }), true, ""},
		// Noisy (25 %) with a +15 % trend: the drift interval straddles
		// 10 %, so not flagged.
		{"noisy trend", series(10, 0.25, func(i int) float64 { return 50000 * (1 + 0.15*float64(i)/10) }), true, ""},
		// Stalls and bursts: 10k, 100k, ...: CV 0.8.
		{"alternation", series(20, 0, func(i int) float64 { return 10000 + 90000*float64(i%2) }), false, "swinging"},
		// Four intervals: too few to judge.
		{"short", []float64{1, 2, 3, 4}, false, "too few intervals (4) to judge"},
		// Nothing acknowledged.
		{"zero", make([]float64, 6), false, "mean throughput"},
	}
	for _, tt := range tests {
		c := CheckSteady(tt.xs, SteadyOptions{})
		if c.OK != tt.ok || !strings.HasPrefix(c.Reason, tt.reason) || c.Points != len(tt.xs) {
			t.Errorf("%s: %+v, want ok %v reason %q", tt.name, c, tt.ok, tt.reason)
		}
		if tt.name == "noisy trend" && !(c.DriftLo < 0.10 && 0.10 < c.DriftHi) {
			t.Errorf("noisy trend: drift [%v, %v] does not straddle 10 %%", c.DriftLo, c.DriftHi)
		}
		if tt.name == "small trend" && !(c.DriftLo > 0) {
			t.Errorf("small trend: drift [%v, %v] not significant", c.DriftLo, c.DriftHi)
		}
		if c.OK && c.Reason != "" {
			t.Errorf("%s: steady with reason %q", tt.name, c.Reason)
		}
	}
}

// TestCheckSteadyDrift: Drift of an exact line, and its bounds, against
// figures computed by hand. For x_i = 100 + i (i = 0..9): slope 1, mean
// 104.5, drift 10/104.5; residuals are 0, so the interval is the point.
func TestCheckSteadyDrift(t *testing.T) {
	xs := make([]float64, 10)
	for i := range xs {
		xs[i] = 100 + float64(i)
	}
	c := CheckSteady(xs, SteadyOptions{})
	want := 10 / 104.5
	if !histtest.Near(c.Drift, want, 1e-12) || !histtest.Near(c.DriftLo, want, 1e-9) || !histtest.Near(c.DriftHi, want, 1e-9) {
		t.Errorf("drift %v [%v, %v], want %v", c.Drift, c.DriftLo, c.DriftHi, want)
	}
	// Slightly under 10 %: steady; with MaxDrift 0.05: surely beyond it.
	if !c.OK {
		t.Errorf("9.6 %% drift flagged: %+v", c)
	}
	if c := CheckSteady(xs, SteadyOptions{MaxDrift: 0.05}); c.OK || !strings.HasPrefix(c.Reason, "trending") {
		t.Errorf("MaxDrift 5 %%: %+v", c)
	}
	// CV of 1..5 is sd 1.58 / mean 3.
	if c := CheckSteady([]float64{1, 2, 3, 4, 5}, SteadyOptions{MaxDrift: 10}); !histtest.Near(c.CV, math.Sqrt(2.5)/3, 1e-12) {
		t.Errorf("CV %v", c.CV)
	}
}

func TestWarmed(t *testing.T) {
	// Ramp-up over 10 intervals, then flat.
	xs := series(25, 0.03, func(i int) float64 { return 50000 * math.Min(1, 0.2+0.08*float64(i)) })
	tests := []struct {
		name   string
		upTo   int // xs[:upTo]
		window int
		want   bool
	}{
		// Still ramping at the end of the window.
		{"ramping", 10, 8, false},
		// The last 8 intervals are flat.
		{"flat tail", 25, 8, true},
		// Fewer intervals than the window.
		{"short", 5, 8, false},
		// A window below MinPoints cannot be judged.
		{"tiny window", 25, 3, false},
	}
	for _, tt := range tests {
		if got := Warmed(xs[:tt.upTo], tt.window, SteadyOptions{}); got != tt.want {
			t.Errorf("%s: Warmed = %v, want %v", tt.name, got, tt.want)
		}
	}
}
