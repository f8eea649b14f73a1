package stats

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/prodlab/prodlab/internal/textfmt"
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

// Edges of a threshold whose interval the probes leave open: Threshold.Edge.
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
	// SpreadHi is its 90th percentile: how wide the transition may still
	// be, which is where NextRate probes.
	Spread, SpreadHi float64
	// Probes and Passes count the outcomes estimated from.
	Probes, Passes int
	// Edge is "below" when the interval reaches the prior's Lo (no rate
	// tried passes), "above" when it reaches Hi, "" otherwise.
	//
	// Precisely, an end is open when the prior's bound, not the probes,
	// holds it: the posterior density at the bound is at least α/20 per
	// unit of ln rate (α = 1 − Level), so that a prior reaching e times
	// further would add a tenth of the interval's tail beyond it. That is
	// so when no rate tried passed (failed, for the upper end), and when
	// the only pass is far above the bound: one outcome may be a fluke
	// (ThresholdPosterior's lapse), and the rates below it are many. With
	// no probes both ends are open, and Edge is "below".
	Edge string
}

// The model of a probe at rate r: it passes with probability
//
//	P(pass | r) = ε + (1−2ε)·Φ((μ − ln r)/σ)
//
// where μ is the log of the sustainable rate and σ the log-space width of
// the transition from passing to failing (a probe's outcome is as if its
// rate were compared with a threshold drawn afresh, lognormal around e^μ).
// The posterior of (μ, σ) is computed on a grid: μ uniform on
// [ln Lo, ln Hi], σ log-uniform on [thresholdSigmaLo, thresholdSigmaHi].
const (
	// thresholdLapse is ε, the chance that a probe's outcome has nothing
	// to do with its rate (a GC pause that fails a probe far below the
	// knee, a lucky window far above it). Without it one freak outcome is
	// certain evidence and can exclude the truth for good; with it a lone
	// outcome against all the others weighs 99 to 1, which the next
	// probes there overturn. The price is tails: until several probes
	// agree on a side, the posterior keeps about 1 % per probe of its
	// mass beyond them. In TestThresholdCoverage's simulation (which has
	// no freak outcomes) a 0.1 % lapse saved 1-5 probes a search and
	// covered 97.2, 93.8 and 94.6 % at σ = 0.02, 0.05, 0.1, against
	// 97.7, 95.2 and 94.6 % at 1 % (prior [C/1000, 2C]): robustness costs
	// little.
	thresholdLapse = 0.01
	// thresholdMuPoints is the number of μ grid points: 1,001 over the
	// lab's prior of ln 2000 ≈ 7.6 is a step of 0.0076 (0.8 % in rate),
	// a sixth of the interval's half-width at the lab's ±5 % target.
	thresholdMuPoints = 1001
	// thresholdSigmaLo and thresholdSigmaHi bound σ's prior: from a
	// transition 1 % wide in rate, about as sharp as trial-to-trial noise
	// of throughput lets a knee be, to one as wide as the rate itself (a
	// factor e per σ). A search that happens to see separated outcomes
	// believes whatever σ the prior allows below them, so the lower bound
	// should not be lower than a knee can be sharp; in the simulation
	// 0.005 covered within a point of 0.01 (97.3, 94.2, 93.8 %).
	thresholdSigmaLo, thresholdSigmaHi = 0.01, 1.0
	// thresholdSigmaPoints is the number of σ grid points, 17 % apart.
	thresholdSigmaPoints = 30
	// thresholdWindow is how many σ either side of a probe's rate its
	// likelihood is computed point by point; beyond, Φ is within 3e-7 of
	// 0 or 1 and the likelihood is its limit, ε or 1−ε.
	thresholdWindow = 5.0
	// thresholdNegligible is how far below the largest log posterior a
	// row of the grid (one σ) is left out of the marginals: e^−30 of the
	// largest cell, so that all such rows together weigh under 4e-9 of it.
	thresholdNegligible = 30
	// spreadHiQuantile is the quantile of σ that Threshold.SpreadHi
	// reports and NextRate probes at.
	spreadHiQuantile = 0.9
	// nextRateReach bounds NextRate's step from the median to this share
	// of the interval's log-width.
	nextRateReach = 0.75
)

// probeTable tabulates a probe's likelihood relative to its limit on the
// wrong side of the threshold, (ε + (1−2ε)·Φ(u))/ε for an outcome u σ's
// on the side that explains it, from 1 at u = −thresholdWindow to
// (1−ε)/ε at u = thresholdWindow, at steps of 1/probeTableScale (one of
// padding either side), for linear interpolation: evaluating Φ at every
// grid point of every probe would take tens of milliseconds per
// estimate. Interpolation at steps of 1/800 σ is within 5e-6 of the
// likelihood, relatively.
var probeTable = sync.OnceValue(func() []float64 {
	tab := make([]float64, probeTableSteps+3)
	for j := range tab {
		u := -thresholdWindow + float64(j-1)/probeTableScale
		tab[j] = (thresholdLapse + (1-2*thresholdLapse)*0.5*math.Erfc(-u/math.Sqrt2)) / thresholdLapse
	}
	return tab
})

// probeTableSteps is the number of steps of probeTable over the window.
const (
	probeTableSteps = 8000
	probeTableScale = probeTableSteps / (2 * thresholdWindow)
)

// sigmaGrid returns the σ grid points, geometrically spaced: equal prior
// weights make σ log-uniform.
var sigmaGrid = sync.OnceValue(func() []float64 {
	s := make([]float64, thresholdSigmaPoints)
	r := math.Log(thresholdSigmaHi / thresholdSigmaLo)
	for k := range s {
		s[k] = thresholdSigmaLo * math.Exp(r*float64(k)/(thresholdSigmaPoints-1))
	}
	return s
})

// probeRight is a probe's likelihood far on the right side of the
// threshold relative to far on the wrong side: (1−ε)/ε.
const probeRight = (1 - thresholdLapse) / thresholdLapse

// rescaleAbove is the bound on a row of likelihoods beyond which
// ThresholdPosterior.Add rescales the row, well short of overflow.
const rescaleAbove = 1e250

// ThresholdPosterior is the posterior of a capacity search's threshold,
// updated probe by probe: adding a probe costs far less than estimating
// afresh from all of them, which a search that re-estimates after every
// probe (and its simulation) needs. Make one with NewThresholdPosterior.
//
// It keeps the likelihood of each grid cell (σ_k, μ_i) relative to ε per
// probe, so that every probe multiplies a cell by 1 to (1−ε)/ε and none
// ever shrinks: no cell that matters can underflow, and the posterior
// needs no exponentials. Each row k (one σ) carries a scale, e^rowLog[k],
// taken out whenever the row grows large.
type ThresholdPosterior struct {
	o       ThresholdOptions
	invalid bool
	mu0, h  float64 // μ grid: mu0 + i·h, i < thresholdMuPoints
	// like holds row k, for σ_k, at [k·thresholdMuPoints, (k+1)·thresholdMuPoints).
	like           []float64
	rowLog, bound  []float64 // each row's log scale, and a bound on its largest cell
	probes, passes int
}

// NewThresholdPosterior returns the prior of o. Invalid options (Lo ≤ 0,
// Hi ≤ Lo, a level outside (0, 1), NaN or infinite bounds) give a
// posterior whose Threshold is all NaN.
func NewThresholdPosterior(o ThresholdOptions) *ThresholdPosterior {
	if o.Level == 0 {
		o.Level = DefaultConfidence
	}
	p := &ThresholdPosterior{o: o}
	if !(o.Lo > 0 && o.Hi > o.Lo && !math.IsInf(o.Hi, 1) && o.Level > 0 && o.Level < 1) {
		p.invalid = true
		return p
	}
	p.mu0 = math.Log(o.Lo)
	p.h = (math.Log(o.Hi) - p.mu0) / (thresholdMuPoints - 1)
	p.like = make([]float64, thresholdMuPoints*thresholdSigmaPoints)
	for i := range p.like {
		p.like[i] = 1
	}
	p.rowLog = make([]float64, thresholdSigmaPoints)
	p.bound = make([]float64, thresholdSigmaPoints)
	for k := range p.bound {
		p.bound[k] = 1
	}
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
	}
	if !(q.Rate > 0 && !math.IsInf(q.Rate, 1)) {
		p.invalid = true
	}
	if p.invalid {
		return
	}
	x := math.Log(q.Rate)
	for k, s := range sigmaGrid() {
		row := p.like[k*thresholdMuPoints : (k+1)*thresholdMuPoints]
		// Within thresholdWindow σ's of x the likelihood comes from the
		// table; beyond, it is probeRight on the probe's right side (μ
		// above x for a pass, below for a fail) and 1 on its wrong side.
		first := min(max(0, int(math.Ceil((x-thresholdWindow*s-p.mu0)/p.h))), thresholdMuPoints)
		last := min(max(-1, int(math.Floor((x+thresholdWindow*s-p.mu0)/p.h))), thresholdMuPoints-1)
		right := row[last+1:]
		if !q.Pass {
			right = row[:first]
		}
		for i := range right {
			right[i] *= probeRight
		}
		if first <= last {
			d0, dd := p.mu(first)-x, p.h // the distance above x explains a pass
			if !q.Pass {
				d0, dd = -d0, -dd
			}
			scaleByTable(row[first:last+1], d0/s, dd/s)
		}
		p.bound[k] *= probeRight
		if p.bound[k] > rescaleAbove {
			p.rescale(k)
		}
	}
}

// scaleByTable multiplies cells by probeTable at u0, u0+du, u0+2du, …:
// the likelihood of an outcome u σ's on the side that explains it.
func scaleByTable(cells []float64, u0, du float64) {
	tab := probeTable()
	f0 := (u0+thresholdWindow)*probeTableScale + 1
	df := du * probeTableScale
	for i := range cells {
		f := f0 + float64(i)*df
		j := min(max(int(f), 0), probeTableSteps+1)
		cells[i] *= tab[j] + (f-float64(j))*(tab[j+1]-tab[j])
	}
}

// rescale divides row k by its largest cell, into its scale.
func (p *ThresholdPosterior) rescale(k int) {
	row := p.like[k*thresholdMuPoints : (k+1)*thresholdMuPoints]
	m := rowMax(row)
	for i := range row {
		row[i] /= m
	}
	p.rowLog[k] += math.Log(m)
	p.bound[k] = 1
}

// rowMax returns the largest of xs.
func rowMax(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs[1:] {
		if x > m {
			m = x
		}
	}
	return m
}

// Threshold summarises the posterior: the median and equal-tailed
// interval of the threshold, the mean and SD of its log, the median and
// 90th percentile of σ, and whether the interval is open at an edge.
func (p *ThresholdPosterior) Threshold() Threshold {
	nan := math.NaN()
	t := Threshold{Estimate: nan, Lo: nan, Hi: nan, Level: p.o.Level, LogMean: nan, LogSD: nan,
		Spread: nan, SpreadHi: nan, Probes: p.probes, Passes: p.passes}
	if p.invalid {
		return t
	}
	muW, sigmaW := p.marginals()
	cdf := trapezoidCDF(muW)
	alpha := 1 - p.o.Level
	lo, med, hi := p.quantile(cdf, muW, alpha/2), p.quantile(cdf, muW, 0.5), p.quantile(cdf, muW, 1-alpha/2)
	t.Estimate, t.Lo, t.Hi = math.Exp(med), math.Exp(lo), math.Exp(hi)
	t.LogMean, t.LogSD = p.moments(muW)
	t.Spread, t.SpreadHi = sigmaQuantile(sigmaW, 0.5), sigmaQuantile(sigmaW, spreadHiQuantile)
	// The density at the prior's bounds, per unit of ln rate.
	mass := cdfMass(muW) * p.h
	switch open := alpha / 20; {
	case muW[0]/mass >= open:
		t.Edge = EdgeBelow
	case muW[len(muW)-1]/mass >= open:
		t.Edge = EdgeAbove
	}
	return t
}

// marginals returns the posterior, unnormalised, of μ at each grid point
// (σ summed out) and of σ at each of its grid points (μ summed out).
func (p *ThresholdPosterior) marginals() (muW, sigmaW []float64) {
	rowTop := make([]float64, thresholdSigmaPoints) // each row's largest log likelihood
	top := math.Inf(-1)
	for k := range rowTop {
		rowTop[k] = p.rowLog[k] + math.Log(rowMax(p.like[k*thresholdMuPoints:(k+1)*thresholdMuPoints]))
		top = max(top, rowTop[k])
	}
	muW = make([]float64, thresholdMuPoints)
	sigmaW = make([]float64, thresholdSigmaPoints)
	for k := range rowTop {
		if rowTop[k]-top < -thresholdNegligible {
			continue
		}
		scale := math.Exp(p.rowLog[k] - top)
		row := p.like[k*thresholdMuPoints : (k+1)*thresholdMuPoints]
		mw := muW[:len(row)]
		var sum float64
		for i, l := range row {
			w := l * scale
			mw[i] += w
			sum += w
		}
		sigmaW[k] = sum
	}
	return muW, sigmaW
}

// trapezoidCDF returns the normalised CDF at the grid points of a density
// given by its values w there, taken as linear in between (the trapezoid
// rule).
func trapezoidCDF(w []float64) []float64 {
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

// cdfMass is the total of density w by the trapezoid rule, in grid steps.
func cdfMass(w []float64) float64 {
	m := (w[0] + w[len(w)-1]) / 2
	for _, x := range w[1 : len(w)-1] {
		m += x
	}
	return m
}

// quantile returns the q quantile of μ from its CDF at the grid points and
// the density w there, solving within the grid step for the linear
// density the trapezoid rule assumes.
func (p *ThresholdPosterior) quantile(cdf, w []float64, q float64) float64 {
	i := 1
	for i < len(cdf)-1 && cdf[i] < q {
		i++
	}
	total := cdf[i] - cdf[i-1]
	if !(total > 0) {
		return p.mu(i - 1)
	}
	// Over the step the density runs linearly from a to b, so the CDF
	// rises in proportion to a·t + (b−a)·t²/2 for t in [0, 1] steps.
	a, b := w[i-1], w[i]
	rise := (q - cdf[i-1]) / total * (a + b) / 2
	var t float64
	if d := b - a; math.Abs(d) <= 1e-9*(a+b) {
		t = rise / ((a + b) / 2)
	} else {
		t = (-a + math.Sqrt(math.Max(a*a+2*d*rise, 0))) / d
	}
	return p.mu(i-1) + math.Min(math.Max(t, 0), 1)*p.h
}

// moments returns the posterior mean and standard deviation of μ under
// the same linear density as trapezoidCDF.
func (p *ThresholdPosterior) moments(w []float64) (mean, sd float64) {
	weight := func(i int) float64 {
		if i == 0 || i == len(w)-1 {
			return w[i] / 2
		}
		return w[i]
	}
	var sw, s1 float64
	for i := range w {
		sw += weight(i)
		s1 += weight(i) * p.mu(i)
	}
	mean = s1 / sw
	var s2 float64
	for i := range w {
		d := p.mu(i) - mean
		s2 += weight(i) * d * d
	}
	// h²/12, the variance within a step, keeps a posterior narrower than
	// a step from reporting no spread at all.
	return mean, math.Sqrt(s2/sw + p.h*p.h/12)
}

// sigmaQuantile returns the q quantile of σ from its posterior weights at
// the grid points, interpolating the CDF in ln σ between points.
func sigmaQuantile(w []float64, q float64) float64 {
	var total float64
	for _, x := range w {
		total += x
	}
	grid := sigmaGrid()
	cum := 0.0
	for k, x := range w {
		if cum+x >= q*total {
			if k == 0 || x == 0 {
				return grid[k]
			}
			f := (q*total - cum) / x
			return math.Exp(math.Log(grid[k-1]) + f*(math.Log(grid[k])-math.Log(grid[k-1])))
		}
		cum += x
	}
	return grid[len(grid)-1]
}

// EstimateThreshold estimates the threshold from probe outcomes: the
// posterior of the model above (see ThresholdPosterior) after all of ps.
// Invalid options or rates give NaN figures.
func EstimateThreshold(ps []ProbeOutcome, o ThresholdOptions) Threshold {
	p := NewThresholdPosterior(o)
	for _, q := range ps {
		p.Add(q)
	}
	return p.Threshold()
}

// HalfWidth is the interval's relative half-width: exp((ln Hi − ln Lo)/2) − 1.
// NaN when the threshold was not estimated.
func (t Threshold) HalfWidth() float64 {
	return math.Exp((math.Log(t.Hi)-math.Log(t.Lo))/2) - 1
}

// NextRate is the rate to probe next: a step of SpreadHi (the 90th
// percentile of σ) below the posterior median after an even number of
// probes, above it after an odd one, the step never more than 3/4 of the
// interval's log-width. NaN when the threshold was not estimated.
//
// While the interval is wide next to SpreadHi this is a log-space
// bisection: on separated outcomes the posterior is about uniform between
// the highest pass and the lowest fail, and the probe lands inside that
// bracket; before the first fail the search climbs geometrically, before
// the first pass it falls. Once the interval is about as narrow as the
// transition may be wide, the probes straddle the median at that width,
// where their outcomes tell a wide transition from a sharp one.
//
// The interval cannot narrow until σ is known to be small, and probing at
// the median alone (a staircase, which is what a bisection becomes) never
// learns it. In TestThresholdCoverage's simulation (1,000 searches per
// σ; coverage of the 95 % interval, median probes) the staircase covered
// 100 % with 73 probes at σ = 0.02 and ran out of probes (80) at 0.05 and
// 0.1; straddling at Spread, the median σ, covered 99.9 %, 96.9 % and
// 91.0 % with 17, 25 and 49 probes: too wide at a sharp knee, too narrow
// at a noisy one, whose searches stop on a lucky run of outcomes that
// make σ look small. Straddling at SpreadHi covers 97.2 %, 95.6 % and
// 93.7 % with 28, 35 and 66 probes (prior [C/1000, 4C], bench/RESULTS.md
// §18).
func (t Threshold) NextRate() float64 {
	step := math.Min(t.SpreadHi, nextRateReach*math.Log(t.Hi/t.Lo))
	if t.Probes%2 == 0 {
		step = -step
	}
	return t.Estimate * math.Exp(step)
}

// capacityDF is the degrees of freedom CompareThresholds gives its normal
// approximation: large enough that t is the normal quantile to 0.05 %,
// and whole, so TQuantile caches it.
const capacityDF = maxCachedDF

// CompareThresholds judges B's threshold against A's with the four
// verdicts (Options as for ComparePaired; Dir is HigherIsBetter), on the
// log scale: the estimate is the difference of the posterior means of
// ln threshold, its standard error the root sum of the two posterior
// variances, the reference distribution normal, and the rule the one
// behind every verdict (evidence.decide):
//
//	slower by 20.0 % [-24.3 %, -15.4 %] (capacity search, 95 %)
//	equivalent within ±5 %: +1.0 % [-3.3 %, +5.5 %] (capacity search, 95 %)
//	inconclusive: [-12.4 %, +21.1 %] is wider than ±5 %; about 868 more probes per side would decide it (capacity search, 95 %)
//
// Diff is exp(that)−1, Lo and Hi the interval mapped back. MoreRounds
// counts probes per side, assuming the standard error shrinks as 1/√n
// with n the fewer probes of the two; o.MinPairs counts probes per side
// too. A posterior is not normal (its tails are heavier, from the lapse
// and from σ), but in TestCompareThresholdsSimulated's A/A pairs the
// verdicts that differ are about the 5 % the level allows. A threshold
// that is NaN, or whose interval is open at an edge (Edge), cannot be
// compared: the verdict is KindNotTested and says why.
func CompareThresholds(a, b Threshold, o Options) Verdict {
	o = o.withDefaults()
	v := notTested(CapacityTest, o)
	v.trials = min(a.Probes, b.Probes)
	if msg := o.invalid(); msg != "" {
		v.Text = msg
		return v
	}
	if w, ok := underneath(a, b, o, v); ok {
		return w
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
	se, n := math.Hypot(a.LogSD, b.LogSD), float64(max(v.trials, 1))
	e := evidence{est: est, lo: math.Log1p(-o.Margin), hi: math.Log1p(o.Margin),
		seAt: func(k int) (float64, float64) {
			return se * math.Sqrt(n/(n+float64(k))), capacityDF
		}}
	e.se, e.df = e.seAt(0)
	v.conclude(e, o, CapacityTest, "probe per side")
	return v
}

// underneath decides a comparison in which one side's interval is open
// below (no probe bounds it from below: it may sustain next to nothing)
// but its upper bound lies under the other side's closed interval: the
// upper bound is a bound all the same, so the other side is faster by at
// least the ratio of the two bounds. Lo is that least difference; Diff
// and Hi stay NaN, the difference having no upper end. Both sides need
// o.MinPairs probes, as any verdict does. A candidate whose
// every probe failed its SLO is such a side (an end-to-end SLO below its
// transaction interval: it holds at no rate). ok is false otherwise.
func underneath(a, b Threshold, o Options, v Verdict) (Verdict, bool) {
	closed := func(t Threshold) bool { return t.Edge == "" && !math.IsNaN(t.Lo) && t.Lo > 0 }
	if o.MinPairs > 0 && min(a.Probes, b.Probes) < o.MinPairs {
		return v, false // too few probes to rest a bound on: not tested
	}
	// The bounds compared are the thresholds' own intervals, at their level.
	level := a.Level
	if level <= 0 {
		level = o.Level
	}
	tail := fmt.Sprintf(" (%s, %s)", CapacityTest, Percent(level))
	switch {
	case a.Edge == EdgeBelow && closed(b) && b.Lo > a.Hi:
		v.Kind, v.Lo = word(above, o.Dir), b.Lo/a.Hi-1
		v.Text = fmt.Sprintf("%s by more than %s: A's interval is open below, and its upper bound %s lies under B's lower bound %s",
			v.Kind, LeastText(b.Lo/a.Hi), textRate(a.Hi), textRate(b.Lo)) + tail
	case b.Edge == EdgeBelow && closed(a) && a.Lo > b.Hi:
		v.Kind, v.Hi = word(below, o.Dir), b.Hi/a.Lo-1
		v.Text = fmt.Sprintf("%s by more than %.1f %%: B's interval is open below, and its upper bound %s lies under A's lower bound %s",
			v.Kind, -v.Hi*100, textRate(b.Hi), textRate(a.Lo)) + tail
	default:
		return v, false
	}
	return v, true
}

// LeastText writes a least ratio above 1 as a percentage ("7.6 %"), or as
// a multiple from 10 times on ("1,890 times"), where a percentage of six
// figures reads as noise: the one wording of a one-sided verdict.
func LeastText(ratio float64) string {
	if ratio >= 10 {
		return textfmt.Group(math.Floor(ratio), 0) + " times"
	}
	return fmt.Sprintf("%.1f %%", (ratio-1)*100)
}

// OneSided reports whether v decides a difference with only its least
// size known (a comparison underneath decided: Diff has no value, Lo or
// Hi is the least difference).
func (v Verdict) OneSided() bool { return Decides(v.Kind) && math.IsNaN(v.Diff) }

// textRate writes a rate in records/s for a verdict's text.
func textRate(r float64) string { return textfmt.Group(r, 0) + " msg/s" }

// uncomparable says why threshold t of side ("A" or "B") cannot be
// compared, or "" when it can.
func uncomparable(t Threshold, side string) string {
	switch {
	case math.IsNaN(t.LogMean) || math.IsNaN(t.LogSD):
		return side + "'s sustainable rate was not estimated"
	case t.Edge == EdgeBelow:
		return side + "'s interval is open below: its probes do not yet bound its sustainable rate from below"
	case t.Edge == EdgeAbove:
		return side + "'s interval is open above: its probes do not yet bound its sustainable rate from above"
	case t.Edge != "":
		return fmt.Sprintf("%s's interval is open (%s)", side, t.Edge)
	}
	return ""
}
