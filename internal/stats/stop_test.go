package stats

import (
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"testing"
)

// simulateStop runs the lab's loop runs times on simulated paired
// throughputs: each round draws A and B with true ratio B/A = ratio,
// independent lognormal noise of sigma per trial, and a lognormal drift
// factor (10 %) that multiplies both trials of the round; rounds are added
// until rule says the 95 % paired verdict is precise, or maxPairs. It
// returns how often the final interval held the true ratio and the median
// number of pairs.
func simulateStop(rule StopRule, sigma, ratio float64, runs, maxPairs int, seed uint64) (coverage float64, median int) {
	return simulateStopBy(rule.Precise, sigma, ratio, runs, maxPairs, seed)
}

// simulateStopBy is simulateStop with any stopping test precise.
func simulateStopBy(precise func(Verdict) bool, sigma, ratio float64, runs, maxPairs int, seed uint64) (coverage float64, median int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	covered := 0
	pairs := make([]int, 0, runs)
	for range runs {
		var a, b []float64
		var v Verdict
		for len(a) < maxPairs {
			drift := math.Exp(0.1 * rng.NormFloat64())
			a = append(a, 50000*drift*math.Exp(sigma*rng.NormFloat64()))
			b = append(b, 50000*ratio*drift*math.Exp(sigma*rng.NormFloat64()))
			if len(a) < 2 {
				continue
			}
			if v = ComparePaired(a, b, Options{}); precise(v) {
				break
			}
		}
		if v.Lo <= ratio-1 && ratio-1 <= v.Hi {
			covered++
		}
		pairs = append(pairs, len(a))
	}
	sort.Ints(pairs)
	return float64(covered) / float64(runs), pairs[len(pairs)/2]
}

// TestStopRuleCoverage proves the stopping rule keeps the paired
// interval's coverage: 1,000 simulated runs per noise level, seed fixed.
//
// Measured with this seed (coverage, median pairs): 2 % noise 0.944, 8;
// 8 % noise 0.924, 21; 20 % noise 0.955, 126. The tolerance is 2.5 points
// above nominal and 3.5 below (binomial SD at 1,000 runs is 0.7 points):
// the rule has a known deficit of 1-2 points where 13-50 pairs are
// needed (93.0 % at 8 % noise over 4,000 runs, TestStopRuleFigures;
// StopRule's doc has the figures and the rules that did no better), and
// the test holds it to that rather than hiding it behind a chosen seed.
// The median pairs must be near (t·σ√2/asinh(target))², the n at which
// the expected interval reaches the target (σ√2: the SD of a log ratio of
// two noisy trials).
func TestStopRuleCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	tests := []struct {
		sigma float64 // noise per trial
	}{
		{0.02}, // precise at MinPairs: the rule's floor decides
		{0.08}, // about 20 pairs: where stopping on a lucky SD costs most
		{0.20}, // over 100 pairs
	}
	for _, tt := range tests {
		cov, med := simulateStop(StopRule{}, tt.sigma, 1.03, 1000, 400, 7)
		t.Logf("noise %.0f %%: coverage %.3f, median pairs %d", tt.sigma*100, cov, med)
		if cov < DefaultConfidence-0.035 || cov > DefaultConfidence+0.025 {
			t.Errorf("noise %.0f %%: coverage %.3f, want %.3f -0.035/+0.025", tt.sigma*100, cov, DefaultConfidence)
		}
		// Expected pairs: the smallest n with t(n-1)·s/√n ≤ h.
		s, h := tt.sigma*math.Sqrt2, math.Asinh(DefaultPrecision)
		n := 2.0
		for TQuantile(0.975, n-1)*s/math.Sqrt(n) > h {
			n++
		}
		want := math.Max(n, DefaultMinPairs)
		if r := float64(med) / want; r < 0.8 || r > 1.25 {
			t.Errorf("noise %.0f %%: median %d pairs, want about %.0f", tt.sigma*100, med, want)
		}
	}
}

// TestStopRuleFigures prints the coverage figures StopRule's doc cites:
// 4,000 simulated runs per case, seed 7, true ratio 1.03, for MinPairs 3,
// 5 and 8 at several noise levels, and for the rule that judges the
// linear half-width instead of the log one. It takes minutes, so it runs
// only when asked:
//
//	PRODLAB_STOP_FIGURES=1 go test ./internal/stats -run TestStopRuleFigures -v
func TestStopRuleFigures(t *testing.T) {
	if os.Getenv("PRODLAB_STOP_FIGURES") == "" {
		t.Skip("set PRODLAB_STOP_FIGURES=1 to print StopRule's coverage figures")
	}
	linear := func(v Verdict) bool { return v.trials >= DefaultMinPairs && v.HalfWidth() <= DefaultPrecision }
	tests := []struct {
		name    string
		precise func(Verdict) bool
		sigmas  []float64
	}{
		{"MinPairs 3", StopRule{MinPairs: 3}.Precise, []float64{0.04}},
		{"MinPairs 5", StopRule{MinPairs: 5}.Precise, []float64{0.04}},
		{"MinPairs 8", StopRule{}.Precise, []float64{0.02, 0.04, 0.06, 0.08, 0.12, 0.20}},
		{"linear width", linear, []float64{0.20}},
	}
	for _, tt := range tests {
		for _, sigma := range tt.sigmas {
			cov, med := simulateStopBy(tt.precise, sigma, 1.03, 4000, 400, 7)
			t.Logf("%s, noise %.0f %%: coverage %.1f %%, median pairs %d", tt.name, sigma*100, cov*100, med)
		}
	}
}

// TestStopRuleLogWidth: a paired verdict's width is judged in log space.
// Each case is a verdict whose linear half-width (Hi-Lo)/2 is on the other
// side of the target from its log half-width, so judging the linear
// interval would give the other answer.
func TestStopRuleLogWidth(t *testing.T) {
	// pairs returns 8 pairs whose log ratios are ln(ratio) ± s.
	pairs := func(ratio, s float64) ([]float64, []float64) {
		var a, b []float64
		for i := range 8 {
			a = append(a, 100)
			b = append(b, 100*ratio*math.Exp(s*float64(i%2*2-1)))
		}
		return a, b
	}
	tests := []struct {
		name         string
		ratio, s     float64
		want, linear bool // Precise, and what a linear judgement would say
	}{
		// B at half of A: the linear interval is half as wide as the log
		// one, so it looks precise while the log one is not.
		{"half", 0.5, 0.09, false, true},
		// B at twice A: the linear interval is twice as wide; the log one
		// is precise.
		{"double", 2, 0.035, true, false},
	}
	for _, tt := range tests {
		a, b := pairs(tt.ratio, tt.s)
		v := ComparePaired(a, b, Options{})
		if lin := v.HalfWidth() <= DefaultPrecision; lin != tt.linear {
			t.Fatalf("%s: linear half-width %.4f: the case does not separate the rules", tt.name, v.HalfWidth())
		}
		if got := (StopRule{}).Precise(v); got != tt.want {
			t.Errorf("%s: Precise = %v, want %v (interval [%.4f, %.4f], log half-width %.4f, asinh(target) %.4f)",
				tt.name, got, tt.want, v.Lo, v.Hi, (math.Log1p(v.Hi)-math.Log1p(v.Lo))/2, math.Asinh(DefaultPrecision))
		}
	}
}

// TestStopRulePrecise: the rule's conditions one at a time.
func TestStopRulePrecise(t *testing.T) {
	narrow := ComparePaired([]float64{100, 101, 99, 100, 102, 98, 100, 101}, []float64{103, 104, 102, 103, 105, 101, 103, 104}, Options{})
	tests := []struct {
		name string
		r    StopRule
		v    Verdict
		want bool
	}{
		// Eight tight pairs: precise by default.
		{"precise", StopRule{}, narrow, true},
		// The same verdict against a tighter target than its width.
		{"target", StopRule{Target: narrow.HalfWidth() / 2}, narrow, false},
		// Too few pairs, however narrow.
		{"min pairs", StopRule{MinPairs: 9}, narrow, false},
		// Not tested: never precise, and HalfWidth is NaN.
		{"not tested", StopRule{}, ComparePaired([]float64{1}, []float64{1}, Options{}), false},
		// A significant but wide verdict is not precise: width, not
		// significance.
		{"significant but wide", StopRule{MinPairs: 2}, ComparePaired([]float64{100, 100, 100}, []float64{150, 200, 170}, Options{}), false},
		// Welch: trials on the smaller side count.
		{"welch", StopRule{}, Compare(Summarize([]float64{100, 101, 99, 100, 102, 98, 100, 101}, DefaultConfidence),
			Summarize([]float64{103, 104, 102, 103, 105, 101, 103, 104}, DefaultConfidence), Options{}), true},
		{"welch, few", StopRule{}, Compare(Summarize([]float64{100, 101, 99}, DefaultConfidence),
			Summarize([]float64{103, 104, 102, 103, 105, 101, 103, 104}, DefaultConfidence), Options{}), false},
	}
	for _, tt := range tests {
		if got := tt.r.Precise(tt.v); got != tt.want {
			t.Errorf("%s: Precise = %v, want %v (%s, half-width %.4f)", tt.name, got, tt.want, tt.v.Text, tt.v.HalfWidth())
		}
	}
	if !math.IsNaN(ComparePaired(nil, nil, Options{}).HalfWidth()) {
		t.Error("HalfWidth of an untested verdict is not NaN")
	}
}

// TestMoreRoundsMonotone: noisier pairs need more rounds, and adding the
// estimated rounds (with the same spread) decides the comparison.
func TestMoreRoundsMonotone(t *testing.T) {
	prev := 0
	for _, noise := range []float64{0.04, 0.08, 0.16, 0.32} {
		// Five pairs 2 % apart with alternating noise of the given size:
		// mean log ratio ln(1.02), SD about noise.
		var a, b []float64
		for i := range 5 {
			f := 1 + noise*float64(i%2*2-1)
			if i == 4 {
				f = 1
			}
			a = append(a, 100)
			b = append(b, 102*f)
		}
		v := ComparePaired(a, b, Options{})
		if v.Kind != KindInconclusive {
			t.Fatalf("noise %v: %s", noise, v.Text)
		}
		if v.MoreRounds <= prev {
			t.Errorf("noise %v: %d more rounds, not more than %d at less noise", noise, v.MoreRounds, prev)
		}
		prev = v.MoreRounds
		// Repeat the pairs' ratios until MoreRounds more pairs exist: the
		// spread stays about the same, and the verdict is decided.
		for i := 0; len(a) < 5+v.MoreRounds+2; i++ {
			a, b = append(a, a[i%5]), append(b, b[i%5])
		}
		if w := ComparePaired(a, b, Options{}); w.Kind == KindInconclusive {
			t.Errorf("noise %v: still inconclusive after %d more rounds: %s", noise, v.MoreRounds, w.Text)
		}
	}
}

// TestDecisivePrecision checks that a paired verdict whose interval is as
// wide as DecisivePrecision allows is decided wherever its centre lies,
// and that a slightly wider one is not always: the bound is the widest.
func TestDecisivePrecision(t *testing.T) {
	// pairs returns n log ratios (n even) centred on c whose rule half-width
	// at level is exactly w in log space.
	pairs := func(n int, c, w, level float64) (a, b []float64) {
		sd := w * math.Sqrt(float64(n)) / TQuantile(1-(1-level)/2, float64(n-1))
		s := sd * math.Sqrt(float64(n-1)/float64(n))
		for i := range n {
			a = append(a, 1)
			b = append(b, math.Exp(c+s*float64(1-2*(i%2))))
		}
		return a, b
	}
	// undecided returns the first centre in a sweep over ±2m at which a
	// verdict of log half-width w is inconclusive, or NaN.
	undecided := func(n int, w, level, m float64) float64 {
		for c := -2 * m; c <= 2*m; c += m / 500 {
			a, b := pairs(n, c, w, level)
			if v := ComparePaired(a, b, Options{Level: level, Margin: m}); v.Kind == KindInconclusive {
				return c
			}
		}
		return math.NaN()
	}
	for _, tc := range []struct {
		level, m, want float64
	}{
		{0, 0.05, 0.0265},
		{0.95, 0.10, 0.0518},
		{0.90, 0.05, 0.0274},
		{0.95, 0.02, 0.0108},
	} {
		level := tc.level
		if level == 0 {
			level = DefaultConfidence
		}
		d := DecisivePrecision(tc.level, tc.m)
		if math.Abs(d-tc.want) > 0.00005 {
			t.Errorf("DecisivePrecision(%g, %g) = %.5f, want %.4f", tc.level, tc.m, d, tc.want)
		}
		for _, n := range []int{8, 20, 500} {
			w := math.Asinh(d) * (1 - 1e-9)
			a, b := pairs(n, 0.01, w, level)
			if v := ComparePaired(a, b, Options{Level: level, Margin: tc.m}); !(StopRule{Target: d}).Precise(v) {
				t.Errorf("level %g margin %g, %d pairs: the sample is not precise at %.4f (rule half-width %.5f)", level, tc.m, n, d, v.RuleHalfWidth())
			}
			if c := undecided(n, w, level, tc.m); !math.IsNaN(c) {
				t.Errorf("level %g margin %g, %d pairs: at the decisive width a centre of %+.4f is inconclusive", level, tc.m, n, c)
			}
			if c := undecided(n, math.Asinh(d)*1.05, level, tc.m); math.IsNaN(c) {
				t.Errorf("level %g margin %g, %d pairs: 5 %% wider than the decisive width still decides every centre; the bound is not the widest", level, tc.m, n)
			}
		}
	}
}
