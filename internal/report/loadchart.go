package report

import (
	"math"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/figures"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// The hockey stick in report.html: latency from the intended send time
// against offered rate, a line per curve of the load view (load.go). The
// y axis is logarithmic: below the knee latencies are milliseconds, past
// it they are the seconds a queue grows to, and a linear axis would flatten
// the knee into the floor. A point that did not keep up, or a probe that
// failed, is drawn hollow, and an SLO on the percentile is a dashed line.

// loadCharts renders one chart per percentile the run's capacity SLO
// bounds (in figures.SLOPercentiles order), or of p99 when it bounds none; nil
// without curves.
func loadCharts(cs []loadCurve, plan *results.Plan) []chart {
	if len(cs) == 0 {
		return nil
	}
	var slo map[string]float64
	if plan != nil && plan.Capacity != nil {
		slo = plan.Capacity.SLO
	}
	var out []chart
	for _, p := range figures.SLOPercentiles {
		bound, ok := slo[p.Key]
		if !ok && (len(slo) != 0 || p.Key != "p99") {
			continue
		}
		c := loadChart(cs, p)
		if ok {
			c.Levels = []level{{Y: bound, Label: "SLO " + p.Name + " ≤ " + strconv.FormatFloat(bound, 'f', -1, 64) + " ms"}}
		}
		out = append(out, chart{ID: c.ID, SVG: c.svg(), Caption: loadCaption(cs, ok)})
	}
	return out
}

// loadChart is the chart of SLO percentile p against offered rate,
// without its SLO line.
func loadChart(cs []loadCurve, p figures.SLOPercentile) *lineChart {
	m, name := mustMetric(p.Metric), p.Name
	title := name + " latency from the intended send time"
	if p.E2E {
		title = p.Label() + " latency"
	}
	c := &lineChart{ID: "chart-load-" + p.Key, Title: title + " against offered rate",
		XLabel: "offered rate (records/s)", YLabel: p.Label() + " (ms, log scale)", LogY: true, Markers: true}
	xhi := 0.0
	for _, cv := range cs {
		if c.Legend == nil {
			c.Legend = legendTitle(cv.Keys)
		}
		ls := lineSeries{Name: cv.Name}
		for j := range cv.Points {
			pt := &cv.Points[j]
			f := pt.figure(m)
			if f.N == 0 || !(f.Mean > 0) {
				continue // not measured: a log axis has no room for 0
			}
			xhi = math.Max(xhi, pt.Offered)
			ls.Points = append(ls.Points, datum{X: pt.Offered, Y: f.Mean, Err: f.Err, Hollow: pt.failed(),
				Title: pointTitle(cv.Name, pt, name, f)})
		}
		c.Series = append(c.Series, ls)
	}
	c.XTicks, _ = niceTicks(xhi, 6)
	return c
}

// pointTitle is a point's tooltip: "false: offered 20,000 msg/s, p99
// 412.30 ms, did not keep up (0.931); FAIL: kept up 0.93 < 0.99".
func pointTitle(curve string, p *loadPoint, name string, f stats.Summary) string {
	t := curve + ": offered " + thousands(p.Offered) + " msg/s, " + name + " " + withErr(f, ms) + " ms, "
	if p.KeptUp {
		t += "kept up"
	} else {
		t += "did not keep up"
	}
	t += " (" + strconv.FormatFloat(p.achieved().Mean, 'f', 3, 64) + ")"
	if p.Probe != nil {
		t += "; " + probeText(p.Probe)
	}
	return t
}

// loadCaption explains a chart's hollow points and its SLO line.
func loadCaption(cs []loadCurve, slo bool) string {
	var b strings.Builder
	if anyProbe(cs) {
		b.WriteString("Each point is one probe of the capacity search. Hollow points did not keep up or failed their probe")
	} else {
		b.WriteString("Each point is a scenario's trials at one offered rate (mean ± error). Hollow points did not keep up")
	}
	b.WriteString(": past the knee, latency measures a queue, not the producer.")
	if slo {
		b.WriteString(" The dashed red line is the SLO.")
	}
	return b.String()
}
