package lab

import (
	"context"
	"time"

	"github.com/prodlab/prodlab/internal/driver"
)

// A life is one start of a cluster and of the client workers that drive
// it. Rounds within a life share whatever that start settled into — the
// JIT's choices in the broker and Java client JVMs, their heaps, where the
// page cache sits — and a small difference between two arms can move by
// more from one life to the next than a life's own rounds show
// (bench/RESULTS.md §30: about ±2 % on the 1-broker idempotence pair).
// lives: N runs each cluster N times over, one life after another, each
// with its warm-up and its share of the rounds (trials: N rounds, or
// budget / N under trials: auto); every record names its life, and the
// report judges each comparison over the lives (stats.ComparePairedLives).

// runLives runs g's lives one after another. The first life uses the
// schedule runGroups gave g; each later one a new schedule, with what the
// life before it left of its budget share, new client workers and a new
// cluster.
func (r *runner) runLives(ctx context.Context, g *clusterGroup) {
	n := r.exp.ClusterLives()
	for life := range n {
		if ctx.Err() != nil {
			return
		}
		if life > 0 {
			left := leftoverOf(g.measured)
			g.measured = r.newMeasured(g)
			if b, ok := g.measured.(budgetShare); ok && left > 0 {
				b.grant(left)
			}
			r.restartWorkers()
			r.logf("%slife %d of %d: starting the cluster and its clients again", g.logPrefix(), life+1, n)
		}
		r.runGroup(ctx, g, life)
	}
}

// restartWorkers closes the run's client workers (the Java worker JVMs),
// so that the next cluster starts new ones.
func (r *runner) restartWorkers() {
	r.closeDrivers()
	r.drivers = map[string]driver.Driver{}
}

// leftoverOf is what sch, when it is done, left unspent of its budget
// share; 0 for schedules without one.
func leftoverOf(sch scheduler) time.Duration {
	if b, ok := sch.(budgetShare); ok {
		return b.leftover()
	}
	return 0
}
