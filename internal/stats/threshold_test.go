package stats

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// thresholdFigures says whether to run the simulations at full size and
// print their tables, the figures for bench/RESULTS.md (about 30 s):
//
//	PRODLAB_THRESHOLD_FIGURES=1 go test ./internal/stats -run 'TestThreshold|TestCompareThresholds' -v
var thresholdFigures = os.Getenv("PRODLAB_THRESHOLD_FIGURES") != ""

// The lab's capacity search, as the simulations run it.
const (
	searchMinProbes = DefaultMinPairs  // the fewest probes before the search may stop
	searchTarget    = DefaultPrecision // the relative half-width it stops at
	searchMaxProbes = 80               // the most probes it runs
)

// knee is a simulated producer: a probe at rate r passes when
// ln r < mu + sigma·Z, Z standard normal and fresh per probe.
type knee struct{ mu, sigma float64 }

// probe runs one simulated probe at rate r.
func (k knee) probe(rng *rand.Rand, r float64) ProbeOutcome {
	return ProbeOutcome{Rate: r, Pass: math.Log(r) < k.mu+k.sigma*rng.NormFloat64()}
}

// search is one simulated capacity search: its final threshold, and the
// threshold when it first met the stopping rule (the final one when it
// never did, at searchMaxProbes).
type search struct {
	final, stopped Threshold
	stopAt         int // probes when the rule stopped it
}

// runSearch runs the lab's loop on k: the ceiling probe achieves a rate
// 10-65 % above the sustainable one (e^U(0.1, 0.5)), the prior is
// [ceiling/1000, 4·ceiling] as in summary.Prior, and each probe goes to
// NextRate of the estimate after the probes so far, but the first goes
// to first·ceiling when first > 0 (the lab sends it to half the
// ceiling). It stops when the rule is met (at least searchMinProbes
// probes and HalfWidth ≤ searchTarget), or at searchMaxProbes; with
// atLeast > 0 it goes on to atLeast probes whatever the rule says (final
// is then the threshold after max(atLeast, stopAt) probes).
func runSearch(rng *rand.Rand, k knee, first float64, atLeast int) search {
	c := math.Exp(k.mu + 0.1 + 0.4*rng.Float64())
	p := NewThresholdPosterior(ThresholdOptions{Lo: c / 1000, Hi: 4 * c})
	t := p.Threshold()
	var s search
	for n := 1; n <= searchMaxProbes; n++ {
		r := t.NextRate()
		if n == 1 && first > 0 {
			r = first * c
		}
		p.Add(k.probe(rng, r))
		t = p.Threshold()
		if s.stopAt == 0 && (n >= searchMinProbes && t.HalfWidth() <= searchTarget || n == searchMaxProbes) {
			s.stopped, s.stopAt = t, n
		}
		if s.stopAt > 0 && n >= atLeast {
			break
		}
	}
	s.final = t
	return s
}

// covers reports whether t's interval holds the rate e^mu.
func covers(t Threshold, mu float64) bool {
	return math.Log(t.Lo) <= mu && mu <= math.Log(t.Hi)
}

func TestEstimateThreshold(t *testing.T) {
	prior := ThresholdOptions{Lo: 100, Hi: 1e6}
	pass := func(rs ...float64) []ProbeOutcome {
		var ps []ProbeOutcome
		for _, r := range rs {
			ps = append(ps, ProbeOutcome{Rate: r, Pass: true})
		}
		return ps
	}
	fail := func(rs ...float64) []ProbeOutcome {
		var ps []ProbeOutcome
		for _, r := range rs {
			ps = append(ps, ProbeOutcome{Rate: r})
		}
		return ps
	}
	nan := math.NaN()
	tests := []struct {
		name     string
		ps       []ProbeOutcome
		o        ThresholdOptions
		est      [2]float64 // Estimate lies in [est[0], est[1]]
		lo, hi   [2]float64 // and so do Lo and Hi in theirs
		edge     string
		passes   int
		nanFigs  bool
		spreadLo float64 // Spread is at least this
	}{
		// No probes: the prior, log-uniform on [100, 1e6]: median 1e4,
		// interval 100·1e4^(0.025·2) and its mirror, open below (nothing
		// passed).
		{"prior only", nil, prior, [2]float64{9900, 10100}, [2]float64{125, 127}, [2]float64{7.9e5, 8e5}, EdgeBelow, 0, false, 0},
		// Every probe passed: the threshold is above the highest, up to
		// the prior's Hi; open above.
		{"all pass", pass(1000, 3000, 10000), prior, [2]float64{1e4, 1e6}, [2]float64{1e4, 1.1e4}, [2]float64{8e5, 1e6}, EdgeAbove, 3, false, 0},
		// Every probe failed: below the lowest, down to Lo; open below.
		{"all fail", fail(5000, 20000), prior, [2]float64{100, 5000}, [2]float64{100, 130}, [2]float64{100, 5000}, EdgeBelow, 0, false, 0},
		// Separated outcomes, passes up to 4000 and fails from 5000, with
		// probes close to both: the threshold is between the highest pass
		// and the lowest fail, and the interval a little wider, since the
		// transition may be wide enough for a pass or two above it or a
		// fail below.
		{"separated", append(pass(1000, 2000, 3000, 3500, 3800, 4000), fail(5000, 5200, 5500, 6000, 8000, 20000)...), prior,
			[2]float64{4300, 4650}, [2]float64{3700, 4000}, [2]float64{5000, 5300}, "", 6, false, 0},
		// Separated, and each side of the bracket probed three times: the
		// posterior is about uniform between 4000 and 5000, median their
		// geometric mean 4472, interval nearly all of the bracket.
		{"separated, edges repeated", append(pass(1000, 3000, 3900, 4000, 4000, 4000), fail(5000, 5000, 5000, 5100, 8000, 20000)...), prior,
			[2]float64{4450, 4500}, [2]float64{4000, 4100}, [2]float64{4900, 5000}, "", 6, false, 0},
		// Separated but few probes, none near the bracket: for all they
		// show, the transition may be 50 % wide, and the interval says so.
		{"separated, few", append(pass(1000, 3000, 4000), fail(5000, 8000, 20000)...), prior,
			[2]float64{4000, 5000}, [2]float64{2000, 4000}, [2]float64{5000, 10000}, "", 3, false, 0},
		// Outcomes that overlap around 1000: the estimate is near it, the
		// transition visibly wide, and the interval closed (by the
		// transition's model, a little beyond the lowest pass and the
		// highest fail).
		{"overlapping", append(pass(900, 950, 1000, 1050, 800), fail(980, 1020, 1100, 1150, 1300)...), prior,
			[2]float64{950, 1060}, [2]float64{600, 1000}, [2]float64{1000, 1600}, "", 5, false, 0.04},
		// A single pass far above the prior's Lo, fails just above it: the
		// pass may be a fluke (the lapse), and the many rates below it
		// weigh enough to leave the interval open below.
		{"one pass", append(pass(4000), fail(5000, 5000, 6000)...), prior,
			[2]float64{100, 5000}, [2]float64{100, 200}, [2]float64{4000, 6000}, EdgeBelow, 1, false, 0},
		// Probes far outside the prior, on either side, passing and
		// failing, say nothing about where in it the threshold lies.
		{"outside the prior", []ProbeOutcome{{1e8, true}, {1, true}, {1, false}, {1e8, false}}, prior,
			[2]float64{9900, 10100}, [2]float64{125, 127}, [2]float64{7.9e5, 8e5}, EdgeBelow, 2, false, 0},
		// Invalid options and rates: NaN figures, counts kept, no panic.
		{"lo zero", pass(10), ThresholdOptions{Hi: 100}, [2]float64{}, [2]float64{}, [2]float64{}, "", 1, true, 0},
		{"hi below lo", nil, ThresholdOptions{Lo: 100, Hi: 10}, [2]float64{}, [2]float64{}, [2]float64{}, "", 0, true, 0},
		{"infinite hi", nil, ThresholdOptions{Lo: 100, Hi: math.Inf(1)}, [2]float64{}, [2]float64{}, [2]float64{}, "", 0, true, 0},
		{"nan lo", nil, ThresholdOptions{Lo: nan, Hi: 10}, [2]float64{}, [2]float64{}, [2]float64{}, "", 0, true, 0},
		{"level", nil, ThresholdOptions{Lo: 100, Hi: 1e6, Level: 1.5}, [2]float64{}, [2]float64{}, [2]float64{}, "", 0, true, 0},
		{"nan rate", append(pass(1000), ProbeOutcome{Rate: nan}), prior, [2]float64{}, [2]float64{}, [2]float64{}, "", 1, true, 0},
		{"zero rate", fail(0), prior, [2]float64{}, [2]float64{}, [2]float64{}, "", 0, true, 0},
	}
	in := func(x float64, r [2]float64) bool { return r[0] <= x && x <= r[1] }
	for _, tt := range tests {
		th := EstimateThreshold(tt.ps, tt.o)
		if th.Probes != len(tt.ps) || th.Passes != tt.passes {
			t.Errorf("%s: %d probes, %d passes, want %d and %d", tt.name, th.Probes, th.Passes, len(tt.ps), tt.passes)
		}
		if tt.nanFigs {
			for _, x := range []float64{th.Estimate, th.Lo, th.Hi, th.LogMean, th.LogSD, th.Spread, th.SpreadHi, th.HalfWidth(), th.NextRate()} {
				if !math.IsNaN(x) {
					t.Errorf("%s: %+v, want NaN figures", tt.name, th)
					break
				}
			}
			continue
		}
		if !in(th.Estimate, tt.est) || !in(th.Lo, tt.lo) || !in(th.Hi, tt.hi) || th.Edge != tt.edge {
			t.Errorf("%s: %.4g [%.4g, %.4g] edge %q, want in %v %v %v, edge %q", tt.name, th.Estimate, th.Lo, th.Hi, th.Edge, tt.est, tt.lo, tt.hi, tt.edge)
		}
		if th.Level != DefaultConfidence || !(th.Lo < th.Estimate && th.Estimate < th.Hi) {
			t.Errorf("%s: level %v, %.4g not inside [%.4g, %.4g]", tt.name, th.Level, th.Estimate, th.Lo, th.Hi)
		}
		if !(th.LogMean > math.Log(th.Lo) && th.LogMean < math.Log(th.Hi) && th.LogSD > 0) {
			t.Errorf("%s: log mean %.4f, SD %.4f, for interval [%.4g, %.4g]", tt.name, th.LogMean, th.LogSD, th.Lo, th.Hi)
		}
		if !(th.Spread >= thresholdSigmaLo && th.Spread <= th.SpreadHi && th.SpreadHi <= thresholdSigmaHi && th.Spread >= tt.spreadLo) {
			t.Errorf("%s: spread %.4f, 90th percentile %.4f (want at least %.2f)", tt.name, th.Spread, th.SpreadHi, tt.spreadLo)
		}
	}
}

// TestEstimateThresholdPrior: with no probes the posterior is the
// log-uniform prior, whose mean and SD are known exactly: the grid's
// trapezoid rule must reproduce them (the SD to within the h²/12 it adds).
func TestEstimateThresholdPrior(t *testing.T) {
	th := EstimateThreshold(nil, ThresholdOptions{Lo: 1, Hi: math.E * math.E})
	if math.Abs(th.LogMean-1) > 1e-9 || math.Abs(th.LogSD-2/math.Sqrt(12)) > 1e-5 {
		t.Errorf("prior: log mean %.9f, SD %.9f; want 1 and %.9f", th.LogMean, th.LogSD, 2/math.Sqrt(12))
	}
	if got, want := math.Log(th.Lo), 2*0.025; math.Abs(got-want) > 1e-6 {
		t.Errorf("prior: ln Lo %.9f, want %.9f", got, want)
	}
}

// TestThresholdPosteriorExact checks the grid's shortcuts (the tabulated
// Φ, the window beyond which the likelihood is its limit, the rows'
// rescaling) against the posterior computed cell by cell with math.Erfc,
// on a few noisy probes and on 150, enough to make the rows rescale
// ((1−ε)/ε per probe passes rescaleAbove after 126).
func TestThresholdPosteriorExact(t *testing.T) {
	o := ThresholdOptions{Lo: 10, Hi: 20000}
	for _, n := range []int{12, 150} {
		rng := rand.New(rand.NewPCG(11, uint64(n)))
		k := knee{math.Log(5000), 0.08}
		p := NewThresholdPosterior(o)
		var ps []ProbeOutcome
		for range n {
			q := k.probe(rng, 5000*math.Exp(0.3*rng.NormFloat64()))
			p.Add(q)
			ps = append(ps, q)
		}
		if rescaled := slices.ContainsFunc(p.rowLog, func(l float64) bool { return l != 0 }); rescaled != (n > 126) {
			t.Errorf("%d probes: rows rescaled %v", n, rescaled)
		}
		muW, sigmaW := p.marginals()
		wantMu, wantSigma := exactMarginals(p, ps)
		for _, c := range []struct {
			name      string
			got, want []float64
		}{{"mu", muW, wantMu}, {"sigma", sigmaW, wantSigma}} {
			gs, ws := sum(c.got), sum(c.want)
			worst := 0.0
			for i := range c.got {
				worst = math.Max(worst, math.Abs(c.got[i]/gs-c.want[i]/ws))
			}
			if worst > 1e-5 {
				t.Errorf("%d probes: %s marginal differs from the exact one by up to %.2g", n, c.name, worst)
			}
		}
	}
}

// exactMarginals is ThresholdPosterior.marginals computed the slow way.
func exactMarginals(p *ThresholdPosterior, ps []ProbeOutcome) (muW, sigmaW []float64) {
	logPost := make([]float64, thresholdMuPoints*thresholdSigmaPoints)
	top := math.Inf(-1)
	for k, s := range sigmaGrid() {
		for i := range thresholdMuPoints {
			l := 0.0
			for _, q := range ps {
				z := (p.mu(i) - math.Log(q.Rate)) / s
				if !q.Pass {
					z = -z
				}
				l += math.Log(thresholdLapse + (1-2*thresholdLapse)*0.5*math.Erfc(-z/math.Sqrt2))
			}
			logPost[k*thresholdMuPoints+i] = l
			top = math.Max(top, l)
		}
	}
	muW, sigmaW = make([]float64, thresholdMuPoints), make([]float64, thresholdSigmaPoints)
	for k := range thresholdSigmaPoints {
		for i := range thresholdMuPoints {
			w := math.Exp(logPost[k*thresholdMuPoints+i] - top)
			muW[i] += w
			sigmaW[k] += w
		}
	}
	return muW, sigmaW
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// TestNextRate: where the search probes next.
func TestNextRate(t *testing.T) {
	prior := ThresholdOptions{Lo: 100, Hi: 1e6}
	tests := []struct {
		name   string
		ps     []ProbeOutcome
		lo, hi float64 // NextRate lies strictly between
	}{
		// All passes: climb above the highest.
		{"growing", []ProbeOutcome{{1000, true}, {3000, true}}, 3000, 1e6},
		// All fails: fall below the lowest.
		{"falling", []ProbeOutcome{{3000, false}}, 100, 3000},
		// Separated outcomes with a wide bracket [1000, 16000]: bisect it
		// in log space, within its middle half, [2000, 8000].
		{"bisecting", []ProbeOutcome{{300, true}, {1000, true}, {16000, false}, {50000, false}}, 2000, 8000},
		// The same one probe later (odd count, the other side of the
		// median): still the middle half.
		{"bisecting, odd", []ProbeOutcome{{1000, true}, {16000, false}, {50000, false}}, 2000, 8000},
	}
	for _, tt := range tests {
		th := EstimateThreshold(tt.ps, prior)
		if r := th.NextRate(); !(tt.lo < r && r < tt.hi) {
			t.Errorf("%s: next rate %.4g, want in (%.4g, %.4g); threshold %+v", tt.name, r, tt.lo, tt.hi, th)
		}
	}
}

// TestNextRateBisects: on a sharp knee (every probe below 3000 passes,
// every one above fails) the search grows geometrically from the prior's
// middle, then narrows the bracket between the highest pass and the
// lowest fail from both sides: while the bracket is wide next to how wide
// the transition may be (SpreadHi), each probe lands inside it. It is
// within 10 % after 13 probes, where a pure bisection would need 8, the
// price of learning σ on the way (NextRate).
func TestNextRateBisects(t *testing.T) {
	const sharp = 3000.0
	p := NewThresholdPosterior(ThresholdOptions{Lo: 4, Hi: 8000})
	highPass, lowFail := 0.0, math.Inf(1)
	var rates []float64
	for range 13 {
		th := p.Threshold()
		r := th.NextRate()
		bracketed := highPass > 0 && lowFail < math.Inf(1)
		if bracketed && math.Log(lowFail/highPass) > 2*th.SpreadHi && !(highPass < r && r < lowFail) {
			t.Errorf("probe at %.4g outside the bracket [%.4g, %.4g], σ's 90th percentile %.3f", r, highPass, lowFail, th.SpreadHi)
		}
		if highPass > 0 && lowFail == math.Inf(1) && !(r > highPass) {
			t.Errorf("probe at %.4g does not climb above %.4g", r, highPass)
		}
		pass := r < sharp
		if pass {
			highPass = math.Max(highPass, r)
		} else {
			lowFail = math.Min(lowFail, r)
		}
		rates = append(rates, r)
		p.Add(ProbeOutcome{Rate: r, Pass: pass})
	}
	if lowFail/highPass > 1.1 {
		t.Errorf("after 13 probes the bracket is [%.4g, %.4g]; probes %.4g", highPass, lowFail, rates)
	}
}

// TestThresholdCoverage is the capacity search's key figure: on simulated
// knees of known rate and noise, how often the search's final interval
// holds the true sustainable rate, and how many probes it takes.
//
// By default it runs 200 searches per noise level and asserts coverage
// within 95 % ± 3 binomial SDs (±4.6 points); with
// PRODLAB_THRESHOLD_FIGURES=1 it runs 1,000 and asserts 92-98 %. Seed
// fixed: search i uses PCG(7, i), so the default runs are the figure's
// first 200. Measured over 1,000 (coverage, median and 90th percentile of
// probes, share that ran to the cap of 80):
//
//	σ* 0.02: 97.7 %, 28, 31, 0
//	σ* 0.05: 95.2 %, 35, 52, 0
//	σ* 0.10: 94.6 %, 65, 80, 17 %
//
// The figures also run the search with its first probe at half the
// ceiling, as the lab does: 97.6, 93.7 and 94.4 %, with 26, 34 and 64
// probes.
//
// The interval errs wide at a sharp knee, since a short search cannot
// rule out that the transition is wider than it looks, and a little
// narrow at a noisy one, whose searches sometimes stop on a lucky run of
// outcomes (NextRate has the alternatives that did worse).
func TestThresholdCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	runs, slack := 200, 3*math.Sqrt(DefaultConfidence*(1-DefaultConfidence)/200)
	if thresholdFigures {
		runs, slack = 1000, 0.03
	}
	// The search as specified (every probe at NextRate), and as the lab
	// runs it (the first probe at half the ceiling), in figures only.
	type variant struct {
		name  string
		first float64 // runSearch's first
	}
	variants := []variant{{"every probe at NextRate", 0}}
	if thresholdFigures {
		variants = append(variants, variant{"the first probe at half the ceiling", 0.5})
	}
	for _, v := range variants {
		t.Logf("%s: %d searches per noise level; prior [C/1000, 4C], ceiling C 10-65 %% above the knee; stop at %d+ probes and ±%.0f %%, or %d",
			v.name, runs, searchMinProbes, searchTarget*100, searchMaxProbes)
		t.Logf("%-6s %-9s %-9s %-9s %-9s %-8s %-8s", "σ*", "coverage", "too high", "too low", "median n", "p90 n", "at max")
		for _, sigma := range []float64{0.02, 0.05, 0.10} {
			k := knee{math.Log(50000), sigma}
			var covered, above, below, atMax int
			var probes []int
			for i := range runs {
				s := runSearch(rand.New(rand.NewPCG(7, uint64(i))), k, v.first, 0)
				switch {
				case covers(s.final, k.mu):
					covered++
				case math.Log(s.final.Lo) > k.mu:
					above++
				default:
					below++
				}
				if s.stopAt == searchMaxProbes {
					atMax++
				}
				probes = append(probes, s.stopAt)
			}
			slices.Sort(probes)
			cov := float64(covered) / float64(runs)
			t.Logf("%-6.2f %-9.3f %-9d %-9d %-9d %-8d %-8.3f", sigma, cov, above, below,
				probes[runs/2], probes[runs*9/10], float64(atMax)/float64(runs))
			if math.Abs(cov-DefaultConfidence) > slack {
				t.Errorf("%s, σ* %.2f: coverage %.3f over %d searches, want %.2f ± %.3f", v.name, sigma, cov, runs, DefaultConfidence, slack)
			}
			// Coverage alone would pass a search that never narrows and
			// always runs to the cap: most searches must stop before it.
			if probes[runs/2] >= searchMaxProbes {
				t.Errorf("%s, σ* %.2f: the median search ran to the cap of %d probes", v.name, sigma, searchMaxProbes)
			}
		}
	}
}

func TestCompareThresholds(t *testing.T) {
	th := func(rate, sd float64, probes int) Threshold {
		m := math.Log(rate)
		return Threshold{Estimate: rate, Lo: rate * math.Exp(-2*sd), Hi: rate * math.Exp(2*sd), Level: DefaultConfidence,
			LogMean: m, LogSD: sd, Spread: 0.05, SpreadHi: 0.1, Probes: probes, Passes: probes / 2}
	}
	edge := func(t Threshold, e string) Threshold { t.Edge = e; return t }
	a := th(10000, 0.02, 30)
	// Expected intervals: ln(B/A) ± 1.960554·√(sdA² + sdB²) mapped back,
	// 1.960554 being t(0.975) at 4096 df; equivalence when
	// (ln(B/A) − ln 0.95)/se and (ln 1.05 − ln(B/A))/se both exceed
	// 1.645272, t(0.95) at 4096 df (2.74 and 1.74 for "equivalent").
	tests := []struct {
		name string
		a, b Threshold
		o    Options
		kind string
		text string // the verdict's text starts with it
		more bool   // MoreRounds > 0
	}{
		// B's knee 20 % lower, each known to ±4 % (SD 0.02 in ln rate): slower.
		{"slower", a, th(8000, 0.02, 30), Options{}, KindSlower, "slower by 20.0 % [-24.3 %, -15.4 %] (capacity search, 95 %)", false},
		// And the other way round.
		{"faster", th(8000, 0.02, 30), a, Options{}, KindFaster, "faster by 25.0 % [+18.3 %, +32.1 %] (capacity search, 95 %)", false},
		// 1 % apart, known to ±4 % and ±2 %: within ±5 %.
		{"equivalent", a, th(10100, 0.01, 30), Options{}, KindEquivalent, "equivalent within ±5 %: +1.0 % [-3.3 %, +5.5 %] (capacity search, 95 %)", false},
		// Wide intervals: neither, and more probes would tell.
		{"inconclusive", a, th(10300, 0.08, 30), Options{}, KindInconclusive, "inconclusive: [-12.4 %, +21.1 %] is wider than ±5 %; about", true},
		// Too few probes for the rule's minimum: not enough, as for pairs.
		{"few probes", th(10000, 0.02, 5), th(8000, 0.02, 30), Options{MinPairs: 8}, KindInconclusive, "not enough rounds: 5 of the 8 the rule needs", true},
		{"few probes, fixed", th(10000, 0.02, 5), th(8000, 0.02, 30), Options{MinPairs: 8, FixedRounds: true}, KindSlower,
			"slower by 20.0 % [-24.3 %, -15.4 %] (capacity search, 95 %, fewer than 8 probes per side)", false},
		// An open interval on either side: no comparison, and why.
		{"open below", edge(a, EdgeBelow), a, Options{}, KindNotTested,
			"not tested: A's interval is open below: its probes do not yet bound its sustainable rate from below", false},
		{"open above", a, edge(a, EdgeAbove), Options{}, KindNotTested,
			"not tested: B's interval is open above: its probes do not yet bound its sustainable rate from above", false},
		{"both open", edge(a, EdgeAbove), edge(a, EdgeBelow), Options{}, KindNotTested, "not tested: A's interval is open above", false},
		// Open below but wholly under the other side's closed interval (a
		// candidate that passed no probe): its upper bound still decides.
		{"open below, under B", edge(th(200, 0.5, 20), EdgeBelow), a, Options{}, KindFaster,
			"faster by more than 17 times: A's interval is open below, and its upper bound 544 msg/s lies under B's lower bound 9,608 msg/s (capacity search, 95 %)", false},
		{"open below, a little under B", edge(th(8000, 0.05, 20), EdgeBelow), th(10000, 0.01, 30), Options{}, KindFaster,
			"faster by more than 10.9 %: A's interval is open below, and its upper bound 8,841 msg/s lies under B's lower bound 9,802 msg/s", false},
		// Too few probes to rest a bound on: not tested, as before.
		{"open below, under B, few probes", edge(th(200, 0.5, 3), EdgeBelow), a, Options{MinPairs: 8}, KindNotTested,
			"not tested: A's interval is open below", false},
		{"open below, under A", a, edge(th(200, 0.5, 20), EdgeBelow), Options{}, KindSlower,
			"slower by more than 94.3 %: B's interval is open below, and its upper bound 544 msg/s lies under A's lower bound 9,608 msg/s", false},
		{"not estimated", a, EstimateThreshold(nil, ThresholdOptions{}), Options{}, KindNotTested, "not tested: B's sustainable rate was not estimated", false},
		{"bad margin", a, a, Options{Margin: 2}, KindNotTested, "not tested: equivalence margin 2 is outside the open interval (0, 1)", false},
		{"bad level", a, a, Options{Level: 1}, KindNotTested, "not tested: confidence level 1 is outside the open interval (0, 1)", false},
		{"resolution of one record", a, a, Options{Resolution: 1}, KindNotTested, "not tested: a trial acknowledged too few records to compare (its count resolves only ±100 %", false},
	}
	for _, tt := range tests {
		v := CompareThresholds(tt.a, tt.b, tt.o)
		if v.Kind != tt.kind || !strings.HasPrefix(v.Text, tt.text) || (v.MoreRounds > 0) != tt.more || v.Test != CapacityTest {
			t.Errorf("%s: %s %q (more %d, test %q), want %s %q", tt.name, v.Kind, v.Text, v.MoreRounds, v.Test, tt.kind, tt.text)
		}
		if v.Kind == KindNotTested {
			if !math.IsNaN(v.Lo) || !math.IsNaN(v.P) {
				t.Errorf("%s: untested verdict with figures: %+v", tt.name, v)
			}
			continue
		}
		if v.OneSided() { // only the least difference
			least := v.Lo
			if v.Kind == KindSlower {
				least = -v.Hi
			}
			if !(least > 0) {
				t.Errorf("%s: one-sided verdict without its least difference: %+v", tt.name, v)
			}
			continue
		}
		// Diff is the ratio of the geometric means less 1; T, P and the
		// interval agree.
		if want := math.Exp(tt.b.LogMean-tt.a.LogMean) - 1; math.Abs(v.Diff-want) > 1e-12 {
			t.Errorf("%s: diff %v, want %v", tt.name, v.Diff, want)
		}
		if v.Significant != (v.Lo > 0 || v.Hi < 0) || !(v.Lo <= v.Diff && v.Diff <= v.Hi) {
			t.Errorf("%s: p %.3g, interval [%.4f, %.4f] around %.4f", tt.name, v.P, v.Lo, v.Hi, v.Diff)
		}
	}
}

// TestCompareThresholdsSimulated compares simulated searches of a knee
// with σ* = 0.05: A/A pairs (two searches of one knee) must rarely differ
// (at most 8 %, for 5 % expected at 95 %) and mostly be shown equivalent
// within ±10 % once each has 40 probes; a knee 20 % lower must mostly
// show as slower. By default 100 A/A pairs and 50 pairs with the effect;
// PRODLAB_THRESHOLD_FIGURES=1 runs 400 and 200. Measured over those: 4.5 %
// of A/A pairs differ when the rule stops them (3.5 % at 40 probes, where
// 91.2 % are equivalent within ±10 %), and 100 % of the pairs 20 % apart
// show as slower.
func TestCompareThresholdsSimulated(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	pairs, effectPairs := 100, 50
	if thresholdFigures {
		pairs, effectPairs = 400, 200
	}
	k := knee{math.Log(50000), 0.05}
	var differ, equiv40, differ40 int
	for i := range pairs {
		rng := rand.New(rand.NewPCG(8, uint64(i)))
		a, b := runSearch(rng, k, 0, 40), runSearch(rng, k, 0, 40)
		if v := CompareThresholds(a.stopped, b.stopped, Options{MinPairs: searchMinProbes}); v.Kind == KindFaster || v.Kind == KindSlower {
			differ++
		}
		v := CompareThresholds(a.final, b.final, Options{Margin: 0.10})
		switch v.Kind {
		case KindEquivalent:
			equiv40++
		case KindFaster, KindSlower:
			differ40++
		}
	}
	slower := 0
	slow := knee{k.mu + math.Log(0.8), k.sigma}
	for i := range effectPairs {
		rng := rand.New(rand.NewPCG(9, uint64(i)))
		a, b := runSearch(rng, k, 0, 0), runSearch(rng, slow, 0, 0)
		if v := CompareThresholds(a.stopped, b.stopped, Options{MinPairs: searchMinProbes}); v.Kind == KindSlower {
			slower++
		}
	}
	share := func(n, of int) float64 { return float64(n) / float64(of) }
	t.Logf("σ* %.2f, %d A/A pairs: %.3f faster or slower at the stopping rule (±5 %%); at 40+ probes each, ±10 %%: %.3f equivalent, %.3f faster or slower",
		k.sigma, pairs, share(differ, pairs), share(equiv40, pairs), share(differ40, pairs))
	t.Logf("σ* %.2f, %d pairs with B 20 %% lower: %.3f slower", k.sigma, effectPairs, share(slower, effectPairs))
	if s := share(differ, pairs); s > 0.08 {
		t.Errorf("A/A: %.3f of %d pairs differ at 95 %%, want at most 0.08", s, pairs)
	}
	if s := share(differ40, pairs); s > 0.08 {
		t.Errorf("A/A at 40 probes: %.3f of %d pairs differ at 95 %%, want at most 0.08", s, pairs)
	}
	if s := share(equiv40, pairs); s < 0.8 {
		t.Errorf("A/A at 40 probes: %.3f of %d pairs equivalent within ±10 %%, want at least 0.8", s, pairs)
	}
	if s := share(slower, effectPairs); s < 0.9 {
		t.Errorf("20 %% lower: %.3f of %d pairs slower, want at least 0.9", s, effectPairs)
	}
}

// BenchmarkEstimateThreshold is one estimate from 100 noisy probes, what
// the lab pays after each probe of a long search.
func BenchmarkEstimateThreshold(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	k := knee{math.Log(1e5), 0.05}
	var ps []ProbeOutcome
	for range 100 {
		ps = append(ps, k.probe(rng, 1e5*math.Exp(0.1*rng.NormFloat64())))
	}
	o := ThresholdOptions{Lo: 130, Hi: 2.6e5}
	for b.Loop() {
		EstimateThreshold(ps, o)
	}
}

// BenchmarkThresholdStep is one step of a search: a probe added to the
// posterior and the threshold re-estimated, after 30 probes.
func BenchmarkThresholdStep(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	k := knee{math.Log(1e5), 0.05}
	p := NewThresholdPosterior(ThresholdOptions{Lo: 130, Hi: 2.6e5})
	for range 30 {
		p.Add(k.probe(rng, 1e5*math.Exp(0.1*rng.NormFloat64())))
	}
	for b.Loop() {
		p.Add(k.probe(rng, 1e5*math.Exp(0.1*rng.NormFloat64())))
		p.Threshold()
	}
}
