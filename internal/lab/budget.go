package lab

import (
	"time"
)

// A run's budget is split between its cluster groups by their number of
// scenarios. A group that is done early (its comparisons precise) leaves
// the rest of its share to the groups still running, in proportion to
// their scenarios, so that the run's budget goes to the questions still
// open instead of ending unspent.

// budgetShare is a measured schedule that spends a share of the run's
// budget (roundClock's embedders).
type budgetShare interface {
	// leftover is the share a schedule that is done did not spend; 0
	// while it runs.
	leftover() time.Duration
	// grant adds d to the schedule's share.
	grant(d time.Duration)
}

func (c *roundClock) leftover() time.Duration {
	if !c.done || c.spent >= c.budget {
		return 0
	}
	return c.budget - c.spent
}

func (c *roundClock) grant(d time.Duration) { c.budget += d }

// passOn hands what done's schedule left of its share to the groups of
// rest still running, in proportion to their scenarios, and says so.
// Schedules without a budget (trials: N) neither leave nor take any.
func (r *runner) passOn(done *clusterGroup, rest []*clusterGroup) {
	from, ok := done.measured.(budgetShare)
	if !ok {
		return
	}
	left := from.leftover()
	if left < time.Second {
		return
	}
	var takers []*clusterGroup
	n := 0
	for _, g := range rest {
		if g != done && g.measured != nil {
			if _, ok := g.measured.(budgetShare); ok {
				takers = append(takers, g)
				n += len(g.scs)
			}
		}
	}
	if n == 0 {
		return
	}
	for _, g := range takers {
		g.measured.(budgetShare).grant(left * time.Duration(len(g.scs)) / time.Duration(n))
	}
	from.grant(-left)
	r.logf("%sdone %s early: the rest of its budget goes to the %d other cluster(s) still running", done.logPrefix(), left.Round(time.Second), len(takers))
}
