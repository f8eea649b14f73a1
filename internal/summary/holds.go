package summary

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/results"
)

// HoldMisses lists every reason a rate-limited trial does not hold its
// load: a failed record, a producer that did not keep up (KeptUp), an
// unsteady window (unless it only drained a backlog: Draining), an audit that found what the experiment does not expect
// (with audit: true, "audited clean" is a constraint like the SLO), an SLO
// percentile of the latency from the intended send time above its bound.
// Empty when it holds. It is the one judgement of a
// capacity probe and of an advise candidate at a fixed rate.
func HoldMisses(rec *results.Record, slo map[string]float64, keepUp float64) []string {
	var why []string
	if !rec.Counted() {
		why = append(why, "trial failed: "+firstLine(rec.Error))
	}
	if !KeptUp(rec, keepUp) {
		achieved := math.NaN()
		if rec.Load != nil {
			achieved = rec.Load.Achieved
		}
		why = append(why, fmt.Sprintf("kept up %.4f < %g (resolution ±%.4f)", achieved, keepUp, KeepUpResolution(rec)))
	}
	if st := rec.Steady; st != nil && !st.OK && !Draining(rec) {
		why = append(why, "window not steady: "+st.Reason)
	}
	if rec.Status == results.StatusViolated && rec.Audit != nil {
		a := rec.Audit
		why = append(why, fmt.Sprintf("audit not clean: %d lost, %d duplicated, %d reordered, %d phantom", a.Lost, a.Duplicates, a.Reordered, a.Phantom))
	}
	return append(why, SLOMisses(rec.LatencyIntendedMs, slo)...)
}

// Draining reports whether a rate-limited trial's window is unsteady only
// because it drained a backlog from before it: it sent more than the
// offered rate (achieved above 1 by more than the window's resolution) at
// a falling rate (the drift's whole interval below zero). A producer that
// cannot sustain the offered rate cannot send faster than it, so such a
// window shows capacity to spare; its unsteadiness is the trial's start
// (connections and metadata behind a long round trip), not the rate. Seen
// on a pipe-bound advise run, where three probes at 30–80 % of the knee
// failed this way (achieved 1.03–1.11, drift −25 to −32 %).
func Draining(rec *results.Record) bool {
	st := rec.Steady
	return st != nil && !st.OK && rec.Load != nil && st.DriftHi < 0 &&
		rec.Load.Achieved-KeepUpResolution(rec) > 1
}

// JudgeProbe is a capacity probe's verdict at its offered rate: not
// counted when its window began too far behind its schedule to judge the
// SLO (StartBehind), else a pass when it held the load (HoldMisses), with
// every reason it did not. The one judgement the search (lab) and a
// re-judgement of recorded runs (bench) make.
func JudgeProbe(rec *results.Record, slo map[string]float64, keepUp float64) (pass, uncounted bool, why string) {
	if why := StartBehind(rec, slo); why != "" {
		return false, true, why
	}
	misses := HoldMisses(rec, slo, keepUp)
	return len(misses) == 0, false, strings.Join(misses, "; ")
}

// StartLag estimates how far behind its schedule a rate-limited trial's
// window began: the records the window acknowledged beyond those it was
// offered (achieved above 1, less the window's resolution), at the
// offered rate. A producer in a steady state acknowledges what it is
// offered; more means the window drained a backlog the warm-up left
// (records handed over before the window and acknowledged in it). Zero
// when it acknowledged no more than it was offered.
func StartLag(rec *results.Record) time.Duration {
	l := rec.Load
	if l == nil || l.OfferedRecordsPerS <= 0 {
		return 0
	}
	excess := (l.Achieved - 1 - KeepUpResolution(rec)) * float64(rec.Records.Sent)
	if !(excess > 0) {
		return 0
	}
	return time.Duration(excess / l.OfferedRecordsPerS * float64(time.Second))
}

// StartBehind says why a rate-limited trial cannot judge the SLO: its
// window began further behind its schedule (StartLag) than the tightest
// SLO bound, so its latency from the intended send time measured the
// warm-up's backlog draining, not the steady state at its rate (a CPU-bound
// A/A capacity pair at p99 ≤ 20 ms failed such probes at 255–300k msg/s,
// achieved 1.02–1.07 and p99 50–300 ms, while the same rates passed at
// 5–16 ms whenever the window began on schedule). "" when the trial can
// judge it, and always without an SLO. The outcome is not looked at:
// whether a trial is judged depends on its start alone.
func StartBehind(rec *results.Record, slo map[string]float64) string {
	tightest := math.Inf(1)
	for _, b := range slo {
		tightest = math.Min(tightest, b)
	}
	lag := StartLag(rec)
	if lag <= 0 || math.IsInf(tightest, 1) || float64(lag)/float64(time.Millisecond) <= tightest {
		return ""
	}
	return fmt.Sprintf("not counted: the window began about %d ms behind its schedule (achieved %.4f, resolution ±%.4f), beyond the SLO's %g ms; its latency measured the warm-up's backlog, not the steady state",
		lag.Milliseconds(), rec.Load.Achieved, KeepUpResolution(rec), tightest)
}

// SLOMisses lists the SLO percentiles l does not meet (all of them when
// nothing was measured).
func SLOMisses(l *results.Latency, slo map[string]float64) []string {
	var out []string
	for _, p := range SLOPercentiles {
		bound, ok := slo[p.Key]
		if !ok {
			continue
		}
		m, _ := MetricByKey(p.Key)
		v := math.NaN()
		if l != nil {
			v = LatencyAt(*l, p.Key)
		}
		if !(v <= bound) {
			out = append(out, fmt.Sprintf("%s from the intended send time %.1f ms > %g ms", strings.TrimPrefix(m.Name, "latency "), v, bound))
		}
	}
	return out
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
