package expfile

import (
	"slices"
	"strconv"

	"github.com/prodlab/prodlab/internal/stats"
)

// MaxLives bounds lives: each life starts every cluster again and warms
// it up (a minute or two), so past 20 a run spends its time starting.
const MaxLives = 20

// MinAutoLives is the fewest lives after which lives: auto may stop: an
// interval over lives rests on their SD, and stopping once it looks
// narrow covers the truth 91–93 % of the time when 3 lives may stop, 93–
// 95 % from 5 (stats.TestLivesStopCoverage).
const MinAutoLives = 5

// ClusterLives is how many lives each cluster of the run has at most:
// lives: N, MaxLives under lives: auto, 1 when unset.
func (e *Experiment) ClusterLives() int {
	if e.LivesAuto {
		return MaxLives
	}
	return max(1, e.Lives)
}

// LivesText is the lives setting as written: "3", "auto".
func (e *Experiment) LivesText() string {
	if e.LivesAuto {
		return autoWord
	}
	return strconv.Itoa(e.ClusterLives())
}

// RoundsPerLife is how many rounds each life of lives: auto runs: trials:
// N, or under trials: auto the stopping rule's fewest pairs, 8 — within
// the 7–10 that narrow the interval over lives fastest for their cost on
// the idempotence pair, where a life's start and warm-up cost five or six
// rounds and lives differ by about a third of a round's spread (Kalibera
// and Jones; bench/RESULTS.md §32).
func (e *Experiment) RoundsPerLife() int {
	if e.TrialsAuto {
		return stats.DefaultMinPairs
	}
	return e.Trials
}

// checkLives refuses lives: N (N > 1) and lives: auto where the run
// cannot start its clusters again between lives or has no rounds to split
// among them: a duet (both arms already run at once, on clusters of their
// own), a capacity or advise search (its probes climb within one cluster)
// and a Trogdor fleet (its agents keep their processes). --bootstrap, a
// cluster prodlab does not start, is refused by the run (app).
func (e *Experiment) checkLives(scs []Scenario, c *collector) {
	if e.ClusterLives() <= 1 {
		return
	}
	at := e.posOr("lives", pos{File: e.File})
	lives := e.LivesText()
	if why := e.Mode().livesRefusal(lives); why != "" {
		c.add(at.errorf("%s", why))
		return
	}
	if slices.ContainsFunc(scs, func(sc Scenario) bool { return sc.Exp.Trogdor.Coordinator != "" }) {
		c.add(at.errorf("lives: %s cannot restart a Trogdor fleet's agents between lives (drop lives, or trogdor)", lives))
	}
}
