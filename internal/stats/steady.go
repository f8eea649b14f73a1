package stats

import (
	"fmt"
	"math"
)

// SteadyOptions configure CheckSteady. Zero fields take DefaultSteady's
// values.
type SteadyOptions struct {
	// Level is the confidence level of the drift's interval.
	Level float64
	// MaxDrift is the largest change over the window, relative to its
	// mean, that still counts as steady.
	MaxDrift float64
	// MaxCV is the largest coefficient of variation (SD ÷ mean) of the
	// interval throughputs that still counts as steady.
	MaxCV float64
	// MinPoints is the fewest intervals the rule will judge.
	MinPoints int
}

// DefaultSteady is the steady-state rule prodlab applies:
//
//   - Level 0.95, DefaultConfidence.
//   - MaxDrift 0.10: a window whose level moved by 10 % from start to end
//     has a mean 5 % (DefaultMargin) away from either end, so a comparison
//     could no longer say which level it measured.
//   - MaxCV 0.5: only a window that stalls and bursts is "swinging" (a
//     quarter of its intervals at zero gives a CV of 0.58, a tenth of them
//     0.32). Ordinary jitter between intervals (GC pauses, segment rolls)
//     is part of sustained throughput, averages out in the trial's mean,
//     and is already in the spread between trials that intervals account
//     for.
//   - MinPoints 5: with fewer, the slope's t has 2 degrees of freedom or
//     fewer (t = 4.3 at 95 % with 2), so no drift could be shown and the
//     rule would pass anything.
var DefaultSteady = SteadyOptions{Level: DefaultConfidence, MaxDrift: 0.10, MaxCV: 0.5, MinPoints: 5}

// withDefaults fills o's zero fields from DefaultSteady.
func (o SteadyOptions) withDefaults() SteadyOptions {
	if o.Level == 0 {
		o.Level = DefaultSteady.Level
	}
	if o.MaxDrift == 0 {
		o.MaxDrift = DefaultSteady.MaxDrift
	}
	if o.MaxCV == 0 {
		o.MaxCV = DefaultSteady.MaxCV
	}
	if o.MinPoints == 0 {
		o.MinPoints = DefaultSteady.MinPoints
	}
	return o
}

// SteadyCheck is the verdict of CheckSteady; the lab copies its fields
// into the results schema's Steady.
type SteadyCheck struct {
	OK bool
	// Points is how many intervals the rule saw.
	Points int
	// Drift is the fitted change over the window relative to its mean
	// (slope × intervals ÷ mean), DriftLo and DriftHi its confidence
	// bounds at Level; NaN with fewer than 3 points or a zero mean.
	Drift, DriftLo, DriftHi float64
	// CV is the coefficient of variation of the interval throughputs
	// (sample SD ÷ mean).
	CV float64
	// Reason says why the window is not steady, "" when it is.
	Reason string
}

// CheckSteady judges whether xs, the throughputs of the equal-length
// intervals of a trial's measured window in time order, were steady. The
// caller passes full intervals only (summary.Throughputs leaves out a
// partial last one): a short interval's rate is noisier and would be
// weighted as a full one.
//
// The rule fits an ordinary least-squares line to xs against the interval
// index and takes Drift = slope × n ÷ mean, the fitted change over the
// window relative to its mean, with a confidence interval at Level from
// the slope's standard error and Student's t with n−2 degrees of freedom.
// The window is
//
//   - "trending" when the whole drift interval lies beyond ±MaxDrift: the
//     window surely moved by more than MaxDrift. A trend that is
//     significant but smaller is not flagged (it does not matter), and
//     neither is a noisy window whose interval straddles the threshold
//     (it is not shown to matter; its noise shows in CV and in the
//     spread between trials);
//   - "swinging" when CV > MaxCV;
//   - not judged, with OK false and Reason "too few intervals (n) to
//     judge", when it has fewer than MinPoints points. A mean of zero or
//     less (nothing acknowledged) is not steady either.
func CheckSteady(xs []float64, o SteadyOptions) SteadyCheck {
	o = o.withDefaults()
	n := len(xs)
	c := SteadyCheck{Points: n, Drift: math.NaN(), DriftLo: math.NaN(), DriftHi: math.NaN(), CV: math.NaN()}
	if n < o.MinPoints || n < 3 {
		c.Reason = fmt.Sprintf("too few intervals (%d) to judge", n)
		return c
	}
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(n)
	if !(mean > 0) {
		c.Reason = fmt.Sprintf("mean throughput %g is not positive", mean)
		return c
	}
	// OLS of x on i = 0..n-1; the index mean is (n-1)/2.
	im := float64(n-1) / 2
	var sxx, sxy, syy float64
	for i, x := range xs {
		di, dx := float64(i)-im, x-mean
		sxx += di * di
		sxy += di * dx
		syy += dx * dx
	}
	slope := sxy / sxx
	ssr := math.Max(0, syy-slope*sxy) // residual sum of squares
	seSlope := math.Sqrt(ssr / float64(n-2) / sxx)
	scale := float64(n) / mean
	c.Drift = slope * scale
	half := TQuantile(1-(1-o.Level)/2, float64(n-2)) * seSlope * scale
	c.DriftLo, c.DriftHi = c.Drift-half, c.Drift+half
	c.CV = math.Sqrt(syy/float64(n-1)) / mean
	switch {
	case c.DriftLo > o.MaxDrift || c.DriftHi < -o.MaxDrift:
		c.Reason = fmt.Sprintf("trending: drift %s over the window [%s, %s] is beyond ±%s",
			signedPct(c.Drift), signedPct(c.DriftLo), signedPct(c.DriftHi), pctText(o.MaxDrift))
	case c.CV > o.MaxCV:
		c.Reason = fmt.Sprintf("swinging: CV %.2f is above %.2f", c.CV, o.MaxCV)
	default:
		c.OK = true
	}
	return c
}

// Warmed reports whether a warm-up can end: whether the last window
// interval throughputs of xs pass CheckSteady with o. Fewer than window
// intervals (or a window below o's MinPoints) are not warm yet.
func Warmed(xs []float64, window int, o SteadyOptions) bool {
	if window <= 0 || len(xs) < window {
		return false
	}
	return CheckSteady(xs[len(xs)-window:], o).OK
}

// pctText renders a relative figure as an unsigned percentage, "10 %".
func pctText(x float64) string {
	return marginText(x)[len("±"):]
}
