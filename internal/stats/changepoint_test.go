package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// noisy is n points of level plus unit normal noise from rng.
func noisy(rng *rand.Rand, level float64, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = level + rng.NormFloat64()
	}
	return xs
}

func TestChangePoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	step := append(noisy(rng, 100, 8), noisy(rng, 110, 8)...)
	twoSteps := append(append(noisy(rng, 100, 8), noisy(rng, 120, 8)...), noisy(rng, 90, 8)...)
	for _, tc := range []struct {
		name string
		xs   []float64
		want []int
	}{
		{"flat", noisy(rng, 100, 16), nil},
		{"one step up", step, []int{8}},
		{"up then down", twoSteps, []int{8, 16}},
		{"too short to split", []float64{1, 1, 9}, nil},
		{"empty", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ChangePoints(tc.xs, ChangeConfig{Seed: 7})
			if len(got) != len(tc.want) {
				t.Fatalf("change points %+v, want at %v", got, tc.want)
			}
			for i, c := range got {
				if c.Index != tc.want[i] || c.PValue >= DefaultChangeAlpha {
					t.Errorf("change point %+v, want at %d with p < %g", c, tc.want[i], DefaultChangeAlpha)
				}
			}
		})
	}
	c := ChangePoints(step, ChangeConfig{Seed: 7})[0]
	if math.Abs(c.Before-100) > 1 || math.Abs(c.After-110) > 1 || math.Abs(c.Relative()-0.1) > 0.02 {
		t.Errorf("levels %g → %g (%+.3f), want about 100 → 110 (+0.1)", c.Before, c.After, c.Relative())
	}
	// The same series and seed give the same answer.
	if a, b := ChangePoints(step, ChangeConfig{Seed: 7}), ChangePoints(step, ChangeConfig{Seed: 7}); a[0] != b[0] {
		t.Errorf("two calls differ: %+v, %+v", a[0], b[0])
	}
}

// TestChangePointsErrorRates holds the test to what it promises over many
// series: on series without a change it finds one in about Alpha of
// them (the first split's test is exact under exchangeability), and as
// often a second one after a real change; and it finds a step of 4
// standard deviations in the middle of 16 runs almost always.
func TestChangePointsErrorRates(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const series = 200
	cfg := ChangeConfig{Permutations: 199}
	falseAlarms, found := 0, 0
	for i := 0; i < series; i++ {
		cfg.Seed = uint64(i)
		if len(ChangePoints(noisy(rng, 50, 12), cfg)) > 0 {
			falseAlarms++
		}
		cs := ChangePoints(append(noisy(rng, 50, 8), noisy(rng, 54, 8)...), cfg)
		if len(cs) > 0 && cs[0].Index >= 7 && cs[0].Index <= 9 {
			found++
		}
	}
	// After a real change, a second one is judged against every segment
	// it could have been found in: spurious seconds stay near Alpha too.
	second := 0
	for i := 0; i < series; i++ {
		cfg.Seed = uint64(1000 + i)
		if len(ChangePoints(append(noisy(rng, 50, 20), noisy(rng, 54, 20)...), cfg)) > 1 {
			second++
		}
	}
	t.Logf("false alarms %d of %d series, steps found %d of %d, a spurious second change in %d of %d", falseAlarms, series, found, series, second, series)
	if second > 20 {
		t.Errorf("%d of %d series with one change have a second, want about %g of them", second, series, DefaultChangeAlpha)
	}
	// Binomial(200, 0.05) exceeds 20 with probability under 0.2 %.
	if falseAlarms > 20 {
		t.Errorf("%d of %d flat series have a change point, want about %g of them", falseAlarms, series, DefaultChangeAlpha)
	}
	if found < series*9/10 {
		t.Errorf("a 4-sd step found in %d of %d series, want at least 90 %%", found, series)
	}
}

func TestDeparture(t *testing.T) {
	prev := []float64{100, 101, 99, 100, 100.5}
	for _, tc := range []struct {
		name      string
		prev      []float64
		newest    float64
		dir       Direction
		wantLowP  bool
		wantOK    bool
		wantSigns float64
	}{
		{"throughput fell", prev, 90, HigherIsBetter, true, true, -1},
		{"throughput rose: not worse", prev, 110, HigherIsBetter, false, true, 1},
		{"latency rose", prev, 110, LowerIsBetter, true, true, 1},
		{"latency fell: not worse", prev, 90, LowerIsBetter, false, true, -1},
		{"within the spread", prev, 99.5, HigherIsBetter, false, true, -1},
		{"flat history, worse", []float64{5, 5, 5}, 6, LowerIsBetter, true, true, 1},
		{"one run before: cannot test", []float64{100}, 50, HigherIsBetter, false, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rel, p, ok := Departure(tc.prev, tc.newest, tc.dir)
			if ok != tc.wantOK {
				t.Fatalf("ok %v, want %v", ok, tc.wantOK)
			}
			if !ok {
				return
			}
			if (p < 0.01) != tc.wantLowP {
				t.Errorf("p %g, want below 0.01: %v", p, tc.wantLowP)
			}
			if rel*tc.wantSigns <= 0 {
				t.Errorf("relative change %g, want its sign %g", rel, tc.wantSigns)
			}
		})
	}
}
