package lab

import (
	"context"
	"fmt"
	"time"
)

// lives: auto adds lives until every comparison is precise over them: in
// each life a cluster runs expfile.RoundsPerLife rounds of its one schedule
// (untilPrecise, which spans the lives and judges over them once they
// are expfile.MinAutoLives), and a cluster whose questions are answered, or
// whose budget cannot fit another life, sits out the lives left. Its
// budget holds each life's start and warm-up as well as the rounds, so
// that the run ends near its budget however many lives it takes.

// lifeRounds hands out at most left rounds of a cluster's schedule: its
// share of one life under lives: auto.
type lifeRounds struct {
	scheduler
	left int
}

func (l *lifeRounds) next() ([]trialSpec, bool) {
	if l.left <= 0 {
		return nil, false
	}
	l.left--
	return l.scheduler.next()
}

// lifeSchedule is what g runs in one life: its measured schedule, or
// under lives: auto one life's rounds of it, judged at the life's end.
func (r *runner) lifeSchedule(g *clusterGroup) scheduler {
	if !r.exp.LivesAuto {
		return g.measured
	}
	u, n := g.measured.(*untilPrecise), r.exp.RoundsPerLife()
	u.lifeEnd = u.round + n
	return &lifeRounds{scheduler: u, left: n}
}

// autoLife is what lives: auto knows of a cluster's last life: how long
// it took from the cluster's start to its last round, and how many rounds
// it ran.
type autoLife struct {
	took   time.Duration
	rounds int
}

// runAutoLife runs g's life under lives: auto and charges the cluster's
// start and warm-up to g's budget (its rounds charge themselves).
func (r *runner) runAutoLife(ctx context.Context, g *clusterGroup, life int) autoLife {
	u := g.measured.(*untilPrecise)
	spent, rounds, start := u.spent, u.round, time.Now()
	r.runGroup(ctx, g, life)
	took := time.Since(start)
	if outside := took - (u.spent - spent); outside > 0 {
		u.spent += outside
	}
	return autoLife{took: took, rounds: u.round - rounds}
}

// openLives is the groups of todo that take another life under lives:
// auto, after lives lives: those whose questions are still open, whose
// last life ran rounds, and whose budget left fits a life as long as the
// last. It says why each other one stops.
func (r *runner) openLives(todo []*clusterGroup, last map[*clusterGroup]autoLife, lives int) []*clusterGroup {
	var open []*clusterGroup
	for _, g := range todo {
		u := g.measured.(*untilPrecise)
		name := fmt.Sprintf("cluster %d (%s)", g.n, label(g.scs[0]))
		switch l := last[g]; {
		case u.done:
			// untilPrecise said why: precision reached, or budget spent.
		case l.rounds == 0:
			r.logf("%s ran no rounds in life %d: no more lives for it", name, lives)
		case u.budget-u.spent < l.took:
			r.logf("%s: %s of its budget left cannot fit another life (the last took %s) after %d lives: widest interval %s, target ±%.1f %% not reached",
				name, (u.budget - u.spent).Round(time.Second), l.took.Round(time.Second), lives, u.widest(), r.exp.Precision*100)
		default:
			open = append(open, g)
		}
	}
	if len(open) == 0 {
		r.logf("lives: auto: done after %d lives", lives)
	}
	return open
}
