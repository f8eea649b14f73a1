package lab

// A cluster's turn is the rounds it runs before another cluster's. The
// first trial of a turn can run slow (about 10 % on a 1-broker cluster on
// disk, bench/RESULTS.md §27), so the scenario that opens a cluster's turns
// must alternate, or that loss falls on one arm of a comparison. Rotating
// three or more clusters gives turns of one round whose order alternates
// anyway; two clusters reverse (A B, B A) and so take turns of two rounds,
// whose opening scenario would be the same every time.

// turns keeps the scenario that opens each cluster's turns alternating:
// where a turn would open with the scenario that opened the cluster's
// previous turn, it runs all that turn's rounds reversed. Within a turn
// the rounds still alternate, so each scenario keeps each place equally
// often.
type turns struct {
	last   *session            // the session whose turn it is
	flip   bool                // whether that turn runs its rounds reversed
	opened map[*session]string // the scenario that opened each session's last turn
}

func newTurns() *turns {
	return &turns{opened: map[*session]string{}}
}

// of is sch as s runs it among the other sessions' turns.
func (k *turns) of(s *session, sch scheduler) scheduler {
	return turnScheduler{scheduler: sch, k: k, s: s}
}

// arrange is the order in which s runs round, its scheduler's next.
func (k *turns) arrange(s *session, round []trialSpec) []trialSpec {
	if len(round) == 0 {
		return round
	}
	newTurn := s != k.last
	if newTurn {
		k.last = s
		k.flip = len(round) > 1 && label(round[0].sc) == k.opened[s]
	}
	if k.flip {
		round = reversed(round)
	}
	if newTurn {
		k.opened[s] = label(round[0].sc)
	}
	return round
}

// turnScheduler is a session's scheduler with its rounds arranged by turns.
type turnScheduler struct {
	scheduler
	k *turns
	s *session
}

func (t turnScheduler) next() ([]trialSpec, bool) {
	round, ok := t.scheduler.next()
	return t.k.arrange(t.s, round), ok
}
