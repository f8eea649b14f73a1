package stats

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// pairsAt returns n pairs whose log ratios ln(b/a) are exactly lr.
func pairsAt(lr ...float64) (a, b []float64) {
	for _, x := range lr {
		a = append(a, 100)
		b = append(b, 100*math.Exp(x))
	}
	return a, b
}

func TestComparePairedLives(t *testing.T) {
	// Three lives whose mean log ratios are 0.01, 0.03 and 0.02: the
	// estimate is 0.02, its SE 0.01/√3, on 2 df (t = 4.303).
	a1, b1 := pairsAt(0.00, 0.02)
	a2, b2 := pairsAt(0.02, 0.04, 0.03)
	a3, b3 := pairsAt(0.02)
	v := ComparePairedLives([][]float64{a1, a2, a3}, [][]float64{b1, b2, b3}, Options{})
	half := 4.302652729911275 * 0.01 / math.Sqrt(3)
	if v.Test != LivesTest || v.Pairs != 6 || v.DF != 2 {
		t.Fatalf("test %q, pairs %d, df %g: want %q, 6, 2", v.Test, v.Pairs, v.DF, LivesTest)
	}
	if math.Abs(v.Diff-math.Expm1(0.02)) > 1e-12 || math.Abs(v.Lo-math.Expm1(0.02-half)) > 1e-9 || math.Abs(v.Hi-math.Expm1(0.02+half)) > 1e-9 {
		t.Fatalf("diff %g [%g, %g]: want %g [%g, %g]", v.Diff, v.Lo, v.Hi, math.Expm1(0.02), math.Expm1(0.02-half), math.Expm1(0.02+half))
	}
	if v.Kind != KindEquivalent || !strings.HasSuffix(v.Text, "[-0.5 %, +4.6 %] (paired over 3 lives, 95 %)") {
		t.Fatalf("kind %s, text %q", v.Kind, v.Text)
	}

	tests := []struct {
		name string
		a, b [][]float64
		kind string
		text string
	}{
		{"one life is ComparePaired", [][]float64{{100, 100, 100}}, [][]float64{{110, 111, 109}}, KindFaster, "(paired, 95 %)"},
		{"lives without pairs are left out", [][]float64{{}, {100, 100, 100}, {}}, [][]float64{{}, {110, 111, 109}, {}}, KindFaster, "(paired, 95 %)"},
		{"unpaired life", [][]float64{{100, 100}, {100}}, [][]float64{{100, 100}, {100, 100}}, KindNotTested, "life 2 has 1 trials on one side and 2"},
		{"lives do not match", [][]float64{{100}, {100}}, [][]float64{{100}}, KindNotTested, "2 lives on one side and 1"},
		{"not positive", [][]float64{{100}, {0}}, [][]float64{{100}, {100}}, KindNotTested, "positive values (life 2)"},
		{"lives that agree", [][]float64{{100, 100}, {100, 100}, {100, 100}, {100, 100}}, [][]float64{{120, 121}, {121, 120}, {120, 122}, {121, 121}}, KindFaster, "(paired over 4 lives, 95 %)"},
		{"lives that disagree", [][]float64{{100, 100}, {100, 100}, {100, 100}}, [][]float64{{110, 110}, {91, 91}, {105, 105}}, KindInconclusive, "more lives"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := ComparePairedLives(tc.a, tc.b, Options{})
			if v.Kind != tc.kind || !strings.Contains(v.Text, tc.text) {
				t.Fatalf("kind %s, text %q: want %s containing %q", v.Kind, v.Text, tc.kind, tc.text)
			}
		})
	}
}

// TestComparePairedLivesCoverage simulates runs whose difference moves
// from one life to the next (a between-life SD σb on top of a within-life
// SD of 0.05 per pair) and checks that the interval over lives covers the
// true difference about 95 % of the time, while the interval of all pairs
// pooled as one life — what a run that ignores its lives would report —
// does not once σb is that of bench/RESULTS.md §30 (about 0.02).
func TestComparePairedLivesCoverage(t *testing.T) {
	const sims, mu, sw = 2000, 0.01, 0.05
	tests := []struct {
		name          string
		sb            float64
		lives         int
		livesLo       float64 // the lives' coverage must lie in [livesLo, 0.97]
		pooledAtMost  float64 // the pooled one's must be at most this (1: no bound)
		pooledAtLeast float64
	}{
		{"no between-life spread, 3 lives", 0, 3, 0.93, 1, 0.93},
		{"no between-life spread, 6 lives", 0, 6, 0.93, 1, 0.93},
		{"σb 0.02, 3 lives", 0.02, 3, 0.93, 0.80, 0},
		{"σb 0.02, 6 lives", 0.02, 6, 0.93, 0.80, 0},
		{"σb 0.04, 5 lives", 0.04, 5, 0.93, 0.60, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(tc.lives)))
			covLives, covPooled := 0, 0
			for range sims {
				as, bs := make([][]float64, tc.lives), make([][]float64, tc.lives)
				var flatA, flatB []float64
				for l := range tc.lives {
					shift := mu + tc.sb*rng.NormFloat64()
					n := 8 + rng.IntN(30)
					for range n {
						as[l] = append(as[l], 100)
						bs[l] = append(bs[l], 100*math.Exp(shift+sw*rng.NormFloat64()))
					}
					flatA, flatB = append(flatA, as[l]...), append(flatB, bs[l]...)
				}
				truth := math.Expm1(mu)
				if v := ComparePairedLives(as, bs, Options{}); v.Lo <= truth && truth <= v.Hi {
					covLives++
				}
				if v := ComparePaired(flatA, flatB, Options{}); v.Lo <= truth && truth <= v.Hi {
					covPooled++
				}
			}
			cl, cp := float64(covLives)/sims, float64(covPooled)/sims
			t.Logf("coverage over lives %.3f, pooled as one life %.3f", cl, cp)
			if cl < tc.livesLo || cl > 0.97 {
				t.Errorf("coverage over lives %.3f: want 95 %% (within [%.2f, 0.97])", cl, tc.livesLo)
			}
			if cp > tc.pooledAtMost || cp < tc.pooledAtLeast {
				t.Errorf("coverage pooled as one life %.3f: want within [%.2f, %.2f]", cp, tc.pooledAtLeast, tc.pooledAtMost)
			}
		})
	}
}
