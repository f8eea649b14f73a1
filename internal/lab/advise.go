package lab

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/secret"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// An advisor race by sustainable rate: a capacity search over the
// candidates that drops the worse (advisor).
func init() {
	registerMode("advise", labMode{measured: (*runner).adviseRounds, plan: func(p *results.Plan, e *expfile.Experiment, scs []expfile.Scenario) {
		capacityPlan(p, e, scs)
		p.Advise = advicePlan(e, scs)
	}})
}

// adviseRounds is g's advisor race over its capacity search.
func (r *runner) adviseRounds(g *clusterGroup, skip func(expfile.Scenario, int) bool) scheduler {
	return newAdvisor(r.exp, r.capacityRounds(g, skip).(*capacitySearch))
}

// advisor is the advise: section's schedule: a capacity search over the
// candidate scenarios (each a point of the search space, the user's
// current settings, the client's defaults) that races them. After each
// round it takes out of the race every candidate the verdict engine
// decides slower than the leader (the highest bracketed sustainable
// rate), and, when the budget cannot give every candidate still in the
// race the probes a verdict needs, the lower half by rank (successive
// halving). The current settings and the defaults leave only once no probe
// bounds them from below under the leader's interval: the pick is judged
// against them, and that verdict is then decided already. The search ends as a capacity search does,
// once every candidate still in the race is known within the precision,
// or on the budget.
type advisor struct {
	*capacitySearch
	race
	margin float64
	// level is the confidence level of the race's verdicts: the run's,
	// Bonferroni-corrected for the number of candidates that can leave
	// (raceLevel).
	level float64
}

// raceMinProbes is the fewest pass/fail probes on each side before the
// race judges a candidate against the leader: the final verdicts'
// stats.DefaultMinPairs (at 4, simulated A/A races took equal candidates
// out in 22 of 40).
const raceMinProbes = stats.DefaultMinPairs

// raceLeaderPrecision: the leader's sustainable rate must be known within
// this many times capacity.precision before any candidate is judged
// against it. The leader is the highest of several estimates, so the one
// most likely to be high by chance (one lucky probe above the knee moves
// an estimate on 8 probes by tens of percent); judged against it before it
// settled, equal candidates left the race in 10 of 20 simulated A/A races.
const raceLeaderPrecision = 2

// halvingProbes is how many more probes each candidate in the race should
// still be able to get within the budget; below that, successive halving
// keeps the better half.
const halvingProbes = stats.DefaultMinPairs

// newAdvisor races the candidates of capacity search s (a resumed run's
// probes included).
func newAdvisor(e *expfile.Experiment, s *capacitySearch) *advisor {
	a := &advisor{capacitySearch: s, margin: e.Equivalence, race: newRace(s.g, s.out, s.logf)}
	// Current and defaults can leave this race too (dropDecided).
	a.level = raceLevel(stats.DefaultConfidence, len(s.g.scs))
	a.resumed = trialCount(s.recs)
	a.dropStale(s.recs)
	a.judge()
	return a
}

// raceLevel is the confidence level at which the race takes a candidate
// out: the run's level with its α divided among the n candidates that can
// leave (Bonferroni). A race judges every candidate against the leader
// after every round, and stops probing on the verdict: at the run's own
// 95 % a pipe-bound run took out a candidate equal to the leader ("slower
// by 29.5 % [-49.1 %, -2.4 %]" on 7 probes, one of them failed by an
// unsteady window far below the knee); dividing α keeps the chance that
// any candidate leaves on such chance near α for the race as a whole
// (TestAdvisorAA).
func raceLevel(level float64, n int) float64 {
	return 1 - (1-level)/float64(max(n, 1))
}

// endRound takes candidates out of the race, then judges the round as
// the capacity search does.
func (a *advisor) endRound() {
	a.judge()
	a.capacitySearch.endRound()
}

// judge takes out the candidates whose audit was not clean, applies the
// verdict rule, then successive halving.
func (a *advisor) judge() {
	a.dropViolated(a.recs)
	a.dropDecided()
	a.halve()
}

// leader is the candidate in the race with the highest bracketed
// sustainable rate; ok is false while none is bracketed.
func (a *advisor) leader() (id string, t stats.Threshold, ok bool) {
	for _, sc := range a.inRace() {
		th := a.threshold(sc.ID)
		if th.Edge != "" || math.IsNaN(th.Estimate) {
			continue
		}
		if !ok || th.Estimate > t.Estimate {
			id, t, ok = sc.ID, th, true
		}
	}
	return id, t, ok
}

// protectedGap: current or defaults leave the race, open below, only when
// their upper bound lies under this share of the leader's lower bound, so
// that the final pick, whose bound may still fall, is judged against them
// all the same.
const protectedGap = 0.5

// dropDecided takes out every unprotected candidate the pipe model rules
// out (dropBounded), then, once the leader is known within
// raceLeaderPrecision × capacity.precision, every one decided slower than
// the leader by more than the equivalence margin (the interval's top
// below −margin) at the race's level, and current or defaults once open
// below far under the leader's interval (protectedGap: no probe bounds
// them from below, an SLO they hold at no rate probed).
func (a *advisor) dropDecided() {
	lid, lt, ok := a.leader()
	if !ok {
		return
	}
	a.dropBounded(lid, lt)
	if !summary.CapacityMet(lt, raceLeaderPrecision*a.c.Precision) {
		return
	}
	o := stats.Options{Level: a.level, Margin: a.margin, Dir: stats.HigherIsBetter, MinPairs: raceMinProbes}
	for _, sc := range a.inRace() {
		if sc.ID == lid {
			continue
		}
		t := a.threshold(sc.ID)
		v := stats.CompareThresholds(lt, t, o)
		switch {
		case v.Kind != stats.KindSlower:
		case !a.protect[sc.ID]:
			if v.Hi < -a.margin {
				a.takeOut(sc, "against the leader "+label(a.scenario(lid))+": "+v.Text)
			}
		case v.OneSided() && t.Hi < protectedGap*lt.Lo:
			// One-sided: no probe bounds it from below, and its upper bound
			// lies far under the leader's interval. The pick's verdict
			// against it is decided already, and stays so should the pick's
			// own bound fall as it learns.
			a.takeOut(sc, "no probe bounds it from below: "+v.Text)
		}
	}
}

// pipeCushion is how far below the leader's interval a candidate's pipe
// model bound must lie for it to leave before the leader is known within
// raceLeaderPrecision: the bound is a hard ceiling, but an early leader's
// interval can still sit high by chance.
const pipeCushion = 2

// dropBounded takes out every unprotected candidate whose pipe model
// bound (pipeBound) lies below the bracketed leader's interval by
// pipeCushion, probed or not: it cannot reach the leader whatever its
// probes say.
func (a *advisor) dropBounded(lid string, lt stats.Threshold) {
	for _, sc := range a.inRace() {
		if sc.ID == lid || a.protect[sc.ID] {
			continue
		}
		if b := pipeBound(sc); b*pipeCushion < lt.Lo {
			a.takeOut(sc, fmt.Sprintf("the pipe model bounds it at %s msg/s (in flight × request bytes ÷ round trip), under half the leader's interval [%s, %s]",
				textfmt.Group(b, 0), textfmt.Group(lt.Lo, 0), textfmt.Group(lt.Hi, 0)))
		}
	}
}

// halve keeps the better half of the unprotected candidates in the race
// when the rest of the budget cannot give each of them halvingProbes more
// probes at the pace of the rounds so far. Candidates rank by their
// bracketed estimate, else by their ceiling (a sustainable rate does not
// exceed what the producer achieves unthrottled by much).
func (a *advisor) halve() {
	drop, keep, left := halving(a.inRace(), a.protect, a.round, a.spentSoFar(), a.budget, trialCount(a.recs)-a.resumed,
		func(x, y expfile.Scenario) int { return cmp.Compare(a.score(y.ID), a.score(x.ID)) })
	for i, sc := range drop {
		a.takeOut(sc, halvingWhy(keep+i+1, keep+len(drop), left, "probes"))
	}
}

// halving is successive halving's rule, shared by both advisors: when the
// budget left cannot give every candidate in the race halvingProbes more
// trials at the pace of the rounds so far (runs trials in spent), it
// returns the lower half of the unprotected ones by better (best first),
// how many it keeps, and the seconds left; nothing before the second round
// or with two or fewer unprotected candidates.
func halving(racing []expfile.Scenario, protect map[string]bool, round int, spent, budget time.Duration, runs int,
	better func(x, y expfile.Scenario) int) (drop []expfile.Scenario, keep int, left float64) {
	if round < 2 || spent <= 0 {
		return nil, 0, 0
	}
	var free []expfile.Scenario
	for _, sc := range racing {
		if !protect[sc.ID] {
			free = append(free, sc)
		}
	}
	if len(free) <= 2 {
		return nil, 0, 0
	}
	perTrial := spent.Seconds() / float64(max(runs, 1))
	left = (budget - spent).Seconds()
	if left >= perTrial*float64(len(racing)*halvingProbes) {
		return nil, 0, left
	}
	slices.SortStableFunc(free, better)
	keep = (len(free) + 1) / 2
	return free[keep:], keep, left
}

// halvingWhy is the log's reason for a candidate halving took out.
func halvingWhy(rank, of int, left float64, trials string) string {
	return fmt.Sprintf("successive halving: ranked %d of %d when the budget left (%.0fs) could not give every candidate %d more %s",
		rank, of, left, halvingProbes, trials)
}

// score ranks a candidate for halving: its bracketed estimate, else its
// ceiling, else (no probe yet) its pipe model bound.
func (a *advisor) score(id string) float64 {
	t := a.threshold(id)
	if t.Edge == "" && !math.IsNaN(t.Estimate) {
		return t.Estimate
	}
	if c := a.probes(id).Ceiling; c > 0 {
		return c
	}
	if b := pipeBound(a.scenario(id)); !math.IsNaN(b) {
		return b
	}
	return 0
}

// trialCount counts the trials of a race's records (a resumed run's too):
// the sustainable advisor's probes, ceilings included, or the rate
// advisor's measured trials.
func trialCount(recs map[string][]results.Record) int {
	n := 0
	for _, rs := range recs {
		n += len(rs)
	}
	return n
}

// race is what both advisors share: the candidates taken out of the race
// (the search's own out map) and those protected.
type race struct {
	g   *clusterGroup
	out map[string]string
	// protect are the scenarios taken out only when nothing they could
	// show would change the pick's verdict against them: current and
	// defaults (dropDecided).
	protect map[string]bool
	logf    func(format string, args ...any)
	// resumed counts the trials a resumed run brought: the halving pace is
	// this session's time over this session's trials.
	resumed int
}

// newRace races g's candidates, with out the searcher's map of those out.
func newRace(g *clusterGroup, out map[string]string, logf func(string, ...any)) race {
	return race{g: g, out: out, logf: logf,
		protect: map[string]bool{expfile.CandidateID(expfile.CurrentLabel): true, expfile.CandidateID(expfile.DefaultsLabel): true}}
}

// free counts the unprotected candidates: those the verdicts can take
// out of a race.
func (r race) free() int {
	n := 0
	for _, sc := range r.g.scs {
		if !r.protect[sc.ID] {
			n++
		}
	}
	return n
}

// inRace lists the scenarios still in the race, in the group's order.
func (r race) inRace() []expfile.Scenario {
	var out []expfile.Scenario
	for _, sc := range r.g.scs {
		if r.out[sc.ID] == "" {
			out = append(out, sc)
		}
	}
	return out
}

// takeOut ends a candidate's trials and says why in the log.
func (r race) takeOut(sc expfile.Scenario, why string) {
	r.out[sc.ID] = why
	r.logf("%sadvise: %s out of the race: %s", r.g.logPrefix(), label(sc), why)
}

// dropViolated takes out every unprotected candidate with a trial whose
// audit found what the experiment does not expect: with audit: true,
// "audited clean" is a constraint the search never trades away.
func (r race) dropViolated(recs map[string][]results.Record) {
	for _, sc := range r.inRace() {
		if r.protect[sc.ID] {
			continue
		}
		if v := summary.Violations(recs[sc.ID])[sc.ID]; v.Trials > 0 {
			r.takeOut(sc, fmt.Sprintf("its audit was not clean in %d of %d trials (first: trial %d)", v.Trials, v.Audited, v.First))
		}
	}
}

// dropStale takes out, when a run is resumed, every unprotected candidate
// with fewer trials than the most any candidate has, less one (a round the
// interruption cut short): the race took it out before, and its take-out
// is not saved, so it would come back with its later trials paired by
// round against other candidates' earlier ones.
func (r race) dropStale(recs map[string][]results.Record) {
	most := 0
	for _, rs := range recs {
		most = max(most, len(rs))
	}
	for _, sc := range r.inRace() {
		if n := len(recs[sc.ID]); !r.protect[sc.ID] && n < most-1 {
			r.takeOut(sc, fmt.Sprintf("it left the race before the run was resumed (%d trials, against %d)", n, most))
		}
	}
}

// scenario is the group's scenario with id.
func (r race) scenario(id string) expfile.Scenario {
	for _, sc := range r.g.scs {
		if sc.ID == id {
			return sc
		}
	}
	return expfile.Scenario{ID: id}
}

// advicePlan is the advise section as plan.json saves it: the objective,
// the references, the space and every candidate's settings.
func advicePlan(e *expfile.Experiment, scs []expfile.Scenario) *results.AdvicePlan {
	p := &results.AdvicePlan{Objective: e.Advise.Objective, Client: e.Client, Defaults: expfile.CandidateID(expfile.DefaultsLabel),
		Current: expfile.CandidateID(expfile.DefaultsLabel), Constraints: map[string]string{}}
	for k, v := range e.Advise.Constraints {
		p.Constraints[k] = secret.Shown(k, v) // plan.json and advice.properties land in the run directory
	}
	if e.Advise.Current != nil {
		p.Current = expfile.CandidateID(expfile.CurrentLabel)
	}
	for _, ax := range e.Advise.Space {
		p.Space = append(p.Space, results.AdviceAxis{Key: ax.Key, Values: ax.Values})
	}
	for _, sc := range scs {
		p.Candidates = append(p.Candidates, results.AdviceCandidate{ScenarioID: sc.ID, Settings: sc.Settings()})
	}
	return p
}
