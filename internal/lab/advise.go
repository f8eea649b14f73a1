package lab

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/secret"
	"github.com/prodlab/prodlab/internal/spec"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// advisor is the advise: section's schedule: a capacity search over the
// candidate scenarios (each a point of the search space, the user's
// current settings, the client's defaults) that races them. After each
// round it takes out of the race every candidate the verdict engine
// decides slower than the leader (the highest bracketed sustainable
// rate), and, when the budget cannot give every candidate still in the
// race the probes a verdict needs, the lower half by rank (successive
// halving). The current settings and the defaults never leave: the pick
// is judged against them. The search ends as a capacity search does,
// once every candidate still in the race is known within the precision,
// or on the budget.
type advisor struct {
	*capacitySearch
	// protect are the scenarios never taken out: current and defaults.
	protect map[string]bool
	margin  float64
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
func newAdvisor(e *spec.Experiment, s *capacitySearch) *advisor {
	a := &advisor{capacitySearch: s, margin: e.Equivalence,
		protect: map[string]bool{spec.CandidateID(spec.CurrentLabel): true, spec.CandidateID(spec.DefaultsLabel): true}}
	free := 0
	for _, sc := range s.g.scs {
		if !a.protect[sc.ID] {
			free++
		}
	}
	a.level = raceLevel(stats.DefaultConfidence, free)
	a.race()
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
	a.race()
	a.capacitySearch.endRound()
}

// race applies the verdict rule, then successive halving.
func (a *advisor) race() {
	a.dropDecided()
	a.halve()
}

// inRace lists the scenarios still in the race, in the search's order.
func (a *advisor) inRace() []spec.Scenario {
	var out []spec.Scenario
	for _, sc := range a.g.scs {
		if a.out[sc.ID] == "" {
			out = append(out, sc)
		}
	}
	return out
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

// dropDecided takes out every unprotected candidate decided slower than
// the leader by more than the equivalence margin (the interval's top
// below −margin) at the race's level, or whose probes all failed below
// the leader's interval; nothing is judged until the leader is known
// within raceLeaderPrecision × capacity.precision.
func (a *advisor) dropDecided() {
	lid, lt, ok := a.leader()
	if !ok || !summary.CapacityMet(lt, raceLeaderPrecision*a.c.Precision) {
		return
	}
	o := stats.Options{Level: a.level, Margin: a.margin, Dir: stats.HigherIsBetter, MinPairs: raceMinProbes}
	for _, sc := range a.inRace() {
		if sc.ID == lid || a.protect[sc.ID] {
			continue
		}
		t := a.threshold(sc.ID)
		if t.Edge == stats.EdgeBelow && t.Probes >= raceMinProbes && t.Hi < lt.Lo {
			a.takeOut(sc, fmt.Sprintf("no probe passed; its rate lies under %s msg/s, below the leader's interval", textfmt.Group(t.Hi, 0)))
			continue
		}
		if v := stats.CompareThresholds(lt, t, o); v.Kind == stats.KindSlower && v.Hi < -a.margin {
			a.takeOut(sc, "against the leader "+label(a.byID(lid))+": "+v.Text)
		}
	}
}

// halve keeps the better half of the unprotected candidates in the race
// when the rest of the budget cannot give each of them halvingProbes more
// probes at the pace of the rounds so far. Candidates rank by their
// bracketed estimate, else by their ceiling (a sustainable rate does not
// exceed what the producer achieves unthrottled by much).
func (a *advisor) halve() {
	if a.round < 2 || a.spent <= 0 {
		return
	}
	racing := a.inRace()
	var free []spec.Scenario
	for _, sc := range racing {
		if !a.protect[sc.ID] {
			free = append(free, sc)
		}
	}
	if len(free) <= 2 {
		return
	}
	perProbe := a.spent.Seconds() / float64(a.probesRun())
	left := (a.budget - a.spent).Seconds()
	if left >= perProbe*float64(len(racing)*halvingProbes) {
		return
	}
	slices.SortStableFunc(free, func(x, y spec.Scenario) int { return cmp.Compare(a.score(y.ID), a.score(x.ID)) })
	keep := (len(free) + 1) / 2
	for i, sc := range free[keep:] {
		a.takeOut(sc, fmt.Sprintf("successive halving: ranked %d of %d when the budget left (%.0fs) could not give every candidate %d more probes",
			keep+i+1, len(free), left, halvingProbes))
	}
}

// score ranks a candidate for halving.
func (a *advisor) score(id string) float64 {
	t := a.threshold(id)
	if t.Edge == "" && !math.IsNaN(t.Estimate) {
		return t.Estimate
	}
	return a.probes(id).Ceiling
}

// probesRun counts the probes the search has run, ceilings included.
func (a *advisor) probesRun() int {
	n := 0
	for _, rs := range a.recs {
		n += len(rs)
	}
	return max(n, 1)
}

// takeOut ends a candidate's probes and says why in the log.
func (a *advisor) takeOut(sc spec.Scenario, why string) {
	a.out[sc.ID] = why
	a.logf("%sadvise: %s out of the race: %s", a.g.logPrefix(), label(sc), why)
}

// byID is the group's scenario with id.
func (a *advisor) byID(id string) spec.Scenario {
	for _, sc := range a.g.scs {
		if sc.ID == id {
			return sc
		}
	}
	return spec.Scenario{ID: id}
}

// advicePlan is the advise section as plan.json saves it: the objective,
// the references, the space and every candidate's settings.
func advicePlan(e *spec.Experiment, scs []spec.Scenario) *results.AdvicePlan {
	p := &results.AdvicePlan{Objective: e.Advise.Objective, Defaults: spec.CandidateID(spec.DefaultsLabel),
		Current: spec.CandidateID(spec.DefaultsLabel), Constraints: map[string]string{}}
	for k, v := range e.Advise.Constraints {
		if secret.IsKey(k) {
			v = secret.Hidden // plan.json and advice.properties land in the run directory
		}
		p.Constraints[k] = v
	}
	if e.Advise.Current != nil {
		p.Current = spec.CandidateID(spec.CurrentLabel)
	}
	for _, ax := range e.Advise.Space {
		p.Space = append(p.Space, results.AdviceAxis{Key: ax.Key, Values: ax.Values})
	}
	for _, sc := range scs {
		p.Candidates = append(p.Candidates, results.AdviceCandidate{ScenarioID: sc.ID, Settings: sc.Settings()})
	}
	return p
}
