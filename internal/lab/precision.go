package lab

import (
	"maps"
	"math"
	"slices"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// updatePrecision judges the group's measured trials so far by the
// stopping rule and records, per scenario, the widest relative half-width
// of its comparisons. A planned comparison within the group is judged
// paired by round on its metric; a scenario in no such comparison by the
// interval of its own mean throughput. extra are trials counted before
// they are written. It reports whether all met the
// target and the widest half-width (NaN when some is not known yet, which
// counts as not met).
func (r *runner) updatePrecision(g *clusterGroup, extra ...results.Record) (allMet bool, worst float64) {
	in := map[string]bool{}
	for _, sc := range g.scs {
		in[sc.ID] = true
	}
	byID, err := r.measuredStats(in, extra)
	if err != nil {
		r.logf("precision: %v", err)
		return false, math.NaN()
	}
	t := precisionTally{reached: map[string]float64{}, met: map[string]bool{}}
	r.judgeComparisons(&t, in, byID)
	for _, sc := range g.scs {
		if _, judged := t.met[sc.ID]; !judged {
			r.judgeAlone(&t, sc.ID, byID[sc.ID])
		}
	}
	allMet, worst = true, 0
	for _, id := range slices.Sorted(maps.Keys(t.reached)) {
		hw := t.reached[id]
		r.prec[id] = results.Precision{Target: r.exp.Precision, Reached: finiteOr(hw, -1), Met: t.met[id]}
		allMet = allMet && t.met[id]
		if math.IsNaN(hw) || hw > worst {
			worst = hw
		}
	}
	return allMet, worst
}

// precisionTally keeps, per scenario, the widest half-width of the
// intervals that judged it and whether every one met the target.
type precisionTally struct {
	reached map[string]float64
	met     map[string]bool
}

// judge adds one interval's half-width hw (NaN when not tested) and
// verdict met to scenario id.
func (t *precisionTally) judge(id string, hw float64, met bool) {
	if prev, seen := t.reached[id]; !seen || !(hw <= prev) { // NaN wins
		t.reached[id] = hw
	}
	if prev, seen := t.met[id]; seen {
		met = met && prev
	}
	t.met[id] = met
}

// measuredStats summarises the measured trials of the scenarios in the
// set, those written so far and extra (a trial about to be written).
func (r *runner) measuredStats(in map[string]bool, extra []results.Record) (map[string]*stats.ScenarioStats, error) {
	var recs []results.Record
	for _, rec := range slices.Concat(r.recs, extra) {
		if in[rec.ScenarioID] && !rec.Warmup {
			recs = append(recs, rec)
		}
	}
	sum, err := stats.ByScenario(recs)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*stats.ScenarioStats, len(sum))
	for i := range sum {
		byID[sum[i].ID] = &sum[i]
	}
	return byID, nil
}

// judgeComparisons judges every planned comparison whose two scenarios are
// in the set, paired by round on its metric.
func (r *runner) judgeComparisons(t *precisionTally, in map[string]bool, byID map[string]*stats.ScenarioStats) {
	rule := stats.StopRule{Target: r.exp.Precision}
	for _, c := range r.cmps {
		if !in[c.Baseline] || !in[c.Candidate] {
			continue
		}
		a, b := byID[c.Baseline], byID[c.Candidate]
		if a == nil || b == nil {
			t.judge(c.Baseline, math.NaN(), false)
			t.judge(c.Candidate, math.NaN(), false)
			continue
		}
		m, ok := stats.MetricByKey(c.Metric)
		if !ok {
			m = stats.Metrics[0]
		}
		xs, ys := stats.Paired(a, b, m)
		v := stats.ComparePaired(xs, ys, stats.Options{Level: stats.DefaultConfidence, Margin: r.exp.Equivalence, Dir: m.Dir})
		met := rule.Precise(v)
		t.judge(c.Baseline, v.HalfWidth(), met)
		t.judge(c.Candidate, v.HalfWidth(), met)
	}
}

// judgeAlone judges a scenario in no comparison by its mean throughput's
// relative half-width, on at least as many trials as a comparison needs
// pairs.
func (r *runner) judgeAlone(t *precisionTally, id string, s *stats.ScenarioStats) {
	if s == nil {
		t.judge(id, math.NaN(), false)
		return
	}
	hw := s.Throughput.Err / s.Throughput.Mean
	t.judge(id, hw, s.Throughput.N >= stats.DefaultMinPairs && hw <= r.exp.Precision)
}
