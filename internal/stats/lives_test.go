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
					as[l], bs[l] = simulatedLife(rng, 8+rng.IntN(30), shift, sw)
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

// TestLivesStopCoverage checks the stopping rule of lives: auto: lives of
// 8 rounds each are added until the interval over lives is precise
// (StopRule with MinLives) or 20 lives have run. Stopping on an estimated
// SD costs coverage, the more the fewer lives may stop: with a floor of 3
// lives it is 90.6–92.7 %, with 5 (expfile.MinAutoLives) 92.7–94.8 % for
// 0.3–0.5 lives more on average, with 6 93.4–95.2 % (4,000 runs per case
// while choosing; here 2,000, seed 11; figures print with -v). A Stein
// two-stage rule (lives fixed from the first 3–5 lives' SD) covered no
// better and ran about twice the lives. σw is a round's SD of ln(b/a), σb
// the between-life SD; 0.08 and 0–0.03 span the idempotence pairs
// (bench/RESULTS.md §30–§31).
func TestLivesStopCoverage(t *testing.T) {
	const sims, rounds, maxLives, mu, target = 2000, 8, 20, 0.01, 0.026
	tests := []struct {
		name            string
		sw, sb          float64
		minLives        int
		atLeast, atMost float64 // coverage must lie within
	}{
		{"σb 0.02, 3 lives may stop", 0.08, 0.02, 3, 0, 0.925},
		{"σb 0", 0.08, 0, 5, 0.92, 1},
		{"σb 0.01", 0.08, 0.01, 5, 0.92, 1},
		{"σb 0.02", 0.08, 0.02, 5, 0.92, 1},
		{"σb 0.03", 0.08, 0.03, 5, 0.92, 1},
		{"σb 0.02, quiet rounds", 0.03, 0.02, 5, 0.92, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, uint64(tc.minLives)))
			rule := StopRule{Target: target, MinLives: tc.minLives}
			covered, precise, lives := 0, 0, 0
			truth := math.Expm1(mu)
			for range sims {
				var as, bs [][]float64
				var v Verdict
				for range maxLives {
					a, b := simulatedLife(rng, rounds, mu+tc.sb*rng.NormFloat64(), tc.sw)
					as, bs = append(as, a), append(bs, b)
					if v = ComparePairedLives(as, bs, Options{}); rule.Precise(v) {
						precise++
						break
					}
				}
				lives += len(as)
				if v.Lo <= truth && truth <= v.Hi {
					covered++
				}
			}
			cov := float64(covered) / sims
			t.Logf("coverage %.3f, precise in %.1f %% of runs, %.1f lives on average", cov, 100*float64(precise)/sims, float64(lives)/sims)
			if cov < tc.atLeast || cov > tc.atMost {
				t.Errorf("coverage %.3f: want within [%.3f, %.3f]", cov, tc.atLeast, tc.atMost)
			}
		})
	}
}

// simulatedLife is one life's n pairs: a at 100, b at 100·exp(shift + ε)
// with ε normal of SD sw — the life's own shift and each round's noise.
func simulatedLife(rng *rand.Rand, n int, shift, sw float64) (a, b []float64) {
	for range n {
		a = append(a, 100)
		b = append(b, 100*math.Exp(shift+sw*rng.NormFloat64()))
	}
	return a, b
}
