package lab

import (
	"context"
	"fmt"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/results"
)

// Scenarios that need different clusters (brokers, release, broker
// settings, security) are compared like any others only if drift between
// the clusters' turns cannot favour one: so when their rounds repeat and
// every cluster fits in memory at once, the run keeps all the clusters up
// and alternates between them round by round (cluster order reversed every
// other round, as scenarios are within a cluster). Otherwise each cluster
// runs all its rounds in turn, as it must when they do not fit.

// live is one group's running cluster while clusters alternate.
type live struct {
	g      *clusterGroup
	tgt    *Target
	adm    *cluster.Admin
	ctx    context.Context
	stop   func()
	warmed *results.Warmed
	m      *measuring
}

// alternates reports whether the groups' rounds alternate between
// clusters kept up together: more than one embedded cluster, rounds that
// repeat, and room in memory for every node at full heap.
func (r *runner) alternates(gs []*clusterGroup) bool {
	if len(gs) < 2 || len(r.opts.Bootstrap) > 0 || (!r.exp.TrialsAuto && r.exp.Trials < 2) {
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

// runAlternating starts every group's cluster, warms each, then runs
// measured rounds across the clusters in alternating order until every
// group is done (see measureRound).
func (r *runner) runAlternating(ctx context.Context, gs []*clusterGroup) {
	var lives []*live
	defer func() {
		for _, l := range lives {
			l.stop()
			r.closeTarget(l.tgt)
		}
	}()
	for i, g := range gs {
		if ctx.Err() != nil {
			return
		}
		g.prefix = fmt.Sprintf("cluster %d of %d: ", i+1, len(gs))
		tgt, ok := r.startGroup(ctx, g)
		if !ok {
			continue
		}
		gctx, stop := tgt.Supervise(ctx)
		lives = append(lives, &live{g: g, tgt: tgt, adm: tgt.Admin(), ctx: gctx, stop: stop})
	}
	r.logf("%d clusters up: rounds alternate between them", len(lives))
	for _, l := range lives {
		l.warmed = r.warmUp(l.ctx, l.adm, l.tgt, l.g)
		l.m = r.newMeasuring(l.g)
	}
	for round := 0; ctx.Err() == nil; round++ {
		pending := false
		for _, l := range order(lives, round) {
			if l.m.done || l.ctx.Err() != nil {
				continue
			}
			r.warmed = l.warmed
			r.measureRound(l.ctx, l.adm, l.tgt, l.g, l.m, round)
			pending = pending || !l.m.done
		}
		if !pending {
			break
		}
	}
	for _, l := range lives {
		r.noteLost(ctx, l.g, l.tgt)
	}
}
