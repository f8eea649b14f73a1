package lab

import (
	"math"
	"time"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/spec"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// warmWindow is how many of a warm-up trial's last timeline points must be
// flat (stats.Warmed) for the trial to count as warm.
const warmWindow = 5

// warmup schedules the group's unmeasured rounds under warmup: auto:
// rounds until the cluster and clients are warm, for at most warmup.max.s.
// The rule (stated in docs/architecture.md): a round is warm when its
// throughput has settled — the geometric mean over scenarios of this
// round's throughput ÷ the previous round's is within ±10 % of 1, so never
// the first round — and, for steady-state trials, every scenario's trial
// also has a flat sending window: its last warmWindow intervals pass
// stats.Warmed (no drift beyond ±10 %, no swing beyond a CV of 0.5). A
// burst's timeline is a drain, never flat, so only the first test applies.
// A flat window alone is not enough: JVMs still compiling ramp from round
// to round while each trial is flat (3 brokers, Java client: 5,800 msg/s
// in a flat first round, 75,000 a few rounds later; bench/RESULTS.md §24).
//
// warmup: N is fixedRounds.
type warmup struct {
	scs      []spec.Scenario
	byID     map[string]spec.Scenario
	t0       time.Time
	deadline time.Time
	// prev is each scenario's throughput in the last round.
	prev map[string]float64
	// open: a round was handed out and not judged yet; flat and logRatios
	// are what its trials showed so far.
	open      bool
	flat      bool
	logRatios []float64
	w         results.Warmed
	done      bool
}

// newWarmup starts the warm-up of scs, to last at most maxS seconds.
func newWarmup(scs []spec.Scenario, maxS float64) *warmup {
	byID := make(map[string]spec.Scenario, len(scs))
	for _, sc := range scs {
		byID[sc.ID] = sc
	}
	t0 := time.Now()
	return &warmup{scs: scs, byID: byID, t0: t0, deadline: t0.Add(seconds(maxS)), prev: map[string]float64{},
		w: results.Warmed{Auto: true}}
}

func (u *warmup) next() ([]trialSpec, bool) {
	if u.done {
		return nil, false
	}
	u.open, u.flat, u.logRatios = true, true, nil
	return roundOf(u.scs, u.w.Rounds, true, nil), true
}

// observe adds a warm-up trial to its round's judgement.
func (u *warmup) observe(rec *results.Record) {
	sc := u.byID[rec.ScenarioID]
	if sc.Exp.Steady() {
		u.flat = u.flat && warm(*rec, seconds(sc.Exp.Workload.DurationS))
	}
	tp := rec.Throughput.RecordsPerS
	if p := u.prev[sc.ID]; p > 0 && tp > 0 && rec.Counted() {
		u.logRatios = append(u.logRatios, math.Log(tp/p))
	} else {
		u.flat = false // no previous round to compare with, or a failure
	}
	u.prev[sc.ID] = tp
}

func (u *warmup) finished() bool { return false }

func (u *warmup) endRound() { u.closeRound() }

// closeRound judges the open round, if any: warm, or out of time, ends
// the warm-up.
func (u *warmup) closeRound() {
	if !u.open {
		return
	}
	u.open = false
	// No ratio: every trial lacked a previous round (observe said so), or
	// the round was cut short before any trial; neither is warm.
	if len(u.logRatios) == 0 || math.Abs(math.Expm1(stats.Summarize(u.logRatios, stats.DefaultConfidence).Mean)) > stats.DefaultSteady.MaxDrift {
		u.flat = false
	}
	u.w.Rounds++
	u.w.Checked, u.w.Steady = true, u.flat
	u.done = u.flat || time.Now().After(u.deadline)
}

// outcome is what the warm-up did, for the measured records; a round cut
// short by an interrupt or a lost cluster counts.
func (u *warmup) outcome() *results.Warmed {
	u.closeRound()
	w := u.w
	w.Seconds = time.Since(u.t0).Seconds()
	return &w
}

// warm reports whether a steady-state warm-up trial ended flat: the last
// warmWindow points of its sending window pass the steady-state rule.
func warm(rec results.Record, sendFor time.Duration) bool {
	if !rec.Counted() || rec.Timeline == nil {
		return false
	}
	return stats.Warmed(summary.Throughputs(sendingWindow(rec.Timeline, sendFor)), warmWindow, stats.DefaultSteady)
}
