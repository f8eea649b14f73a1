package stats

import (
	"fmt"
	"math"
	"strings"
	"sync"
)

// ProbeOutcome is one probe of a capacity search: a trial at an offered
// rate, and whether the producer sustained it (see results.Probe).
type ProbeOutcome struct {
	Rate float64
	Pass bool
}

// ThresholdOptions bound a threshold's estimate.
type ThresholdOptions struct {
	// Lo and Hi bound the rates the threshold can lie in (0 < Lo < Hi):
	// the prior, log-uniform between them.
	Lo, Hi float64
	// Level is the interval's level (DefaultConfidence when 0).
	Level float64
}

// Edges of a threshold whose interval the probes do not close: Threshold.Edge.
const (
	EdgeBelow = "below"
	EdgeAbove = "above"
)

// Threshold is the estimate of the rate at which probes turn from passing
// to failing: the sustainable rate.
type Threshold struct {
	// Estimate is the posterior median rate; Lo and Hi bound its
	// equal-tailed interval at Level.
	Estimate, Lo, Hi, Level float64
	// LogMean and LogSD are the posterior mean and standard deviation of
	// the log of the threshold, what comparisons between thresholds use.
	LogMean, LogSD float64
	// Spread is the posterior median of the log-space width of the
	// transition (σ): how far apart a pass and a fail can be by chance.
	Spread float64
	// Probes and Passes count the outcomes estimated from.
	Probes, Passes int
	// Edge is "below" when the interval reaches the prior's Lo (no rate
	// tried passes), "above" when it reaches Hi, "" otherwise.
	//
	// Precisely, the interval is open below when no passing probe lies at
	// or under its lower end (nothing passed low enough to bracket it), or
	// that end is within a grid step of the prior's Lo; open above
	// likewise with failing probes and Hi. With no probes at all both ends
	// are open, and Edge is "below": no rate tried passed.
	Edge string
}

// The model of a probe: a probe at rate r passes with probability
//
//	P(pass | r) = ε + (1−2ε)·Φ((μ − ln r)/σ)
//
// where μ is the log of the sustainable rate and σ the log-space width of
// the transition from passing to failing. The posterior of (μ, σ) is
// computed on a grid: μ uniform on [ln Lo, ln Hi], σ log-uniform on
// [thresholdSigmaLo, thresholdSigmaHi].
const (
	// thresholdLapse is ε, the chance that a probe's outcome has nothing
	// to do with its rate (a GC pause that fails a probe far below the
	// knee, a lucky window far above it). Without it one freak outcome
	// would be certain evidence and could exclude the truth for good; with
	// it a lone outcome against all the others weighs 99 to 1, and a
	// handful of consistent ones settle the matter. 1 % keeps the tails
	// of separated data light enough that a search stops in about as many
	// probes as a bisection needs (bench/RESULTS.md and
	// TestThresholdCoverage have the coverage with it).
	thresholdLapse = 0.01
	// thresholdMuPoints is the number of μ grid points: 1,001 over the
	// lab's prior of ln 2000 ≈ 7.6 puts a step of 0.0076 (0.8 % in rate),
	// a sixth of the interval's half-width at the lab's ±5 % target.
	thresholdMuPoints = 1001
	// thresholdSigmaLo and thresholdSigmaHi bound σ's prior: from a
	// transition sharper than any probe can resolve (0.5 % in rate) to
	// one as wide as the rate itself (a factor e per σ).
	thresholdSigmaLo, thresholdSigmaHi = 0.005, 1.0
	// thresholdSigmaPoints is the number of σ grid points, 16 % apart.
	thresholdSigmaPoints = 36
	// thresholdWindow is how many σ either side of a probe's rate its
	// likelihood is computed point by point; beyond, Φ is within 3e-7 of
	// 0 or 1 and the likelihood is its limit, ε or 1−ε.
	thresholdWindow = 5.0
)

// probeTable tabulates g(z) = ln(ε + (1−2ε)·Φ(z)), the log-likelihood of
// a pass z σ's below the threshold, on [−thresholdWindow,
// thresholdWindow], for linear interpolation: evaluating Φ at every grid
// point of every probe would take tens of milliseconds per estimate.
var probeTable = sync.OnceValue(func() []float64 {
	tab := make([]float64, probeTableSteps+2)
	for j := range tab {
		z := -thresholdWindow + float64(j)/probeTableScale
		tab[j] = math.Log(thresholdLapse + (1-2*thresholdLapse)*0.5*math.Erfc(-z/math.Sqrt2))
	}
	return tab
})

// probeTableSteps is the number of intervals of probeTable: linear
// interpolation at steps of 1/400 σ is within 2e-6 of g.
const (
	probeTableSteps = 4000
	probeTableScale = probeTableSteps / (2 * thresholdWindow)
)

// sigmaGrid returns the σ grid points, geometrically spaced.
var sigmaGrid = sync.OnceValue(func() []float64 {
	s := make([]float64, thresholdSigmaPoints)
	r := math.Log(thresholdSigmaHi / thresholdSigmaLo)
	for k := range s {
		s[k] = thresholdSigmaLo * math.Exp(r*float64(k)/(thresholdSigmaPoints-1))
	}
	return s
})

// probeStep is the log-likelihood ratio of a probe on the right side of
// the threshold to one on the wrong side, far from it: ln((1−ε)/ε).
var probeStep = math.Log((1 - thresholdLapse) / thresholdLapse)

// ThresholdPosterior is the posterior of a capacity search's threshold,
// updated probe by probe: adding a probe costs far less than estimating
// afresh from all of them, which is what a search that re-estimates
// after every probe needs. The zero value is not usable; make one with
// NewThresholdPosterior.
type ThresholdPosterior struct {
	o       ThresholdOptions
	invalid bool
	mu0, h  float64 // μ grid: mu0 + i·h, i < thresholdMuPoints
	// step is the part of the log-likelihood that does not depend on σ:
	// probeStep for each probe that μ_i is on the right side of.
	step []float64
	// resid is the rest, row k for σ_k: nonzero only within
	// thresholdWindow σ's of a probe.
	resid          []float64
	probes, passes int
	lowPass        float64 // lowest passing rate, +Inf before one
	highFail       float64 // highest failing rate, 0 before one
}

// NewThresholdPosterior returns the prior of o. Invalid options (Lo ≤ 0,
// Hi ≤ Lo, a level outside (0, 1), NaN or infinite bounds) give a
// posterior whose Threshold is all NaN.
func NewThresholdPosterior(o ThresholdOptions) *ThresholdPosterior {
	if o.Level == 0 {
		o.Level = DefaultConfidence
	}
	p := &ThresholdPosterior{o: o, lowPass: math.Inf(1)}
	if !(o.Lo > 0 && o.Hi > o.Lo && !math.IsInf(o.Hi, 1) && o.Level > 0 && o.Level < 1) {
		p.invalid = true
		return p
	}
	p.mu0 = math.Log(o.Lo)
	p.h = (math.Log(o.Hi) - p.mu0) / (thresholdMuPoints - 1)
	p.step = make([]float64, thresholdMuPoints)
	p.resid = make([]float64, thresholdMuPoints*thresholdSigmaPoints)
	return p
}

// mu is the i-th μ grid point.
func (p *ThresholdPosterior) mu(i int) float64 { return p.mu0 + float64(i)*p.h }

// Add updates the posterior with one probe. A rate that is not a positive
// finite number makes the posterior invalid: its Threshold is all NaN.
func (p *ThresholdPosterior) Add(q ProbeOutcome) {
	p.probes++
	if q.Pass {
		p.passes++
		p.lowPass = math.Min(p.lowPass, q.Rate)
	} else {
		p.highFail = math.Max(p.highFail, q.Rate)
	}
	if !(q.Rate > 0 && !math.IsInf(q.Rate, 1)) {
		p.invalid = true
	}
	if p.invalid {
		return
	}
	x := math.Log(q.Rate)
	// The step: a pass is on the right side of every μ ≥ x, a fail of
	// every μ < x.
	for i := range p.step {
		if (p.mu(i) >= x) == q.Pass {
			p.step[i] += probeStep
		}
	}
	tab := probeTable()
	c := math.Log(thresholdLapse) // g's limit on the wrong side
	for k, s := range sigmaGrid() {
		row := p.resid[k*thresholdMuPoints : (k+1)*thresholdMuPoints]
		first := max(0, int(math.Ceil((x-thresholdWindow*s-p.mu0)/p.h)))
		last := min(thresholdMuPoints-1, int(math.Floor((x+thresholdWindow*s-p.mu0)/p.h)))
		for i := first; i <= last; i++ {
			d := p.mu(i) - x
			u := d / s // σ's the threshold lies above the rate
			if !q.Pass {
				u = -u
			}
			// Interpolate g(u); u is within the window but for rounding.
			f := math.Min(math.Max((u+thresholdWindow)*probeTableScale, 0), probeTableSteps)
			j := int(f)
			g := tab[j] + (f-float64(j))*(tab[j+1]-tab[j])
			r := g - c
			if (d >= 0) == q.Pass {
				r -= probeStep
			}
			row[i] += r
		}
	}
}

// nanThreshold is the answer to invalid options or probes.
func (p *ThresholdPosterior) nanThreshold() Threshold {
	nan := math.NaN()
	return Threshold{Estimate: nan, Lo: nan, Hi: nan, Level: p.o.Level, LogMean: nan, LogSD: nan, Spread: nan,
		Probes: p.probes, Passes: p.passes}
}

// Threshold summarises the posterior: the median and equal-tailed
// interval of the threshold, the mean and SD of its log, the median σ,
// and whether the interval is open at an edge.
func (p *ThresholdPosterior) Threshold() Threshold {
	if p.invalid {
		return p.nanThreshold()
	}
	muW, sigmaW := p.marginals()
	cdf := p.cdf(muW)
	alpha := 1 - p.o.Level
	lo, med, hi := p.quantile(cdf, muW, alpha/2), p.quantile(cdf, muW, 0.5), p.quantile(cdf, muW, 1-alpha/2)
	mean, sd := p.moments(muW)
	t := Threshold{Estimate: math.Exp(med), Lo: math.Exp(lo), Hi: math.Exp(hi), Level: p.o.Level,
		LogMean: mean, LogSD: sd, Spread: sigmaMedian(sigmaW), Probes: p.probes, Passes: p.passes}
	switch {
	case !(p.lowPass <= t.Lo) || lo <= p.mu0+p.h:
		t.Edge = EdgeBelow
	case !(p.highFail >= t.Hi) || hi >= p.mu(thresholdMuPoints-1)-p.h:
		t.Edge = EdgeAbove
	}
	return t
}

// marginals returns the posterior, unnormalised, of μ at each grid point
// (σ summed out) and of σ at each of its grid points (μ summed out).
// Cells more than 40 below the largest log posterior (e^−40 of it) are
// left out.
func (p *ThresholdPosterior) marginals() (muW, sigmaW []float64) {
	top := math.Inf(-1)
	for k := range thresholdSigmaPoints {
		row := p.resid[k*thresholdMuPoints : (k+1)*thresholdMuPoints]
		for i, r := range row {
			top = math.Max(top, p.step[i]+r)
		}
	}
	muW = make([]float64, thresholdMuPoints)
	sigmaW = make([]float64, thresholdSigmaPoints)
	for k := range thresholdSigmaPoints {
		row := p.resid[k*thresholdMuPoints : (k+1)*thresholdMuPoints]
		for i, r := range row {
			if l := p.step[i] + r - top; l > -40 {
				w := math.Exp(l)
				muW[i] += w
				sigmaW[k] += w
			}
		}
	}
	return muW, sigmaW
}

// cdf returns the posterior CDF of μ at the grid points, normalised, by
// the trapezoid rule: the density is taken as linear between points.
func (p *ThresholdPosterior) cdf(w []float64) []float64 {
	c := make([]float64, len(w))
	for i := 1; i < len(w); i++ {
		c[i] = c[i-1] + (w[i-1]+w[i])/2
	}
	total := c[len(c)-1]
	for i := range c {
		c[i] /= total
	}
	return c
}

// quantile returns the q quantile of μ from its CDF at the grid points and
// the density w there, solving within the grid step for the linear density
// the trapezoid rule assumes.
func (p *ThresholdPosterior) quantile(cdf, w []float64, q float64) float64 {
	i := 1
	for i < len(cdf)-1 && cdf[i] < q {
		i++
	}
	// Within [μ_{i-1}, μ_i] the density is a + (b−a)t for t in [0, 1]
	// steps, and the CDF rises by m·(a·t + (b−a)t²/2), m normalising.
	need := q - cdf[i-1]
	total := cdf[i] - cdf[i-1]
	if !(total > 0) {
		return p.mu(i - 1)
	}
	a, b := w[i-1], w[i]
	frac := need / total * (a + b) / 2 // the rise in units of the density
	var t float64
	if d := b - a; math.Abs(d) < 1e-12*(a+b) {
		t = frac / a
	} else {
		t = (-a + math.Sqrt(math.Max(a*a+2*d*frac, 0))) / d
	}
	return p.mu(i-1) + math.Min(math.Max(t, 0), 1)*p.h
}

// moments returns the posterior mean and standard deviation of μ under
// the same linear density as cdf (trapezoid weights).
func (p *ThresholdPosterior) moments(w []float64) (mean, sd float64) {
	var sw, s1 float64
	last := len(w) - 1
	for i, x := range w {
		if i == 0 || i == last {
			x /= 2
		}
		sw += x
		s1 += x * p.mu(i)
	}
	mean = s1 / sw
	var s2 float64
	for i, x := range w {
		if i == 0 || i == last {
			x /= 2
		}
		d := p.mu(i) - mean
		s2 += x * d * d
	}
	// The grid's own variance within a step, h²/12, keeps a posterior
	// narrower than a step from reporting no spread.
	return mean, math.Sqrt(s2/sw + p.h*p.h/12)
}

// sigmaMedian returns the posterior median of σ from its weights at the
// grid points, interpolating the CDF in log σ between points.
func sigmaMedian(w []float64) float64 {
	var total float64
	for _, x := range w {
		total += x
	}
	grid := sigmaGrid()
	cum := 0.0
	for k, x := range w {
		if cum+x >= total/2 {
			if k == 0 || x == 0 {
				return grid[k]
			}
			f := (total/2 - cum) / x
			return math.Exp(math.Log(grid[k-1]) + f*(math.Log(grid[k])-math.Log(grid[k-1])))
		}
		cum += x
	}
	return grid[len(grid)-1]
}

// EstimateThreshold estimates the threshold from probe outcomes: the
// posterior of the model above (ThresholdPosterior) after all of ps.
// Invalid options or rates give NaN figures.
func EstimateThreshold(ps []ProbeOutcome, o ThresholdOptions) Threshold {
	p := NewThresholdPosterior(o)
	for _, q := range ps {
		p.Add(q)
	}
	return p.Threshold()
}

// HalfWidth is the interval's relative half-width: exp((ln Hi − ln Lo)/2) − 1.
func (t Threshold) HalfWidth() float64 {
	return math.Exp((math.Log(t.Hi)-math.Log(t.Lo))/2) - 1
}

// NextRate is the rate to probe next: the posterior median, where a probe
// is as likely to pass as to fail. On separated data the posterior is
// about uniform between the highest pass and the lowest fail, so the
// search bisects that bracket in log space; before the first fail it
// climbs geometrically towards the prior's Hi, before the first pass it
// falls towards Lo.
func (t Threshold) NextRate() float64 { return t.Estimate }

// CapacityTest names the test of CompareThresholds in Verdict.Test.
const CapacityTest = "capacity search"

// capacityDF is the degrees of freedom CompareThresholds gives its normal
// approximation: large enough that t is the normal quantile to 0.05 %,
// and whole, so TQuantile caches it.
const capacityDF = maxCachedDF

// CompareThresholds judges B's threshold against A's with the four
// verdicts (Options as for ComparePaired; Dir is HigherIsBetter), on the
// log scale: the difference of the posterior means of ln threshold, with
// the root sum of the posterior variances as its standard error and a
// normal reference, decided by the one rule (evidence.decide). Diff is
// exp(that)−1. MoreRounds counts probes per side, assuming the standard
// error shrinks as 1/√n with n the fewer probes of the two; o.MinPairs
// counts probes per side too. A threshold that is NaN or whose interval
// is open at an edge (Edge) cannot be compared: the verdict says so.
func CompareThresholds(a, b Threshold, o Options) Verdict {
	o = o.withDefaults()
	v := notTested(CapacityTest, o)
	v.trials = min(a.Probes, b.Probes)
	if msg := o.invalid(); msg != "" {
		v.Text = msg
		return v
	}
	var why []string
	for _, msg := range []string{uncomparable(a, "A"), uncomparable(b, "B")} {
		if msg != "" {
			why = append(why, msg)
		}
	}
	if len(why) > 0 {
		v.Text = "not tested: " + strings.Join(why, "; ")
		return v
	}
	est := b.LogMean - a.LogMean
	v.Diff = math.Expm1(est)
	se := math.Hypot(a.LogSD, b.LogSD)
	n := float64(max(v.trials, 1))
	e := evidence{est: est, lo: math.Log1p(-o.Margin), hi: math.Log1p(o.Margin),
		seAt: func(k int) (float64, float64) {
			return se * math.Sqrt(n/(n+float64(k))), capacityDF
		}}
	e.se, e.df = e.seAt(0)
	v.conclude(e, o, CapacityTest, "probe per side")
	return v
}

// uncomparable says why threshold t of side ("A" or "B") cannot be
// compared, or "" when it can.
func uncomparable(t Threshold, side string) string {
	switch {
	case math.IsNaN(t.LogMean) || math.IsNaN(t.LogSD):
		return side + "'s sustainable rate was not estimated"
	case t.Edge == EdgeBelow:
		return side + "'s interval is open below: no probe passed low enough to bound its sustainable rate"
	case t.Edge == EdgeAbove:
		return side + "'s interval is open above: no probe failed high enough to bound its sustainable rate"
	case t.Edge != "":
		return fmt.Sprintf("%s's interval is open (%s)", side, t.Edge)
	}
	return ""
}
