package lab

import (
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
)

// scheduler decides what runs next from what was observed. Each policy of
// a run is one: fixed rounds (fixedRounds), warm until steady (warmup),
// rounds until precise (untilPrecise); running them is the executor's job
// (trial.go), and alternating clusters the runner's (alternate.go).
type scheduler interface {
	// next returns the trials of the next round; ok is false once the
	// schedule is done. A round may be empty: every trial of it finished
	// in the run being resumed.
	next() (round []trialSpec, ok bool)
	// observe takes each finished trial of the schedule before it is
	// published, and may annotate its record with what the schedule
	// knows (the precision reached).
	observe(rec *results.Record)
	// endRound tells the schedule that the round next handed out has run
	// to its end, for it to judge; a round cut short is not judged.
	endRound()
	// finished reports whether nothing is left to run before any round
	// has: a resumed run already ran it all.
	finished() bool
}

// runSchedule runs sch's rounds on s until the schedule is done or s's
// context ends.
func (r *runner) runSchedule(s *session, sch scheduler) {
	for s.ctx.Err() == nil && r.runRound(s, sch) {
	}
}

// runRound runs sch's next round on s, one trial at a time, and publishes
// each record once sch has observed it. It reports whether there was a
// round to run.
func (r *runner) runRound(s *session, sch scheduler) bool {
	round, ok := sch.next()
	if !ok {
		return false
	}
	defer func() {
		if s.ctx.Err() == nil {
			sch.endRound()
		}
	}()
	for _, t := range round {
		if s.ctx.Err() != nil {
			return true
		}
		rec, status := r.x.trial(s.ctx, s, t)
		if !t.warm {
			rec.Warmed = s.warmed
		}
		sch.observe(&rec)
		r.ev.publish(Event{Kind: TrialFinished, Scenario: label(t.sc), Trial: t.n, Warmup: t.warm, Record: &rec, Status: status})
	}
	return true
}

// order is a round's order of scenarios (or clusters): A B C on even
// rounds, C B A on odd ones, so that drift between rounds does not favour
// one of them.
func order[T any](xs []T, round int) []T {
	if round%2 == 1 {
		return reversed(xs)
	}
	return xs
}

func reversed[T any](s []T) []T {
	out := make([]T, len(s))
	for i := range s {
		out[len(s)-1-i] = s[i]
	}
	return out
}

// roundOf lists round number n of scs in alternating order, without the
// trials skip says were run before.
func roundOf(scs []expfile.Scenario, n int, warm bool, skip func(expfile.Scenario, int) bool) []trialSpec {
	out := make([]trialSpec, 0, len(scs))
	for _, sc := range order(scs, n) {
		if skip != nil && skip(sc, n) {
			continue
		}
		out = append(out, trialSpec{sc: sc, n: n, warm: warm})
	}
	return out
}

// fixedRounds is trials: N (or warmup: N): N rounds of every scenario, in
// alternating order, without the measured trials a resumed run finished.
type fixedRounds struct {
	scs           []expfile.Scenario
	rounds, round int
	warm          bool
	skip          func(expfile.Scenario, int) bool
}

func (f *fixedRounds) next() ([]trialSpec, bool) {
	if f.round >= f.rounds {
		return nil, false
	}
	f.round++
	return roundOf(f.scs, f.round-1, f.warm, f.skip), true
}

func (f *fixedRounds) observe(*results.Record) {}

func (f *fixedRounds) endRound() {}

func (f *fixedRounds) finished() bool {
	if f.skip == nil {
		return false
	}
	for n := range f.rounds {
		for _, sc := range f.scs {
			if !f.skip(sc, n) {
				return false
			}
		}
	}
	return true
}

// roundClock is a measured schedule's rounds against its budget: how many
// have run, how long they took, and whether the schedule is done. The
// schedules that stop on a budget (untilPrecise, capacitySearch) embed it.
type roundClock struct {
	budget, spent time.Duration
	round         int
	roundStart    time.Time
	done          bool
}

// startRound counts a new round and starts its clock.
func (c *roundClock) startRound() {
	c.roundStart = time.Now()
	c.round++
}

// stopRound adds the round's time to what was spent and returns it.
func (c *roundClock) stopRound() time.Duration {
	last := time.Since(c.roundStart)
	c.spent += last
	c.roundStart = time.Time{}
	return last
}

// spentSoFar is what was spent, the running round included: the pace of
// the trials run so far, the last round's among them.
func (c *roundClock) spentSoFar() time.Duration {
	if c.roundStart.IsZero() {
		return c.spent
	}
	return c.spent + time.Since(c.roundStart)
}

// overrun reports whether another round as long as last would overrun the
// budget.
func (c *roundClock) overrun(last time.Duration) bool { return c.spent+last > c.budget }
