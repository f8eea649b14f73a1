package lab

import (
	"strconv"
	"time"

	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/spec"
	"github.com/prodlab/prodlab/internal/stats"
)

// seconds converts a setting in seconds to a duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// warmupRecords is the record bound of the in-trial warm-up: the setting,
// or under a time-bounded warm-up the trial's cap, so that the time ends it.
func warmupRecords(w spec.Workload) int64 {
	if w.WarmupRecords == 0 && w.WarmupS > 0 {
		return spec.MaxRecords
	}
	return w.WarmupRecords
}

// seed makes payloads reproducible per trial, different between trials and
// between a scenario's warm-up and measured trials.
func seed(sc spec.Scenario, n int, warm bool) int64 {
	s := int64(sc.Index)*1_000_003 + int64(n)
	if warm {
		s += 500_000
	}
	return s
}

// brokerPids are the target's embedded broker processes (none for an
// external cluster).
func brokerPids(tgt *target) map[int]int {
	if tgt.c == nil || !tgt.c.Embedded() {
		return nil
	}
	return tgt.c.Pids()
}

// fillTimeline copies the driver's timeline and warm-up counts into the
// record and judges the measured window by stats' steady-state rule.
func fillTimeline(rec *results.Record, res *driver.Result) {
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
			l := stats.LatencyMs(h)
			p.P50Ms, p.P99Ms, p.MaxMs = l.P50, l.P99, l.Max
			if enc, err := stats.EncodeHistogram(h); err == nil {
				p.Histogram = enc
			}
		}
		tl.Points = append(tl.Points, p)
	}
	rec.Timeline = tl
	st := stats.CheckSteady(stats.Throughputs(tl.Points), stats.DefaultSteady)
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
