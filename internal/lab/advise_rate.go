package lab

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// An advisor race at a fixed rate: rounds of every candidate until the
// pick is precise (rateAdvisor). cpu.brokers reads the brokers' CPU,
// which only an embedded cluster's are prodlab's to read.
func init() {
	registerMode("advise-rate", labMode{measured: (*runner).adviseRateRounds,
		plan: func(p *results.Plan, e *expfile.Experiment, scs []expfile.Scenario) {
			p.Advise = advicePlan(e, scs)
			p.Advise.RecordsPerS, p.Advise.SLO, p.Advise.KeepUp = e.Workload.Rate, e.Capacity.SLO, e.Capacity.KeepUp
		},
		external: func(sc expfile.Scenario) string {
			if sc.Exp.Advise.Objective == "cpu.brokers" {
				return "advise.objective cpu.brokers needs an embedded cluster: prodlab cannot read an existing cluster's brokers' CPU (drop --bootstrap, or use cpu.client)"
			}
			return ""
		}})
}

// adviseRateRounds is g's advisor race at the rate: rounds until precise
// over the candidates' comparisons with the current settings.
func (r *runner) adviseRateRounds(g *clusterGroup, skip func(expfile.Scenario, int) bool) scheduler {
	u := newUntilPrecise(r.exp, g, adviseComparisons(r.exp, g.scs), r.nScenarios, r.prev)
	u.skip, u.logf = skip, r.logf
	return newRateAdvisor(r.exp, u)
}

// rateAdvisor is the advise: section's schedule for a rate objective
// (cpu.total, p99.intended, … at workload.rate): rounds of every candidate
// still in the race, until the comparisons of each against the current
// settings (the defaults when none were given) on the objective are known
// within the precision, or the budget is spent — trials: auto over the
// common executor. After each round it takes out of the race every
// candidate that did not hold the load in most of its trials
// (summary.Holding), every candidate decided worse than the leader (the
// lowest mean objective among those that hold) by more than the margin,
// and, when the budget cannot give every candidate still racing the rounds
// a verdict needs, the lower half (successive halving). The current
// settings and the defaults never leave: the pick is judged against them.
type rateAdvisor struct {
	*untilPrecise
	race
	metric summary.Metric
	margin float64
	// level is the race's Bonferroni-corrected confidence level
	// (raceLevel).
	level float64
}

// adviseComparisons are the rate advisor's comparisons: the reference
// against every other candidate, on the objective.
func adviseComparisons(e *expfile.Experiment, scs []expfile.Scenario) []expfile.Comparison {
	ref := expfile.CandidateID(expfile.DefaultsLabel)
	if e.Advise.Current != nil {
		ref = expfile.CandidateID(expfile.CurrentLabel)
	}
	var out []expfile.Comparison
	for _, sc := range scs {
		if sc.ID != ref {
			out = append(out, expfile.Comparison{Baseline: ref, Candidate: sc.ID, Metric: e.Advise.Objective,
				Question: "the candidate against the reference on " + e.Advise.Objective})
		}
	}
	return out
}

// newRateAdvisor races the candidates of u, whose comparisons are
// adviseComparisons (a resumed run's trials included).
func newRateAdvisor(e *expfile.Experiment, u *untilPrecise) *rateAdvisor {
	m, _ := summary.MetricByKey(e.Advise.Objective)
	a := &rateAdvisor{untilPrecise: u, metric: m, margin: e.Equivalence, race: newRace(u.g, u.out, u.logf)}
	a.level = raceLevel(stats.DefaultConfidence, a.free())
	a.resumed = trialCount(u.recs)
	a.dropStale(u.recs)
	a.judge()
	a.update()
	return a
}

// endRound takes candidates out of the race, then judges the round as
// trials: auto does.
func (a *rateAdvisor) endRound() {
	a.judge()
	a.update() // the stopping rule leaves out who was just taken out
	a.untilPrecise.endRound()
}

// judge takes out the candidates whose audit was not clean, those that do
// not hold the load, those decided worse than the leader, then applies
// successive halving.
func (a *rateAdvisor) judge() {
	a.dropViolated(a.recs)
	held := a.holding()
	for _, sc := range a.inRace() {
		h := held[sc.ID]
		if !a.protect[sc.ID] && h.Fails() >= 3 && 2*h.Fails() > h.Trials {
			a.takeOut(sc, fmt.Sprintf("did not hold the load in %d of %d trials (%s)", h.Fails(), h.Trials, a.lastMiss(sc.ID)))
		}
	}
	a.dropDecided(held)
	drop, keep, left := halving(a.inRace(), a.protect, a.round, a.spentSoFar(), a.budget, trialCount(a.recs)-a.resumed,
		func(x, y expfile.Scenario) int { return cmp.Compare(a.score(x.ID, held), a.score(y.ID, held)) })
	for i, sc := range drop {
		a.takeOut(sc, halvingWhy(keep+i+1, keep+len(drop), left, "trials"))
	}
}

// holding tallies the race's trials that held the load.
func (a *rateAdvisor) holding() map[string]summary.Held {
	var all []results.Record
	for _, rs := range a.recs {
		all = append(all, rs...)
	}
	return summary.Holding(all, a.e.Capacity.SLO, a.e.Capacity.KeepUp)
}

// lastMiss is why scenario id's latest trial that missed did not hold.
func (a *rateAdvisor) lastMiss(id string) string {
	rs := a.recs[id]
	for i := len(rs) - 1; i >= 0; i-- {
		if why := summary.HoldMisses(&rs[i], a.e.Capacity.SLO, a.e.Capacity.KeepUp); len(why) > 0 {
			return strings.Join(why, "; ")
		}
	}
	return ""
}

// leader is the candidate in the race that holds the load with the lowest
// mean objective on at least raceMinProbes trials; ok is false while none
// does.
func (a *rateAdvisor) leader(held map[string]summary.Held) (id string, s *summary.ScenarioStats, ok bool) {
	best := math.Inf(1)
	for _, sc := range a.inRace() {
		st := a.byID[sc.ID]
		if st == nil || !held[sc.ID].Holds() || len(a.metric.Values(st)) < raceMinProbes {
			continue
		}
		if m := a.metric.Summary(st).Mean; m < best {
			id, s, ok, best = sc.ID, st, true, m
		}
	}
	return id, s, ok
}

// dropDecided takes out every unprotected candidate decided worse than the
// leader by more than the margin (the interval's bottom above +margin),
// paired by round at the race's level; nothing is judged until the
// leader's own mean is known within raceLeaderPrecision × the precision.
func (a *rateAdvisor) dropDecided(held map[string]summary.Held) {
	lid, ls, ok := a.leader(held)
	if !ok {
		return
	}
	if sum := a.metric.Summary(ls); !(sum.Err/sum.Mean <= raceLeaderPrecision*a.e.Precision) {
		return
	}
	o := stats.Options{Level: a.level, Margin: a.margin, MinPairs: raceMinProbes}
	for _, sc := range a.inRace() {
		st := a.byID[sc.ID]
		if sc.ID == lid || a.protect[sc.ID] || st == nil {
			continue
		}
		if v := summary.Judge(ls, st, a.metric, true, o); v.Kind == stats.KindHigher && v.Lo > a.margin {
			a.takeOut(sc, "against the leader "+label(a.scenario(lid))+": "+v.Text)
		}
	}
}

// score ranks a candidate for halving: its mean objective, +Inf before it
// has one or when it has not held the load in most of its trials (one that
// falls behind may spend less CPU per MB for sending less, and must not
// outrank those that hold).
func (a *rateAdvisor) score(id string, held map[string]summary.Held) float64 {
	if h := held[id]; h.Trials > 0 && !h.Holds() {
		return math.Inf(1)
	}
	if st := a.byID[id]; st != nil {
		if m := a.metric.Summary(st).Mean; !math.IsNaN(m) {
			return m
		}
	}
	return math.Inf(1)
}
