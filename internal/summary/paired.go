package summary

import (
	"math"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// Paired returns the values of metric m for the trials that a and b both
// counted, matched by trial number, in trial order. Scenarios of one run
// share trial numbers: trial i of every scenario ran in round i.
func Paired(a, b *ScenarioStats, m Metric) (xs, ys []float64) {
	byTrial := make(map[int]*results.Record, len(b.counted))
	for i := range b.counted {
		byTrial[b.counted[i].Trial] = &b.counted[i]
	}
	for i := range a.counted {
		if rb, ok := byTrial[a.counted[i].Trial]; ok {
			x, y := m.Trial(&a.counted[i]), m.Trial(rb)
			if math.IsNaN(x) || math.IsNaN(y) {
				continue // a trial that did not measure m
			}
			xs = append(xs, x)
			ys = append(ys, y)
		}
	}
	return xs, ys
}

// Judge compares metric m of b with a (stats.Judge): paired by round when
// the two ran side by side in one run (sideBySide) and share at least two
// rounds, else Welch's test on their values. o.Dir is taken from m; a
// throughput's resolution, unless o gives one, is one record's worth of
// the smallest count acknowledged (Resolution).
func Judge(a, b *ScenarioStats, m Metric, sideBySide bool, o stats.Options) stats.Verdict {
	o.Dir = m.Dir
	if o.Resolution == 0 {
		o.Resolution = Resolution(m, a, b)
	}
	var xs, ys []float64
	if sideBySide {
		xs, ys = Paired(a, b, m)
	}
	return stats.Judge(m.Values(a), m.Values(b), xs, ys, o)
}

// Resolution is the relative resolution of metric m's values in the
// counted trials of the scenarios: for a throughput, one record's worth
// of the fewest records a trial acknowledged (1/acked), since a trial's
// rate is a count over its window; stats.DefaultResolution when that is
// finer, or for any other metric.
func Resolution(m Metric, scs ...*ScenarioStats) float64 {
	res := stats.DefaultResolution
	if m.Key != "throughput" && m.Key != "mb_per_s" {
		return res
	}
	for _, s := range scs {
		for i := range s.counted {
			if n := s.counted[i].Records.Acked; n > 0 {
				res = max(res, 1/float64(n))
			}
		}
	}
	return res
}
