package lab

import (
	"context"
	"fmt"
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
)

// clusterGroup is a run of scenarios that share one cluster shape.
type clusterGroup struct {
	brokers int
	kafka   string
	// cluster is the whole cluster setting the group's scenarios share
	// (controllers, broker configs, security, …).
	cluster expfile.Cluster
	// n numbers the group (1, 2, …) to give each cluster its own directory.
	n   int
	scs []expfile.Scenario
	// prefix names the group in log lines when several clusters alternate.
	prefix string
	// measured is the group's measured schedule (newMeasured).
	measured scheduler
	// ownDrivers gives the group's cluster drivers of its own instead of
	// the run's shared ones: a duet arm's Java worker runs on its arm's
	// CPUs, beside the other arm's.
	ownDrivers bool
	// logf, when set, is the log of the group's target instead of the
	// runner's (a duet's, which orders its arms' lines).
	logf func(format string, args ...any)
}

// logPrefix starts a log line about the group ("" when only one cluster
// runs at a time).
func (g *clusterGroup) logPrefix() string { return g.prefix }

// groupByCluster keeps scenario order within a group and orders groups by
// first appearance, so each cluster is started once. Scenarios share a
// cluster only when every cluster setting is equal (expfile.Cluster.Key):
// brokers, controllers, release, security and broker configs.
func groupByCluster(scs []expfile.Scenario) []*clusterGroup {
	var gs []*clusterGroup
	idx := map[string]*clusterGroup{}
	for _, sc := range scs {
		k := sc.Exp.Cluster.Key()
		g, ok := idx[k]
		if !ok {
			g = &clusterGroup{brokers: sc.Exp.Cluster.Brokers, kafka: sc.Exp.Cluster.Kafka, cluster: sc.Exp.Cluster, n: len(gs) + 1}
			idx[k] = g
			gs = append(gs, g)
		}
		g.scs = append(g.scs, sc)
	}
	return gs
}

// runGroups gives each group its measured schedule, leaves out the groups
// a resumed run finished, and runs the rest: alternating between their
// clusters when they can (alternate.go), else one cluster after another.
func (r *runner) runGroups(ctx context.Context, gs []*clusterGroup) {
	var todo []*clusterGroup
	for _, g := range gs {
		g.measured = r.newMeasured(g)
		if g.measured.finished() {
			r.logf("resume: every measured trial of %s was run before", label(g.scs[0]))
			continue
		}
		todo = append(todo, g)
	}
	if r.alternates(todo) {
		r.runAlternating(ctx, todo)
		return
	}
	r.runLives(ctx, todo)
}

// newMeasured is g's measured schedule, the run mode's (labMode.measured).
func (r *runner) newMeasured(g *clusterGroup) scheduler {
	skip := r.alreadyRun
	if len(r.finishedBefore) == 0 {
		skip = nil
	}
	return modeOf(r.exp).measured(r, g, skip)
}

// steadyRounds is a group's steady rounds: trials: N rounds, or under
// trials: auto or lives: auto rounds until precise.
func (r *runner) steadyRounds(g *clusterGroup, skip func(expfile.Scenario, int) bool) scheduler {
	if r.exp.LivesAuto { // one schedule over every life, judged over them
		u := newUntilPrecise(r.exp, g, r.cmps, r.nScenarios, r.prev)
		u.skip, u.logf, u.focus, u.minLives = skip, r.logf, true, expfile.MinAutoLives
		return u
	}
	if !r.exp.TrialsAuto {
		return &fixedRounds{scs: g.scs, rounds: r.exp.Trials, skip: skip}
	}
	// Each life gets its share of the group's budget.
	u := newUntilPrecise(r.exp, g, r.cmps, r.nScenarios*r.exp.ClusterLives(), r.prev)
	u.skip, u.logf, u.focus = skip, r.logf, true
	return u
}

// runGroup starts the group's cluster, warms it and runs its measured
// rounds, under the target's supervision: a cluster lost to unexpected
// broker exits stops the group's life. life numbers the cluster's start
// (lives.go), written into every record.
func (r *runner) runGroup(ctx context.Context, g *clusterGroup, life int) {
	s, ok := r.startSession(ctx, g, life)
	if !ok {
		return
	}
	defer r.endSession(s)
	s.warmed = r.warmUp(s)
	r.runSchedule(s, r.lifeSchedule(g))
	r.noteLost(ctx, s)
}

// startSession starts g's cluster and puts it under supervision: a broker
// that exits unexpectedly fails its trial; the target brings it back once,
// and the second time gives the cluster up, which ends the session's
// context (watch.go). When the cluster does not start, every scenario of g
// is recorded failed with the reason (nothing, when the user interrupted
// the start) and ok is false.
func (r *runner) startSession(ctx context.Context, g *clusterGroup, life int) (s *session, ok bool) {
	tgt, err := r.startCluster(ctx, g)
	if err != nil && ctx.Err() != nil {
		// The user stopped the start: no trial failed, and the brokers'
		// logs (which the start error quotes) would only bury that.
		r.logf("interrupted while the cluster started")
		return nil, false
	}
	if err != nil {
		r.logf("cluster failed: %v", err)
		for _, sc := range g.scs {
			rec := r.x.failedRecord(sc, 0, "", fmt.Errorf("cluster: %w", err))
			rec.Life = life
			r.publishUnrun(sc, rec, "FAILED: cluster did not start")
		}
		return nil, false
	}
	gctx, stop := tgt.Supervise(ctx)
	return &session{g: g, tgt: tgt, adm: tgt.Admin(), ctx: gctx, stop: stop, life: life}, true
}

// publishUnrun publishes the record of a trial of sc that never ran.
func (r *runner) publishUnrun(sc expfile.Scenario, rec results.Record, status string) {
	r.ev.publish(Event{Kind: TrialStarted, Scenario: label(sc)})
	r.ev.publish(Event{Kind: TrialFinished, Scenario: label(sc), Record: &rec, Status: status})
}

// endSession ends the supervision and stops the session's cluster.
func (r *runner) endSession(s *session) {
	s.stop()
	if err := s.tgt.Close(); err != nil {
		r.logf("stop cluster: %v", err)
	}
}

// noteLost records s's scenarios as not run when its cluster was lost.
func (r *runner) noteLost(ctx context.Context, s *session) {
	if lost := s.tgt.Lost(); lost != nil && ctx.Err() == nil {
		r.recordNotRun(s, lost)
	}
}

// warmUp runs s's warm-up (see warm).
func (r *runner) warmUp(s *session) *results.Warmed {
	return r.warm(s.g.scs, func(sch scheduler) { r.runSchedule(s, sch) })
}

// warm runs the warm-up of scs with run, to its end, and returns what
// happened, for the measured records (nil: no warm-up).
func (r *runner) warm(scs []expfile.Scenario, run func(scheduler)) *results.Warmed {
	w := r.newWarming(scs, "")
	if w == nil {
		return nil
	}
	t0 := time.Now()
	run(w.sch)
	w.spent = time.Since(t0)
	return w.outcome(r.logf)
}
