package stats

import "math"

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
	Edge string
}

// EstimateThreshold estimates the threshold from probe outcomes.
// Not implemented yet: returns the prior's geometric middle.
func EstimateThreshold(ps []ProbeOutcome, o ThresholdOptions) Threshold {
	m := math.Sqrt(o.Lo * o.Hi)
	return Threshold{Estimate: m, Lo: o.Lo, Hi: o.Hi, Level: o.Level, Probes: len(ps)}
}

// HalfWidth is the interval's relative half-width: exp((ln Hi − ln Lo)/2) − 1.
func (t Threshold) HalfWidth() float64 {
	return math.Exp((math.Log(t.Hi)-math.Log(t.Lo))/2) - 1
}

// NextRate is the rate to probe next.
func (t Threshold) NextRate() float64 { return t.Estimate }

// CompareThresholds judges B's threshold against A's with the four
// verdicts (Options as for ComparePaired; Dir is HigherIsBetter).
func CompareThresholds(a, b Threshold, o Options) Verdict {
	return notTested("threshold", o.withDefaults())
}
