package spec

import "slices"

// MaxLives bounds lives: each life starts every cluster again and warms
// it up (a minute or two), so past 20 a run spends its time starting.
const MaxLives = 20

// ClusterLives is how many lives each cluster of the run has: lives: N,
// 1 when unset.
func (e *Experiment) ClusterLives() int { return max(1, e.Lives) }

// checkLives refuses lives: N (N > 1) where the run cannot start its
// clusters again between lives or has no rounds to split among them: a
// duet (both arms already run at once, on clusters of their own), a
// capacity or advise search (its probes climb within one cluster) and a
// Trogdor fleet (its agents keep their processes). --bootstrap, a
// cluster prodlab does not start, is refused by the run (app).
func (e *Experiment) checkLives(scs []Scenario, c *collector) {
	if e.Lives <= 1 {
		return
	}
	at := e.posOr("lives", pos{File: e.File})
	switch {
	case e.Duet():
		c.add(at.errorf("lives: %d cannot run with schedule: duet: a duet's two clusters run side by side for the whole run (drop lives, or schedule)", e.Lives))
	case e.Capacity.On || e.Advise.On:
		c.add(at.errorf("lives: %d applies to rounds, not to a capacity or advise search, whose probes climb on one cluster (drop lives)", e.Lives))
	case slices.ContainsFunc(scs, func(sc Scenario) bool { return sc.Exp.Trogdor.Coordinator != "" }):
		c.add(at.errorf("lives: %d cannot restart a Trogdor fleet's agents between lives (drop lives, or trogdor)", e.Lives))
	}
}
