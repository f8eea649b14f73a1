package lab

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/spec"
	"github.com/prodlab/prodlab/internal/stats"
)

// warmWindow is how many of a warm-up trial's last timeline points must be
// flat (stats.Warmed) for the trial to count as warm.
const warmWindow = 5

// order is a round's order of scenarios (or clusters): A B C on even
// rounds, C B A on odd ones, so that drift between rounds does not favour
// one of them.
func order[T any](xs []T, round int) []T {
	if round%2 == 1 {
		return reversed(xs)
	}
	return xs
}

// warmUp runs the group's unmeasured rounds: a fixed count (warmup: N), or
// under warmup: auto rounds until the cluster and clients are warm, for at
// most warmup.max.s. The rule (stated in docs/architecture.md):
//
//   - steady-state trials are warm when every scenario's last warm-up trial
//     has a flat sending window: its last warmWindow intervals pass
//     stats.Warmed (no drift beyond ±10 %, no swing beyond a CV of 0.5);
//   - bursts, whose timeline is a drain and never flat, are warm when a
//     round's throughput has settled: the geometric mean over scenarios of
//     this round's throughput ÷ the previous round's is within ±10 % of 1.
//
// It returns what happened, for the records.
func (r *runner) warmUp(ctx context.Context, adm *cluster.Admin, tgt *Target, g *clusterGroup) *results.Warmed {
	e := r.exp
	if !e.WarmupAuto && e.Warmup == 0 {
		return nil
	}
	w := &results.Warmed{Auto: e.WarmupAuto}
	t0 := time.Now()
	deadline := t0.Add(time.Duration(e.WarmupMaxS * float64(time.Second)))
	prev := map[string]float64{}
	for round := 0; ctx.Err() == nil; round++ {
		if !e.WarmupAuto && round >= e.Warmup {
			break
		}
		flat := true
		var logRatios []float64
		for _, sc := range order(g.scs, round) {
			if ctx.Err() != nil {
				break
			}
			rec := r.trial(ctx, adm, tgt, sc, round, true)
			r.record(rec)
			if sc.Exp.Steady() {
				flat = flat && warm(rec, seconds(sc.Exp.Workload.DurationS))
				continue
			}
			tp := rec.Throughput.RecordsPerS
			if p := prev[sc.ID]; p > 0 && tp > 0 && rec.Counted() {
				logRatios = append(logRatios, math.Log(tp/p))
			} else {
				flat = false // no previous round to compare with, or a failure
			}
			prev[sc.ID] = tp
		}
		if len(logRatios) > 0 && math.Abs(math.Expm1(stats.Summarize(logRatios, stats.DefaultConfidence).Mean)) > stats.DefaultSteady.MaxDrift {
			flat = false
		}
		w.Rounds = round + 1
		if e.WarmupAuto {
			w.Checked, w.Steady = true, flat
			if flat || time.Now().After(deadline) {
				break
			}
		}
	}
	w.Seconds = time.Since(t0).Seconds()
	switch {
	case !w.Checked:
		r.logf("warm-up: %d rounds in %.1fs", w.Rounds, w.Seconds)
	case w.Steady:
		r.logf("warm-up: steady after %d rounds in %.1fs", w.Rounds, w.Seconds)
	default:
		r.logf("warm-up: NOT steady after %d rounds in %.1fs (warmup.max.s %g): measured rounds start anyway, and their records say so", w.Rounds, w.Seconds, e.WarmupMaxS)
	}
	return w
}

// warm reports whether a steady-state warm-up trial ended flat: the last
// warmWindow points of its sending window pass the steady-state rule.
func warm(rec results.Record, sendFor time.Duration) bool {
	if !rec.Counted() || rec.Timeline == nil {
		return false
	}
	return stats.Warmed(stats.Throughputs(sendingWindow(rec.Timeline, sendFor)), warmWindow, stats.DefaultSteady)
}

// measuring is where a group's measured rounds stand: its share of the
// budget of trials: auto, the time its rounds took so far, and whether it
// is done.
type measuring struct {
	budget, spent time.Duration
	done          bool
}

// newMeasuring starts the measured rounds of g.
func (r *runner) newMeasuring(g *clusterGroup) *measuring {
	e := r.exp
	if e.TrialsAuto {
		for _, sc := range g.scs { // nothing is known before the first round
			r.prec[sc.ID] = results.Precision{Target: e.Precision, Reached: -1}
		}
	}
	return &measuring{budget: time.Duration(e.BudgetS * float64(len(g.scs)) / float64(r.nScenarios) * float64(time.Second))}
}

// measure runs the group's measured rounds: trials: N of them, or under
// trials: auto rounds until every planned comparison within the group (and
// every scenario that is in none) reaches the target precision, the
// group's share of the budget is spent, or spec.MaxAutoRounds have run.
// The rule looks at interval widths only, never at significance.
func (r *runner) measure(ctx context.Context, adm *cluster.Admin, tgt *Target, g *clusterGroup) {
	m := r.newMeasuring(g)
	for round := 0; ctx.Err() == nil && !m.done; round++ {
		r.measureRound(ctx, adm, tgt, g, m, round)
	}
}

// measureRound runs measured round number round of g (scenarios in
// alternating order) and decides whether g is done (see measure).
func (r *runner) measureRound(ctx context.Context, adm *cluster.Admin, tgt *Target, g *clusterGroup, m *measuring, round int) {
	e := r.exp
	if !e.TrialsAuto && round >= e.Trials {
		m.done = true
		return
	}
	rt0 := time.Now()
	for _, sc := range order(g.scs, round) {
		if ctx.Err() != nil {
			m.done = true
			return
		}
		if r.alreadyRun(sc, round) {
			continue
		}
		rec := r.trial(ctx, adm, tgt, sc, round, false)
		if e.TrialsAuto {
			r.judgeWith(rec, g) // so the last round's records carry the final state
		}
		r.record(rec)
	}
	if !e.TrialsAuto {
		m.done = round+1 >= e.Trials
		return
	}
	last := time.Since(rt0)
	m.spent += last
	met, worst := r.updatePrecision(g)
	m.done = true
	switch {
	case met:
		r.logf("%sprecision reached after %d rounds (%.0fs): every interval within ±%.1f %% (widest ±%.1f %%)", g.logPrefix(), round+1, m.spent.Seconds(), e.Precision*100, worst*100)
	case m.spent+last > m.budget:
		r.logf("%sbudget %s spent after %d rounds: widest interval %s, target ±%.1f %% not reached; verdicts say how many more rounds they need",
			g.logPrefix(), m.budget.Round(time.Second), round+1, pctOrUnknown(worst), e.Precision*100)
	case round+1 >= spec.MaxAutoRounds:
		r.logf("%sstopped at %d rounds (the most trials: auto runs): widest interval %s", g.logPrefix(), round+1, pctOrUnknown(worst))
	default:
		m.done = false
		r.logf("%sround %d: widest interval %s (target ±%.1f %%)", g.logPrefix(), round+1, pctOrUnknown(worst), e.Precision*100)
	}
}

// judgeWith updates the stopping rule's state with rec counted, before
// rec is written, so that every record carries the precision its own trial
// brought the run to.
func (r *runner) judgeWith(rec results.Record, g *clusterGroup) {
	r.updatePrecision(g, rec)
}

// pctOrUnknown writes a relative half-width as "±6.8 %", or says it is not
// known yet (too few trials to test).
func pctOrUnknown(hw float64) string {
	if math.IsNaN(hw) {
		return "not known yet"
	}
	return fmt.Sprintf("±%.1f %%", hw*100)
}

// finiteOr returns v, or alt when v is NaN or infinite (JSON has neither).
func finiteOr(v, alt float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return alt
	}
	return v
}
