package lab

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/prodlab/prodlab/internal/driver"
)

// A life is one start of the run's clusters and of the client workers
// that drive them. Rounds within a life share whatever that start settled
// into — the JIT's choices in the broker and Java client JVMs, their
// heaps, where the page cache sits — and a small difference between two
// arms can move by more from one life to the next than a life's own
// rounds show (bench/RESULTS.md §30: about ±2 % on the 1-broker
// idempotence pair). lives: N runs the clusters N times over: in each
// life every cluster in turn, with its warm-up and its rounds (trials: N
// rounds, or 1/N of its budget share under trials: auto); every record
// names its life, and the report judges each comparison over the lives
// (stats.ComparePairedLives). Lives run outermost so that clusters that
// are compared with each other are measured in every life, not one's
// lives all before the other's.

// runLives runs the groups' lives: in each, every group in turn (a group
// done early leaving the rest of its share to those after it, passOn).
// The first life uses the schedules runGroups gave the groups; each later
// one new client workers and, for every group, a new schedule with what
// the group's schedule of the life before left unspent.
//
// Under lives: auto each group keeps one schedule over its lives, and
// only the groups whose questions are still open (openLives) start
// again.
func (r *runner) runLives(ctx context.Context, todo []*clusterGroup) {
	n := r.exp.ClusterLives()
	last := map[*clusterGroup]autoLife{}
	for life := range n {
		if life > 0 {
			if r.exp.LivesAuto {
				if todo = r.openLives(todo, last, life); len(todo) == 0 {
					return
				}
			}
			r.restartWorkers()
			r.logf("life %d of %s: starting the clusters and their clients again", life+1, r.livesOf(n))
			if !r.exp.LivesAuto {
				r.renewSchedules(todo)
			}
		}
		for i, g := range todo {
			if ctx.Err() != nil {
				return
			}
			if r.exp.LivesAuto {
				last[g] = r.runAutoLife(ctx, g, life)
			} else {
				r.runGroup(ctx, g, life)
			}
			r.passOn(g, todo[i+1:])
		}
	}
	if r.exp.LivesAuto && ctx.Err() == nil && slices.ContainsFunc(todo, func(g *clusterGroup) bool { return !g.measured.(*untilPrecise).done }) {
		r.logf("lives: auto: stopped at %d lives, the most it runs: the verdicts say how many more lives they need", n)
	}
}

// livesOf writes how many lives the run has: "3", or "at most 20" under
// lives: auto.
func (r *runner) livesOf(n int) string {
	if r.exp.LivesAuto {
		return fmt.Sprintf("at most %d", n)
	}
	return strconv.Itoa(n)
}

// renewSchedules gives each group of todo a new schedule for its next
// life, with what its schedule of the life before left unspent.
func (r *runner) renewSchedules(todo []*clusterGroup) {
	for _, g := range todo {
		left := leftoverOf(g.measured)
		g.measured = r.newMeasured(g)
		if b, ok := g.measured.(budgetShare); ok && left > 0 {
			b.grant(left)
		}
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
