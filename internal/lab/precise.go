package lab

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// untilPrecise is trials: auto for one cluster group: measured rounds
// until every planned comparison within the group (and every scenario that
// is in none) reaches the target precision, the group's share of the
// budget is spent, or expfile.MaxAutoRounds have run. The rule looks at
// interval widths only, never at significance.
type untilPrecise struct {
	e    *expfile.Experiment
	g    *clusterGroup
	cmps []expfile.Comparison
	skip func(expfile.Scenario, int) bool
	logf func(format string, args ...any)
	// roundClock's budget is the group's share of the run's budget.
	roundClock
	// recs are the group's measured trials so far, by scenario, and byID
	// their summaries, each updated when its scenario gets a trial; prec
	// the rule's state per scenario, written into each record; met and
	// worst its verdict.
	recs  map[string][]results.Record
	byID  map[string]*summary.ScenarioStats
	prec  map[string]results.Precision
	met   bool
	worst float64
	// pairs is the fewest measured trials of a scenario of the group;
	// nCmp and nAlone count the intervals the rule judged: paired ones of
	// planned comparisons, and scenarios' own means.
	pairs, nCmp, nAlone int
	// out are the scenarios an advisor took out of the race, with why;
	// they get no more trials and the stopping rule leaves them out.
	out map[string]string
	// focus: a scenario whose every interval already meets the target
	// sits out the rounds left, which go to the questions still open
	// (plain trials: auto; an advisor's race paces its own rounds).
	focus bool
	// resting are the scenarios sitting out under focus, for the log.
	resting map[string]bool
	// minLives, under lives: auto, is the fewest lives an interval must
	// span to count as precise (stats.StopRule.MinLives), and lifeEnd
	// the round that ends the life running: the schedule then runs over
	// every life of its cluster and is judged only at a life's end, each
	// life whole.
	minLives, lifeEnd int
}

// newUntilPrecise starts the measured rounds of g with its share of the
// budget (by its number of scenarios out of nScenarios) and the measured
// trials prev of a run being resumed.
func newUntilPrecise(e *expfile.Experiment, g *clusterGroup, cmps []expfile.Comparison, nScenarios int, prev []results.Record) *untilPrecise {
	u := &untilPrecise{e: e, g: g, cmps: cmps, prec: map[string]results.Precision{}, out: map[string]string{},
		recs: map[string][]results.Record{}, byID: map[string]*summary.ScenarioStats{},
		roundClock: roundClock{budget: seconds(e.BudgetS * float64(len(g.scs)) / float64(nScenarios))}, logf: func(string, ...any) {}}
	for _, sc := range g.scs { // nothing is known before the first round
		u.prec[sc.ID] = results.Precision{Target: e.Precision, Reached: -1}
	}
	for _, rec := range prev {
		if _, in := u.prec[rec.ScenarioID]; in && !rec.Warmup {
			u.recs[rec.ScenarioID] = append(u.recs[rec.ScenarioID], rec)
		}
	}
	for id := range u.recs {
		u.summarise(id)
	}
	u.update()
	return u
}

func (u *untilPrecise) next() ([]trialSpec, bool) {
	if u.done {
		return nil, false
	}
	u.startRound()
	u.rest()
	skip := u.skip
	if len(u.out) > 0 || len(u.resting) > 0 {
		skip = func(sc expfile.Scenario, n int) bool {
			return u.out[sc.ID] != "" || u.resting[sc.ID] || (u.skip != nil && u.skip(sc, n))
		}
	}
	return roundOf(u.g.scs, u.round-1, false, skip), true
}

// rest, under focus, lets the scenarios whose every interval meets the
// target sit out from now on, and logs the ones that start to. A
// comparison is paired by round, so its two scenarios rest together
// unless one of them is still needed by another comparison; a scenario
// that rests keeps the trials it has, and its intervals stay as they are.
func (u *untilPrecise) rest() {
	if !u.focus {
		return
	}
	for _, sc := range u.g.scs {
		if p := u.prec[sc.ID]; p.Met && !u.resting[sc.ID] {
			if u.resting == nil {
				u.resting = map[string]bool{}
			}
			u.resting[sc.ID] = true
			u.logf("%s%s: every interval it is judged by is within ±%.1f %% (±%.1f %%); it sits out the rounds left", u.g.logPrefix(), sc.ID, u.e.Precision*100, p.Reached*100)
		}
	}
}

// observe counts a measured trial and writes the precision its own trial
// brought the group to into its record.
func (u *untilPrecise) observe(rec *results.Record) {
	u.recs[rec.ScenarioID] = append(u.recs[rec.ScenarioID], *rec)
	u.summarise(rec.ScenarioID)
	u.update()
	if p, ok := u.prec[rec.ScenarioID]; ok {
		rec.Precision = &p
	}
}

// finished reports whether the trials of a resumed run already reach the
// target precision.
func (u *untilPrecise) finished() bool { return len(u.recs) > 0 && u.met }

// summarise updates scenario id's summary from its trials; the other
// scenarios' summaries stand.
func (u *untilPrecise) summarise(id string) {
	sum, err := summary.ByScenario(u.recs[id])
	switch {
	case err != nil:
		u.logf("precision: %v", err)
		delete(u.byID, id)
	case len(sum) == 1:
		u.byID[id] = &sum[0]
	default: // no counted trial yet
		delete(u.byID, id)
	}
}

// endRound decides, after a round, whether the group is done, and says
// why in the log.
func (u *untilPrecise) endRound() {
	e, g := u.e, u.g
	last := u.stopRound()
	u.done = true
	switch {
	case u.met:
		u.logf("%sprecision reached after %d rounds%s (%.0fs): %s within ±%.1f %% (widest ±%.1f %%)", g.logPrefix(), u.round, u.overLives(), u.spent.Seconds(), u.judged(), e.Precision*100, u.worst*100)
	case u.overrun(last):
		u.logf("%sbudget %s spent after %d rounds: widest interval %s, target ±%.1f %% not reached; verdicts say how many more rounds they need",
			g.logPrefix(), u.budget.Round(time.Second), u.round, u.widest(), e.Precision*100)
	case u.round >= expfile.MaxAutoRounds:
		u.logf("%sstopped at %d rounds (the most trials: auto runs): widest interval %s", g.logPrefix(), u.round, u.widest())
	default:
		u.done = false
		u.logf("%sround %d: widest interval %s (target ±%.1f %%)", g.logPrefix(), u.round, u.widest(), e.Precision*100)
	}
}

// widest writes the widest relative half-width as "±6.8 %", or says it is
// not known yet: some interval could not be tested, or it rests on fewer
// rounds than the rule needs, when its width means little.
func (u *untilPrecise) widest() string {
	if u.pairs < stats.DefaultMinPairs {
		return fmt.Sprintf("not known yet (%d of the %d rounds the rule needs)", u.pairs, stats.DefaultMinPairs)
	}
	if n := u.livesSeen(); n < u.minLives {
		return fmt.Sprintf("%s over %d of the %d lives the rule needs", pctOrUnknown(u.worst), n, u.minLives)
	}
	return pctOrUnknown(u.worst)
}

// judged names the intervals the rule judged, for the closing line.
func (u *untilPrecise) judged() string {
	cmps := fmt.Sprintf("%d planned comparisons' paired intervals", u.nCmp)
	if u.nCmp == 1 {
		cmps = "the planned comparison's paired interval"
	}
	alone := fmt.Sprintf("%d scenarios' own mean throughput", u.nAlone)
	if u.nAlone == 1 {
		alone = "1 scenario's own mean throughput"
	}
	switch {
	case u.nCmp == 0:
		return "each scenario's own mean throughput (no comparison declared)"
	case u.nAlone == 0:
		return cmps
	}
	return cmps + " and " + alone + " (in no comparison)"
}

// update judges the group's measured trials so far by the stopping rule
// and records, per scenario, the widest relative half-width of its
// comparisons. A planned comparison within the group is judged paired by
// round on its metric; a scenario in no such comparison by the interval of
// its own mean throughput. met says whether all met the target, worst is
// the widest half-width (NaN when some is not known yet, which counts as
// not met).
func (u *untilPrecise) update() {
	byID := u.byID
	t := precisionTally{reached: map[string]float64{}, met: map[string]bool{}}
	u.nCmp = u.judgeComparisons(&t, byID)
	u.nAlone, u.pairs = 0, math.MaxInt
	for _, sc := range u.g.scs {
		if u.out[sc.ID] != "" {
			continue
		}
		n := 0
		if s := byID[sc.ID]; s != nil {
			n = s.Throughput.N
		}
		u.pairs = min(u.pairs, n)
		if _, judged := t.met[sc.ID]; !judged {
			u.judgeAlone(&t, sc.ID, byID[sc.ID])
			u.nAlone++
		}
	}
	midLife := u.minLives > 0 && u.round < u.lifeEnd
	u.met, u.worst = true, 0
	for _, id := range slices.Sorted(maps.Keys(t.reached)) {
		hw := t.reached[id]
		met := t.met[id] && !midLife
		u.prec[id] = results.Precision{Target: u.e.Precision, Reached: finiteOr(hw, -1), Met: met}
		u.met = u.met && met
		if math.IsNaN(hw) || hw > u.worst {
			u.worst = hw
		}
	}
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

// judgeComparisons judges every planned comparison whose two scenarios are
// in the group, paired by round on its metric, and counts them.
func (u *untilPrecise) judgeComparisons(t *precisionTally, byID map[string]*summary.ScenarioStats) (n int) {
	rule := stats.StopRule{Target: u.e.Precision, MinLives: u.minLives}
	for _, c := range u.cmps {
		if _, in := u.prec[c.Baseline]; !in || u.out[c.Baseline] != "" || u.out[c.Candidate] != "" {
			continue
		}
		if _, in := u.prec[c.Candidate]; !in {
			continue
		}
		n++
		a, b := byID[c.Baseline], byID[c.Candidate]
		if a == nil || b == nil {
			t.judge(c.Baseline, math.NaN(), false)
			t.judge(c.Candidate, math.NaN(), false)
			continue
		}
		m, ok := summary.MetricByKey(c.Metric)
		if !ok {
			m = summary.Metrics[0]
		}
		v := summary.Judge(a, b, m, true, stats.Options{Level: stats.DefaultConfidence, Margin: u.e.Equivalence})
		met := rule.Precise(v)
		t.judge(c.Baseline, v.RuleHalfWidth(), met)
		t.judge(c.Candidate, v.RuleHalfWidth(), met)
	}
	return n
}

// judgeAlone judges a scenario in no comparison by its mean throughput's
// relative half-width, on at least as many trials as a comparison needs
// pairs.
func (u *untilPrecise) judgeAlone(t *precisionTally, id string, s *summary.ScenarioStats) {
	if s == nil {
		t.judge(id, math.NaN(), false)
		return
	}
	hw := s.Throughput.Err / s.Throughput.Mean
	t.judge(id, hw, s.Throughput.N >= stats.DefaultMinPairs && hw <= u.e.Precision && u.lives(id) >= u.minLives)
}

// lives counts the lives scenario id's measured trials come from.
func (u *untilPrecise) lives(id string) int {
	seen := map[int]bool{}
	for _, rec := range u.recs[id] {
		seen[rec.Life] = true
	}
	return len(seen)
}

// pctOrUnknown writes a relative half-width as "±6.8 %", or says it is not
// known yet (too few trials to test).
func pctOrUnknown(hw float64) string {
	if math.IsNaN(hw) {
		return "not known yet"
	}
	return fmt.Sprintf("±%.1f %%", hw*100)
}

// finiteOr returns v, or alt when v is NaN or infinite (JSON has neither).
func finiteOr(v, alt float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return alt
	}
	return v
}

// livesSeen counts the lives the group's measured trials come from.
func (u *untilPrecise) livesSeen() int {
	n := 0
	for id := range u.recs {
		n = max(n, u.lives(id))
	}
	return n
}

// overLives says, under lives: auto, over how many lives the rule judged.
func (u *untilPrecise) overLives() string {
	if u.minLives == 0 {
		return ""
	}
	return fmt.Sprintf(" in %d lives", u.livesSeen())
}
