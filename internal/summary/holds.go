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
// unsteady window (unless it only drained a backlog: Draining), a window
// that began further behind its schedule than the SLO allows
// (StartBehind), an audit that found what the experiment does not expect
// (with audit: true, "audited clean" is a constraint like the SLO), an SLO
// percentile above its bound or not measured (SLOMisses: from the
// intended send time, or end to end).
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
	if st := rec.Steady; st != nil && !st.OK && !Draining(rec, keepUp) {
		why = append(why, "window not steady: "+st.Reason)
	}
	if behind := StartBehind(rec, slo); behind != "" {
		why = append(why, behind)
	}
	if rec.Status == results.StatusViolated && rec.Audit != nil {
		a := rec.Audit
		why = append(why, fmt.Sprintf("audit not clean: %d lost, %d duplicated, %d reordered, %d phantom", a.Lost, a.Duplicates, a.Reordered, a.Phantom))
	}
	return append(why, SLOMisses(rec, slo)...)
}

// Draining reports whether a rate-limited trial's window is unsteady only
// because it drained a backlog from before it: it sent more than the
// offered rate (achieved above 1 by more than the window's resolution) at
// a falling rate (the drift's whole interval below zero), and by its end
// it sent at the offered rate again (tailKeptUp). A producer that cannot
// sustain the offered rate cannot send faster than it, so such a window
// shows capacity to spare; its unsteadiness is the trial's start
// (connections and metadata behind a long round trip), not the rate. Seen
// on a pipe-bound advise run, where three probes at 30–80 % of the knee
// failed this way (achieved 1.03–1.11, drift −25 to −32 %).
func Draining(rec *results.Record, keepUp float64) bool {
	st := rec.Steady
	// The fitted line's end is not asked to reach the offered rate: a real
	// drain falls fast and then flattens, and a straight line through it
	// ends below the offered rate (the pipe probes above: 0.88–0.94). The
	// window's last third is asked instead.
	return st != nil && !st.OK && st.DriftHi < 0 && StartLag(rec) > 0 && tailKeptUp(rec, keepUp)
}

// tailKeptUp reports whether the last third of a rate-limited trial's
// measured window (at least 2 of the intervals the steady-state rule
// judged) acknowledged at least keepUp of the offered rate, within the
// resolution of so few records (KeepUpResolution's, over the tail's
// count). A window that drained a backlog and then fell below its rate
// did not show capacity to spare: its whole count was above the offered
// rate only because of the backlog. False without a timeline.
func tailKeptUp(rec *results.Record, keepUp float64) bool {
	if rec.Timeline == nil || rec.Steady == nil || rec.Load == nil || rec.Load.OfferedRecordsPerS <= 0 {
		return false
	}
	window := fullPoints(rec.Timeline.Points)
	if n := rec.Steady.Points; n > 0 && n < len(window) {
		window = window[:n]
	}
	if len(window) < 2 {
		return false
	}
	var acked, ms float64
	for _, p := range window[len(window)-max(2, len(window)/3):] {
		acked += float64(p.Acked)
		ms += p.DurMs
	}
	if acked <= 0 {
		return false
	}
	achieved := acked / (ms / 1000) / rec.Load.OfferedRecordsPerS
	return achieved+resolution(achieved, acked, ackGrain(rec)) >= keepUp
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

// TightestSLO is the smallest bound of an SLO, in ms: the latency a
// window's start may lag by (StartBehind) and the lab's catch-up aims
// within. +Inf when the SLO bounds nothing.
func TightestSLO(slo map[string]float64) float64 {
	tightest := math.Inf(1)
	for _, b := range slo {
		tightest = math.Min(tightest, b)
	}
	return tightest
}

// StartBehind says why a rate-limited trial did not reach a steady state
// the SLO can judge: its window began further behind its schedule
// (StartLag) than the tightest SLO bound, so its latency from the
// intended send time measured a backlog draining, not the steady state at
// its rate. The lab holds such a trial's warm-up until the producer is
// within half that bound of its schedule, for at most one window more
// (driver.Trial.CatchUp); a producer still behind by then needed more than
// warm-up and window to absorb its start at this rate, and does not hold
// it. "" when it began on schedule, and always without an SLO.
func StartBehind(rec *results.Record, slo map[string]float64) string {
	tightest := TightestSLO(slo)
	lag := StartLag(rec)
	if lag <= 0 || math.IsInf(tightest, 1) || float64(lag)/float64(time.Millisecond) <= tightest {
		return ""
	}
	return fmt.Sprintf("the window began about %d ms behind its schedule (achieved %.4f, resolution ±%.4f), beyond the SLO's %g ms: not a steady state at this rate",
		lag.Milliseconds(), rec.Load.Achieved, KeepUpResolution(rec), tightest)
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
