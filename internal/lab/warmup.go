package lab

import (
	"math"
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// warmWindow is how many of a warm-up trial's last timeline points must be
// flat (stats.Warmed) for the trial to count as warm.
const warmWindow = 5

// warmScenarioMove bounds each scenario's own move from the previous round
// in a warm round. The geometric mean alone let flat scenarios hide ramping
// ones: two cut scenarios at ~25k msg/s held the mean of 1 broker's round
// within ±10 % while its two others moved by −31 % and +12 % on their way
// from 200k to 330k (bench/RESULTS.md §26). Looser than the mean's ±10 %,
// since one trial's noise is larger than four's.
const warmScenarioMove = 0.20

// warmup schedules the group's unmeasured rounds under warmup: auto:
// rounds until the cluster and clients are warm, for at most warmup.max.s.
// The rule (stated in docs/architecture.md): a round is warm when its
// throughput has settled — the geometric mean over scenarios of this
// round's throughput ÷ the previous round's is within ±10 % of 1, and each
// scenario's own within ±20 % (warmScenarioMove), so never the first
// round — and, for steady-state trials, every scenario's trial
// also has a flat sending window: its last warmWindow intervals pass
// stats.Warmed (no drift beyond ±10 %, no swing beyond a CV of 0.5). A
// burst's timeline is a drain, never flat, so only the first test applies.
// A flat window alone is not enough: JVMs still compiling ramp from round
// to round while each trial is flat (3 brokers, Java client: 5,800 msg/s
// in a flat first round, 75,000 a few rounds later; bench/RESULTS.md §24).
//
// warmup: N is fixedRounds.
type warmup struct {
	scs  []expfile.Scenario
	byID map[string]expfile.Scenario
	// max bounds the time of the warm-up's own rounds; spent is that
	// time so far, up to roundStart, when the open round began. Its own,
	// not the wall clock's: alternating clusters warm in turns
	// (alternate.go), each waiting while the others run.
	max        time.Duration
	spent      time.Duration
	roundStart time.Time
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

// newWarmup starts the warm-up of scs, whose rounds may take at most maxS
// seconds in all.
func newWarmup(scs []expfile.Scenario, maxS float64) *warmup {
	byID := make(map[string]expfile.Scenario, len(scs))
	for _, sc := range scs {
		byID[sc.ID] = sc
	}
	return &warmup{scs: scs, byID: byID, max: seconds(maxS), prev: map[string]float64{},
		w: results.Warmed{Auto: true}}
}

func (u *warmup) next() ([]trialSpec, bool) {
	if u.done {
		return nil, false
	}
	u.open, u.flat, u.logRatios = true, true, nil
	u.roundStart = time.Now()
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
	u.spent += time.Since(u.roundStart)
	// No ratio: every trial lacked a previous round (observe said so), or
	// the round was cut short before any trial; neither is warm.
	if len(u.logRatios) == 0 || math.Abs(math.Expm1(stats.Summarize(u.logRatios, stats.DefaultConfidence).Mean)) > stats.DefaultSteady.MaxDrift {
		u.flat = false
	}
	for _, l := range u.logRatios {
		if math.Abs(math.Expm1(l)) > warmScenarioMove {
			u.flat = false
		}
	}
	u.w.Rounds++
	u.w.Checked, u.w.Steady = true, u.flat
	u.done = u.flat || u.spent >= u.max
}

// outcome is what the warm-up did, for the measured records; a round cut
// short by an interrupt or a lost cluster counts.
func (u *warmup) outcome() *results.Warmed {
	u.closeRound()
	w := u.w
	w.Seconds = u.spent.Seconds()
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

// warming is one warm-up under way: a fixed count of rounds (warmup: N),
// or rounds until warm (warmup: auto, see warmup), and the time its own
// rounds took.
type warming struct {
	sch    scheduler
	auto   *warmup
	fixed  *fixedRounds
	maxS   float64
	prefix string // names the cluster in the log line
	spent  time.Duration
}

// newWarming starts the warm-up of scs the experiment asks for; nil when
// it asks for none.
func (r *runner) newWarming(scs []expfile.Scenario, prefix string) *warming {
	e := r.exp
	w := &warming{maxS: e.WarmupMaxS, prefix: prefix}
	switch {
	case e.WarmupAuto:
		w.auto = newWarmup(scs, e.WarmupMaxS)
		w.sch = w.auto
	case e.Warmup > 0:
		w.fixed = &fixedRounds{scs: scs, rounds: e.Warmup, warm: true}
		w.sch = w.fixed
	default:
		return nil
	}
	return w
}

// round runs the warm-up's next round with run, adding its time to the
// warm-up's own, and reports whether there was one.
func (w *warming) round(run func(scheduler) bool) bool {
	t0 := time.Now()
	ok := run(w.sch)
	w.spent += time.Since(t0)
	return ok
}

// outcome is what the warm-up did, logged once with logf.
func (w *warming) outcome(logf func(format string, args ...any)) *results.Warmed {
	var out *results.Warmed
	if w.auto != nil {
		out = w.auto.outcome()
	} else {
		out = &results.Warmed{Rounds: w.fixed.round, Seconds: w.spent.Seconds()}
	}
	switch {
	case !out.Checked:
		logf("%swarm-up: %d rounds in %.1fs", w.prefix, out.Rounds, out.Seconds)
	case out.Steady:
		logf("%swarm-up: steady after %d rounds in %.1fs", w.prefix, out.Rounds, out.Seconds)
	default:
		logf("%swarm-up: NOT steady after %d rounds in %.1fs (warmup.max.s %g): measured rounds start anyway, and their records say so", w.prefix, out.Rounds, out.Seconds, w.maxS)
	}
	return out
}
