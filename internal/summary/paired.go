package summary

import (
	"math"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// Paired returns the values of metric m for the trials that a and b both
// counted, matched by life and trial number, in trial order. Scenarios of
// one run share trial numbers: trial i of every scenario ran in round i.
func Paired(a, b *ScenarioStats, m Metric) (xs, ys []float64) {
	xl, yl := PairedLives(a, b, m)
	for l := range xl {
		xs, ys = append(xs, xl[l]...), append(ys, yl[l]...)
	}
	return xs, ys
}

// PairedLives is Paired by life (results.Record.Life): xs[l] and ys[l]
// are the pairs of the l-th life in which a ran, in order of appearance.
func PairedLives(a, b *ScenarioStats, m Metric) (xs, ys [][]float64) {
	type key struct{ life, trial int }
	byTrial := make(map[key]*results.Record, len(b.counted))
	for i := range b.counted {
		byTrial[key{b.counted[i].Life, b.counted[i].Trial}] = &b.counted[i]
	}
	place := map[int]int{}
	for i := range a.counted {
		ra := &a.counted[i]
		rb, ok := byTrial[key{ra.Life, ra.Trial}]
		if !ok {
			continue
		}
		x, y := m.Trial(ra), m.Trial(rb)
		if math.IsNaN(x) || math.IsNaN(y) {
			continue // a trial that did not measure m
		}
		l, seen := place[ra.Life]
		if !seen {
			l = len(xs)
			place[ra.Life] = l
			xs, ys = append(xs, nil), append(ys, nil)
		}
		xs[l] = append(xs[l], x)
		ys[l] = append(ys[l], y)
	}
	return xs, ys
}

// Judge compares metric m of b with a (stats.Judge): paired by round when
// the two ran side by side (sideBySide) and share at least two rounds,
// else Welch's test on their values. Pairs from two or more lives (runs)
// are judged over lives (stats.ComparePairedLives), each life once.
// o.Dir is taken from m; a throughput's resolution, unless o gives one, is
// what its trials' acknowledgement counts can resolve (Resolution).
func Judge(a, b *ScenarioStats, m Metric, sideBySide bool, o stats.Options) stats.Verdict {
	o.Dir = m.Dir
	if o.Resolution == 0 {
		o.Resolution = Resolution(m, a, b)
	}
	var xs, ys []float64
	if sideBySide {
		xl, yl := PairedLives(a, b, m)
		if len(xl) >= 2 {
			return stats.ComparePairedLives(xl, yl, o)
		}
		xs, ys = Paired(a, b, m)
	}
	return stats.Judge(m.Values(a), m.Values(b), xs, ys, o)
}

// Resolution is the relative resolution of metric m's values in the
// counted trials of the scenarios. A throughput is a count of
// acknowledgements over a window, and acknowledgements arrive a produce
// response at a time: a trial's count can move by one response's records,
// so its resolution is one request's share of its acknowledged records
// (1 / the requests in its measured window), or one record's worth
// (1/acked) when the trial did not count requests. stats.DefaultResolution
// when that is finer, and for any other metric.
func Resolution(m Metric, scs ...*ScenarioStats) float64 {
	res := stats.DefaultResolution
	if m.Key != "throughput" && m.Key != "mb_per_s" {
		return res
	}
	for _, s := range scs {
		for i := range s.counted {
			res = max(res, trialQuantum(&s.counted[i]))
		}
	}
	return res
}

// trialQuantum is the smallest relative step of one trial's acknowledged
// count: 1 / the produce requests of its measured window (its requests
// scaled by the measured share of everything acknowledged, when an
// in-trial warm-up went through the same producer), else 1/acked; 0 when
// nothing was acknowledged.
func trialQuantum(r *results.Record) float64 {
	acked := float64(r.Records.Acked)
	if acked <= 0 {
		return 0
	}
	steps := acked
	if req := float64(r.ProduceRequests); req > 0 {
		all := acked
		if w := r.WarmupRecords; w != nil {
			all += float64(w.Acked)
		}
		steps = min(acked, max(1, req*acked/all))
	}
	return 1 / steps
}
