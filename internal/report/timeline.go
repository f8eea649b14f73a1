package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/summary"
)

// Timelines in report.html: per scenario, two charts on the trial's own
// clock (seconds since its first send): acknowledged records per second
// per interval, and each interval's p99 latency. One line per trial (the
// first maxTimelineTrials), the in-trial warm-up shaded, the start of the
// measured window dashed, and fault events (Record.Events with TMs) as
// red vertical lines.

const (
	// maxTimelineTrials bounds the lines of a timeline chart.
	maxTimelineTrials = 5
	// maxTimelinePoints bounds the points of one line; longer timelines
	// are coarsened by merging neighbouring intervals.
	maxTimelinePoints = 200
)

// timelineCharts renders the timelines of every scenario whose
// non-warm-up trials carry one.
func timelineCharts(scs []scenario) []chart {
	var out []chart
	for i := range scs {
		s := &scs[i]
		if len(s.Timed) == 0 {
			continue
		}
		tp := &lineChart{ID: fmt.Sprintf("timeline-%d-throughput", i+1), Title: s.Label + ": throughput per interval",
			XLabel: "time since the trial's first send (s)", YLabel: "acknowledged (records/s)", Legend: []string{"trial"}}
		lat := &lineChart{ID: fmt.Sprintf("timeline-%d-p99", i+1), Title: s.Label + ": p99 latency per interval",
			XLabel: "time since the trial's first send (s)", YLabel: "p99 send → ack latency (ms)", Legend: []string{"trial"}}
		xhi := 0.0
		measured := map[float64]bool{}
		labelled := map[string]bool{} // one label per event kind and time, however many trials
		var bands []band
		var marks []mark
		for _, r := range s.Timed {
			pts, err := summary.Coarsen(r.Timeline.Points, coarseness(len(r.Timeline.Points)))
			if err != nil {
				continue // an interval histogram that does not decode: leave the trial out
			}
			name := r.TrialName()
			if r.Status != results.StatusOK {
				name += " (" + r.Status + ")"
			}
			var tps, p99 []datum
			rates := throughputs(pts)
			for j, p := range pts {
				x := (p.TMs + p.DurMs) / 1000 // the interval's end: when its figures are known
				xhi = math.Max(xhi, x)
				if !math.IsNaN(rates[j]) {
					tps = append(tps, datum{X: x, Y: rates[j], Err: math.NaN()})
				}
				if p.Acked > 0 {
					p99 = append(p99, datum{X: x, Y: p.P99Ms, Err: math.NaN()})
				}
			}
			tp.Series = append(tp.Series, lineSeries{Name: name, Points: tps})
			lat.Series = append(lat.Series, lineSeries{Name: name, Points: p99})
			if m := r.Timeline.MeasuredFromMs / 1000; m > 0 && !measured[m] {
				measured[m] = true
				bands = append(bands, band{X0: 0, X1: m, Class: "warmup", Title: "warm-up (not measured)"})
				marks = append(marks, mark{X: m, Class: "measured", Title: "measured window starts at " + strconv.FormatFloat(m, 'f', 1, 64) + " s"})
			}
			bands = append(bands, outages(r.Events, name)...)
			for _, e := range r.Events {
				if e.TMs == nil {
					continue
				}
				x := *e.TMs / 1000
				xhi = math.Max(xhi, x)
				title := name + ": " + e.Kind
				if e.Detail != "" {
					title += " " + e.Detail
				}
				label := e.Kind
				if at := e.Kind + "@" + strconv.FormatFloat(x, 'f', 1, 64); labelled[at] {
					label = ""
				} else {
					labelled[at] = true
				}
				marks = append(marks, mark{X: x, Class: "event", Label: label, Title: title})
			}
		}
		ticks, _ := niceTicks(xhi, 6)
		for _, c := range []*lineChart{tp, lat} {
			c.XTicks, c.Bands, c.Marks = ticks, bands, marks
			out = append(out, chart{ID: c.ID, SVG: c.svg()})
		}
	}
	return out
}

// coarseness is how many intervals to merge so that n fit in
// maxTimelinePoints.
func coarseness(n int) int {
	return max(1, (n+maxTimelinePoints-1)/maxTimelinePoints)
}

// throughputs is each point's acknowledged records per second, NaN for a
// point without duration; unlike summary.Throughputs it keeps every point
// (warm-up and a partial last one), since the chart draws them all.
func throughputs(pts []results.TimelinePoint) []float64 {
	out := make([]float64, len(pts))
	for i, p := range pts {
		out[i] = math.NaN()
		if p.DurMs > 0 {
			out[i] = float64(p.Acked) / (p.DurMs / 1000)
		}
	}
	return out
}

// outages are the bands of a trial's faults that lasted: from a fault's
// event to the "recovered" event that names it ("broker 2 after
// broker.kill", "zone b after zone.isolate").
func outages(events []results.Event, trial string) []band {
	var out []band
	for i, e := range events {
		if e.TMs == nil || e.Kind == "recovered" {
			continue
		}
		// The fault's subject ("broker 2", "zone b") starts its recovery's
		// detail.
		subject, _, _ := strings.Cut(e.Detail, ",")
		for _, r := range events[i+1:] {
			if r.Kind == "recovered" && r.TMs != nil && strings.HasPrefix(r.Detail, subject+" after "+e.Kind) {
				out = append(out, band{X0: *e.TMs / 1000, X1: *r.TMs / 1000, Class: "outage",
					Title: trial + ": " + e.Kind + " " + e.Detail + " until " + strconv.FormatFloat(*r.TMs/1000, 'f', 1, 64) + " s"})
				break
			}
		}
	}
	return out
}
