package lab

import (
	"context"
	"fmt"

	"github.com/prodlab/prodlab/internal/cluster"
)

// Scenarios that need different clusters (brokers, release, broker
// settings, security) are compared like any others only if drift between
// the clusters' turns cannot favour one: so when their rounds repeat, a
// comparison sets one cluster against another and every cluster fits in
// memory at once, the run keeps all the clusters up and alternates
// between them round by round (clusterOrder). Otherwise each cluster runs
// all its rounds in turn, as it must when they do not fit.

// alternates reports whether the groups' rounds alternate between
// clusters kept up together: more than one embedded cluster, rounds that
// repeat, a comparison across clusters, and room in memory for every
// node at full heap.
func (r *runner) alternates(gs []*clusterGroup) bool {
	if len(gs) < 2 || len(r.opts.Bootstrap) > 0 || (!r.exp.TrialsAuto && !r.exp.Mode().Searches() && r.exp.Trials < 2) {
		return false
	}
	if r.exp.ClusterLives() > 1 {
		r.logf("lives: %s: each of the %d clusters runs its lives in turn, one start after another", r.exp.LivesText(), len(gs))
		return false
	}
	if r.withinClusters(gs) {
		r.logf("every comparison is between scenarios of one cluster: each of the %d clusters runs all its rounds in turn (alternating would balance drift between clusters, which no comparison here crosses)", len(gs))
		return false
	}
	nodes := 0
	for _, g := range gs {
		nodes += g.brokers + g.cluster.Controllers
	}
	if !cluster.FitTogether(nodes) {
		r.logf("%d clusters (%d Kafka nodes) do not fit in memory together: each runs all its rounds in turn, so drift between them is not balanced", len(gs), nodes)
		return false
	}
	return true
}

// withinClusters reports whether every planned comparison sets scenarios
// of one group against each other, so that alternating between the
// groups balances nothing a verdict uses, while the idle clusters disturb
// the one measured: in turn, idempotence's 1-broker pair spread its rounds
// about half as wide as alternating (bench/RESULTS.md §29).
// Without comparisons the summary's rows are read side by side, and
// capacity searches and the advisor compare across clusters of their
// own: those keep alternating.
func (r *runner) withinClusters(gs []*clusterGroup) bool {
	if len(r.cmps) == 0 || r.exp.Mode().Searches() {
		return false
	}
	of := map[string]*clusterGroup{}
	for _, g := range gs {
		for _, sc := range g.scs {
			of[sc.ID] = g
		}
	}
	for _, c := range r.cmps {
		if of[c.Baseline] != of[c.Candidate] {
			return false
		}
	}
	return true
}

// runAlternating starts every group's session, warms them, then runs one
// measured round of each group's schedule at a time, groups in
// alternating order, until every schedule is done.
func (r *runner) runAlternating(ctx context.Context, gs []*clusterGroup) {
	var ss []*session
	defer func() {
		for _, s := range ss {
			r.endSession(s)
		}
	}()
	for i, g := range gs {
		if ctx.Err() != nil {
			return
		}
		g.prefix = fmt.Sprintf("cluster %d of %d: ", i+1, len(gs))
		if s, ok := r.startSession(ctx, g, 0); ok {
			ss = append(ss, s)
		}
	}
	r.logf("%d clusters up: rounds alternate between them, warm-up rounds too", len(ss))
	k := newTurns()
	r.warmAlternating(ss, k)
	alternate(ss, func() bool { return ctx.Err() != nil },
		func(s *session) bool { return s.ctx.Err() == nil && r.runRound(s, k.of(s, s.g.measured)) },
		func(s *session, rest []*session) { r.passOn(s.g, groupsOf(rest)) })
	for _, s := range ss {
		r.noteLost(ctx, s)
	}
}

// warmAlternating warms the sessions' clusters as their measured rounds
// will run: one warm-up round of each at a time, in alternating order,
// each until its own warm-up ends. Warming them one after the other left
// the first cluster idle for minutes before its first measured round, and
// that round ran slow (1 broker: 206k msg/s after 3.5 idle minutes, 380k
// at the end of its warm-up; bench/RESULTS.md §26); now a cluster that is
// warm waits only while the others run their rounds, as between measured
// rounds. k keeps the turns' opening scenarios alternating from the start.
func (r *runner) warmAlternating(ss []*session, k *turns) {
	ws := map[*session]*warming{}
	for _, s := range ss {
		if w := r.newWarming(s.g.scs, s.g.prefix); w != nil {
			ws[s] = w
		}
	}
	alternate(still(ss, ws), func() bool { return false },
		func(s *session) bool {
			return s.ctx.Err() == nil && ws[s].round(func(sch scheduler) bool { return r.runRound(s, k.of(s, sch)) })
		},
		func(s *session, _ []*session) { s.warmed = ws[s].outcome(r.logf) })
}

// alternate runs the rounds of xs (clusters) in turns: one round of each
// at a time, in clusterOrder among those still running, until run reports
// each done (false) or stop says to stop. done hears of each as it
// finishes, with those still running. Rotating among those still running
// keeps one that finishes early from leaving the others two rounds back
// to back.
func alternate[T comparable](xs []T, stop func() bool, run func(T) bool, done func(x T, rest []T)) {
	left := map[T]bool{}
	for _, x := range xs {
		left[x] = true
	}
	for round := 0; !stop() && len(left) > 0; round++ {
		for _, x := range clusterOrder(still(xs, left), round) {
			if left[x] && !run(x) {
				delete(left, x)
				done(x, still(xs, left))
			}
		}
	}
}

// still are the xs that left holds, in their order.
func still[T comparable, V any](xs []T, left map[T]V) []T {
	var out []T
	for _, x := range xs {
		if _, ok := left[x]; ok {
			out = append(out, x)
		}
	}
	return out
}

// groupsOf are the sessions' groups.
func groupsOf(ss []*session) []*clusterGroup {
	gs := make([]*clusterGroup, 0, len(ss))
	for _, s := range ss {
		gs = append(gs, s.g)
	}
	return gs
}

// clusterOrder is the order of alternating clusters in round round. Three
// or more rotate (A B C, B C A, C A B): no cluster runs two rounds back to
// back, so each of its turns is one round, and the scenario that opens a
// turn alternates as its rounds' order does. Reversing them instead (A B C,
// C B A) gave the outer clusters turns of two rounds that always opened
// with the same scenario, and the first trial of a 1-broker turn runs about
// 10 % slow on disk: "off slower by 7 %" in two runs of idempotence, an
// artifact (bench/RESULTS.md §27). Rotating, each cluster still takes each
// place once in every len(xs) rounds. Two clusters keep reversing: rotating
// them is the same, and a fixed order would always run one first; their
// turns of two rounds open with alternating scenarios by turns (turns.go).
func clusterOrder[T any](xs []T, round int) []T {
	if len(xs) < 3 {
		return order(xs, round)
	}
	k := round % len(xs)
	return append(append(make([]T, 0, len(xs)), xs[k:]...), xs[:k]...)
}
