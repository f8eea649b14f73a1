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
// rounds, else Welch's test on their summaries. o.Dir is taken from m.
func Judge(a, b *ScenarioStats, m Metric, sideBySide bool, o stats.Options) stats.Verdict {
	o.Dir = m.Dir
	var xs, ys []float64
	if sideBySide {
		xs, ys = Paired(a, b, m)
	}
	return stats.Judge(m.Summary(a), m.Summary(b), xs, ys, o)
}
