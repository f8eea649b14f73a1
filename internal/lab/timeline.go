package lab

import (
	"math"
	"strconv"
	"time"

	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// seconds converts a setting in seconds to a duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// warmupRecords is the record bound of the in-trial warm-up: the setting,
// or under a time-bounded warm-up the trial's cap, so that the time ends it.
func warmupRecords(w expfile.Workload) int64 {
	if w.WarmupRecords == 0 && w.WarmupS > 0 {
		return expfile.MaxRecords
	}
	return w.WarmupRecords
}

// seed makes payloads reproducible per trial, different between trials and
// between a scenario's warm-up and measured trials.
func seed(sc expfile.Scenario, n int, warm bool) int64 {
	s := int64(sc.Index)*1_000_003 + int64(n)
	if warm {
		s += 500_000
	}
	return s
}

// brokerPids are the target's embedded broker processes (none for an
// external cluster).
func brokerPids(tgt *Target) map[int]int {
	if tgt.c == nil || !tgt.c.Embedded() {
		return nil
	}
	return tgt.c.Pids()
}

// fillTimeline copies the driver's timeline and warm-up counts into the
// record and judges the measured window by stats' steady-state rule.
// sendFor is how long the measured window sent records (0 for a burst);
// the steady-state rule looks at the intervals within it only, since those
// after it hold the flush's drain.
func fillTimeline(rec *results.Record, res *driver.Result, sendFor time.Duration) {
	if res.WarmupSent > 0 {
		rec.WarmupRecords = &results.Records{Sent: res.WarmupSent, Acked: res.WarmupAcked}
	}
	if len(res.Timeline) == 0 {
		return
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	tl := &results.Timeline{
		Start:          res.ClockStart.UTC().Format(time.RFC3339Nano),
		IntervalMs:     ms(res.Timeline[0].Length),
		MeasuredFromMs: ms(res.MeasuredFrom),
		Points:         make([]results.TimelinePoint, 0, len(res.Timeline)),
	}
	for _, iv := range res.Timeline {
		p := results.TimelinePoint{
			TMs: ms(iv.Start), DurMs: ms(iv.Length), Warmup: iv.Warmup,
			Sent: iv.Sent, Acked: iv.Acked, AckedBytes: iv.AckedBytes, Failed: iv.Failed,
			Retries: iv.Retries, InFlight: iv.InFlight,
		}
		if h := iv.Latency; h != nil && h.TotalCount() > 0 {
			l := summary.LatencyMs(h)
			p.P50Ms, p.P99Ms, p.MaxMs = l.P50, l.P99, l.Max
			if enc, err := stats.EncodeHistogram(h); err == nil {
				p.Histogram = enc
			}
		}
		tl.Points = append(tl.Points, p)
	}
	rec.Timeline = tl
	if sendFor <= 0 {
		return // a burst is a drain, not a steady state: nothing to judge
	}
	window := sendingWindow(tl, sendFor)
	windowThroughput(rec, window)
	st := stats.CheckSteady(summary.Throughputs(window), stats.DefaultSteady)
	rec.Steady = &results.Steady{OK: st.OK, Points: st.Points, Drift: finiteOr(st.Drift, 0),
		DriftLo: finiteOr(st.DriftLo, 0), DriftHi: finiteOr(st.DriftHi, 0), CV: finiteOr(st.CV, 0), Reason: st.Reason}
}

// placeEvents puts the trial's fault and network events on its timeline's
// axis (milliseconds since the trial's first send).
func placeEvents(rec *results.Record, res *driver.Result) {
	if res == nil || res.ClockStart.IsZero() {
		return
	}
	for i := range rec.Events {
		t, err := time.Parse(time.RFC3339Nano, rec.Events[i].Time)
		if err != nil {
			continue
		}
		v, _ := strconv.ParseFloat(strconv.FormatFloat(float64(t.Sub(res.ClockStart))/float64(time.Millisecond), 'f', 3, 64), 64)
		rec.Events[i].TMs = &v
	}
}

// sendingWindow is the timeline's points that lie within the measured
// window while records were being sent: not warm-up, and for a
// steady-state trial (sendFor > 0) ending no later than sendFor after the
// window began. A burst's points are all kept: its records are handed over
// at once, and the drain is what it measures.
func sendingWindow(tl *results.Timeline, sendFor time.Duration) []results.TimelinePoint {
	end := math.Inf(1)
	if sendFor > 0 {
		end = tl.MeasuredFromMs + float64(sendFor)/float64(time.Millisecond) + 1 // 1 ms for the ticker's jitter
	}
	var out []results.TimelinePoint
	for _, p := range tl.Points {
		if !p.Warmup && p.TMs+p.DurMs <= end {
			out = append(out, p)
		}
	}
	return out
}

// windowThroughput sets a steady-state trial's throughput to what was
// acknowledged per second during its sending window, from the timeline's
// whole intervals within it. The driver's own figure (measured records
// over first send to end of flush) mixes in two things a steady state is
// not: records handed over during the warm-up and acknowledged in the
// window, and the drain of the client's buffer after the window, which at
// a long round trip can take longer than the window itself. A window with
// no whole interval keeps the driver's figure.
func windowThroughput(rec *results.Record, window []results.TimelinePoint) {
	var acked, bytes int64
	var ms float64
	for _, p := range window {
		acked += p.Acked
		bytes += p.AckedBytes
		ms += p.DurMs
	}
	if ms <= 0 {
		return
	}
	rec.Throughput = results.ThroughputOf(acked, bytes, time.Duration(ms*float64(time.Millisecond)))
}
