package lab

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// A capacity search: each group's scenarios probed at the rates the
// search picks (capacitySearch).
func init() {
	registerMode("capacity", labMode{measured: (*runner).capacityRounds, plan: capacityPlan})
}

// capacityRounds is g's capacity search.
func (r *runner) capacityRounds(g *clusterGroup, _ func(expfile.Scenario, int) bool) scheduler {
	s := newCapacitySearch(r.exp, g, r.nScenarios, r.prev)
	s.logf = r.logf
	return s
}

// capacityPlan writes the search's settings into the plan.
func capacityPlan(p *results.Plan, e *expfile.Experiment, _ []expfile.Scenario) {
	c := e.Capacity
	p.Capacity = &results.CapacityPlan{SLO: c.SLO, KeepUp: c.KeepUp, Precision: c.Precision, BudgetS: c.BudgetS}
}

// capacitySearch is the capacity: section for one cluster group: per
// scenario, first an unthrottled ceiling probe, then one at half the
// ceiling, then probes at the rate stats.Threshold.NextRate picks from
// every outcome so far (probes either side of the estimate: a log-space
// bisection between a thousandth of the ceiling and four times it, or
// four times the highest rate a probe passed at when higher, while passes
// and fails lie apart, then probes that straddle the boundary), one probe
// of each scenario per round in alternating order, so drift does not
// favour one. It stops when every
// scenario's sustainable rate is known within capacity.precision (on at
// least stats.DefaultMinPairs probes, bracketed on both sides), when the
// group's share of capacity.budget would be overrun by another round, or
// after expfile.MaxAutoRounds rounds.
type capacitySearch struct {
	c    expfile.Capacity
	g    *clusterGroup
	logf func(format string, args ...any)
	// roundClock's budget is the group's share of capacity.budget.
	roundClock
	// recs are each scenario's probe records so far (a resumed run's
	// included), the search's whole memory.
	recs map[string][]results.Record
	// issued counts each scenario's measured trials so far, to number the
	// next one.
	issued map[string]int
	// est caches each scenario's estimate until its next probe; post
	// keeps its posterior, which each probe updates.
	est  map[string]stats.Threshold
	post map[string]*summary.ProbeEstimator
	// out are the scenarios an advisor took out of the race, or the
	// search gave up on, with why; they get no more probes and the
	// stopping rule leaves them out.
	out map[string]string
	// barren counts each scenario's trials in a row that failed before
	// sending a record (giveUpBarren).
	barren map[string]int
}

// giveUpBarren is how many trials in a row may fail before sending a
// record (the client refused its settings, the topic could not be made)
// before the search gives the scenario up: such a trial is no probe, and
// retrying it would spend the whole budget on the same failure.
const giveUpBarren = 2

// firstProbe is where the first probe after the ceiling goes, as a share
// of the ceiling: most sustainable rates lie between a quarter of it and
// all of it, so starting there saves the bisection from a thousandth of it
// three or four probes; a strict SLO is found by bisecting down instead.
const firstProbe = 0.5

// newCapacitySearch starts g's search with its share of the budget (by its
// number of scenarios out of nScenarios) and the probes of a resumed run.
func newCapacitySearch(e *expfile.Experiment, g *clusterGroup, nScenarios int, prev []results.Record) *capacitySearch {
	s := &capacitySearch{c: e.Capacity, g: g, logf: func(string, ...any) {}, recs: map[string][]results.Record{}, issued: map[string]int{}, est: map[string]stats.Threshold{}, post: map[string]*summary.ProbeEstimator{},
		out: map[string]string{}, barren: map[string]int{}, roundClock: roundClock{budget: seconds(e.Capacity.BudgetS * float64(len(g.scs)) / float64(nScenarios))}}
	for _, rec := range prev {
		if !rec.Warmup && s.member(rec.ScenarioID) {
			s.issued[rec.ScenarioID] = max(s.issued[rec.ScenarioID], rec.Trial+1)
		}
		if rec.Probe != nil && !rec.Warmup && s.member(rec.ScenarioID) {
			s.recs[rec.ScenarioID] = append(s.recs[rec.ScenarioID], rec)
		}
	}
	return s
}

// member reports whether scenario id belongs to the group.
func (s *capacitySearch) member(id string) bool {
	for _, sc := range s.g.scs {
		if sc.ID == id {
			return true
		}
	}
	return false
}

// probes is what the search knows of scenario id.
func (s *capacitySearch) probes(id string) summary.ScenarioProbes {
	ps := summary.Probes(s.recs[id])
	if len(ps) == 0 {
		return summary.ScenarioProbes{ScenarioID: id}
	}
	return ps[0]
}

// threshold is scenario id's estimate so far.
func (s *capacitySearch) threshold(id string) stats.Threshold {
	if t, ok := s.est[id]; ok {
		return t
	}
	pe := s.post[id]
	if pe == nil {
		pe = &summary.ProbeEstimator{}
		s.post[id] = pe
	}
	t := pe.Threshold(s.probes(id), stats.DefaultConfidence)
	s.est[id] = t
	return t
}

func (s *capacitySearch) next() ([]trialSpec, bool) {
	if s.done {
		return nil, false
	}
	s.startRound()
	var round []trialSpec
	for _, sc := range order(s.g.scs, s.round-1) {
		if s.out[sc.ID] != "" {
			continue
		}
		t := trialSpec{sc: sc, n: s.issued[sc.ID]}
		s.issued[sc.ID]++
		switch sp := s.probes(sc.ID); {
		case sp.Ceiling == 0: // rate 0: the unthrottled ceiling probe
		case len(sp.Outcomes) == 0:
			t.rate = math.Max(1, math.Round(sp.Ceiling*firstProbe))
		default:
			// At least 1 record/s: a rate rounded to 0 would run unthrottled.
			t.rate = math.Max(1, math.Round(s.threshold(sc.ID).NextRate()))
		}
		round = append(round, t)
	}
	return round, true
}

// observe judges a probe and keeps it; trials that never ran (the cluster
// failed) are not probes.
func (s *capacitySearch) observe(rec *results.Record) {
	rec.Probe = judgeProbe(rec, s.c)
	if rec.Probe == nil {
		s.countBarren(rec)
		return
	}
	delete(s.barren, rec.ScenarioID)
	s.recs[rec.ScenarioID] = append(s.recs[rec.ScenarioID], *rec)
	delete(s.est, rec.ScenarioID)
	t := s.threshold(rec.ScenarioID)
	hw := t.HalfWidth()
	rec.Precision = &results.Precision{Target: s.c.Precision, Reached: finiteOr(hw, -1), Met: s.met(t)}
}

// countBarren counts a measured trial that failed before sending a record
// and, at giveUpBarren in a row, gives its scenario up with the trial's
// error.
func (s *capacitySearch) countBarren(rec *results.Record) {
	if rec.Warmup || rec.Status != results.StatusFailed || rec.Records.Sent > 0 {
		return
	}
	s.barren[rec.ScenarioID]++
	if s.barren[rec.ScenarioID] < giveUpBarren || s.out[rec.ScenarioID] != "" {
		return
	}
	why := fmt.Sprintf("given up: %d trials in a row failed before sending a record: %s", giveUpBarren, rec.Error)
	s.out[rec.ScenarioID] = why
	s.logf("%scapacity: %s %s", s.g.logPrefix(), rec.ScenarioID, why)
}

// met reports whether scenario id's sustainable rate is known well enough
// to stop: bracketed, on enough probes, within the target.
func (s *capacitySearch) met(t stats.Threshold) bool {
	return summary.CapacityMet(t, s.c.Precision)
}

// finished reports whether a resumed run's probes already answer every
// scenario.
func (s *capacitySearch) finished() bool {
	for _, sc := range s.g.scs {
		if s.out[sc.ID] == "" && !s.met(s.threshold(sc.ID)) {
			return false
		}
	}
	return true
}

// endRound decides whether the group is done and logs each scenario's
// estimate.
func (s *capacitySearch) endRound() {
	last := s.stopRound()
	all := true
	var parts []string
	for _, sc := range s.g.scs {
		if s.out[sc.ID] != "" {
			continue
		}
		t := s.threshold(sc.ID)
		all = all && s.met(t)
		parts = append(parts, fmt.Sprintf("%s %s", label(sc), thresholdText(t)))
	}
	if n := len(s.out); n > 0 {
		parts = append(parts, fmt.Sprintf("%d out of the race", n))
	}
	p := s.g.logPrefix()
	s.done = true
	switch {
	case all:
		s.logf("%scapacity known within ±%g %% after %d rounds (%.0fs): %s", p, s.c.Precision*100, s.round, s.spent.Seconds(), strings.Join(parts, "; "))
	case s.overrun(last):
		s.logf("%scapacity budget %s spent after %d rounds: %s; target ±%g %% not reached everywhere", p, s.budget.Round(time.Second), s.round, strings.Join(parts, "; "), s.c.Precision*100)
	case s.round >= expfile.MaxAutoRounds:
		s.logf("%scapacity search stopped at %d rounds: %s", p, s.round, strings.Join(parts, "; "))
	default:
		s.done = false
		s.logf("%scapacity round %d: %s", p, s.round, strings.Join(parts, "; "))
	}
}

// thresholdText is an estimate for the round log: "12,345 msg/s
// [11,900, 12,800] ±3.7 % (9 probes)", or where it lies when the search
// has not bracketed it.
func thresholdText(t stats.Threshold) string {
	n := fmt.Sprintf("%d probes", t.Probes)
	switch {
	case t.Probes == 0:
		return "ceiling probe only"
	case math.IsNaN(t.Estimate):
		return "not known (" + n + ")"
	case t.Edge == "below":
		return fmt.Sprintf("below %s msg/s: not yet bounded below, the estimate reaches the search's bottom (%s, %d passed)", textfmt.Group(t.Hi, 0), n, t.Passes)
	case t.Edge == "above":
		return fmt.Sprintf("above %s msg/s: not yet bounded above, the estimate reaches the search's top (%s, %d passed)", textfmt.Group(t.Lo, 0), n, t.Passes)
	}
	return fmt.Sprintf("%s msg/s [%s, %s] ±%.1f %% (%s)", textfmt.Group(t.Estimate, 0), textfmt.Group(t.Lo, 0), textfmt.Group(t.Hi, 0), t.HalfWidth()*100, n)
}

// judgeProbe is the search's verdict on one trial: a ceiling probe (no
// offered rate) bounds the search; a probe at a rate passes when no record
// failed, the producer kept up (achieved ÷ offered ≥ keep.up within the
// window's resolution, summary.KeptUp), the window
// was steady and every SLO percentile held, from the intended send time
// or end to end (summary.HoldMisses). A trial that produced nothing (its topic, cluster or
// client failed) is no probe: nil.
func judgeProbe(rec *results.Record, c expfile.Capacity) *results.Probe {
	if rec.Warmup || rec.Status == results.StatusInterrupted || rec.Records.Sent == 0 {
		return nil
	}
	p := &results.Probe{Settings: knobs(rec.EffectiveConfig)}
	if rec.Load == nil {
		if !rec.Counted() {
			return nil
		}
		p.Ceiling = true
		return p
	}
	why := summary.HoldMisses(rec, c.SLO, c.KeepUp)
	p.Pass = len(why) == 0
	p.Why = strings.Join(why, "; ")
	return p
}

// knobs are the settings that decide where a producer's knee falls, as
// the client used them.
func knobs(eff map[string]string) map[string]string {
	out := map[string]string{}
	for _, k := range []string{kafkaconf.BufferMemory, kafkaconf.BatchSize, kafkaconf.LingerMs, kafkaconf.MaxInFlight, kafkaconf.MaxBufferedRecords} {
		if v, ok := eff[k]; ok {
			out[k] = v
		}
	}
	return out
}

// loadOf is a rate-limited trial's offered load and the share of it the
// producer achieved over the measured window.
func loadOf(rec *results.Record, rate float64) *results.Load {
	return &results.Load{OfferedRecordsPerS: rate, Achieved: rec.Throughput.RecordsPerS / rate}
}
