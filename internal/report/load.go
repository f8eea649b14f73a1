package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/figures"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// Latency against offered rate, the "hockey stick" of a rate-limited
// producer: as the offered rate (Record.Load) nears what the producer and
// the cluster sustain, the latency from the intended send time turns up,
// and past it the producer falls behind, so that the latency measures a
// growing queue rather than the producer. The view lays the rate-limited
// trials out as curves: scenarios grouped by their matrix values other than
// the rate, one point per offered rate. A scenario of a rate matrix
// (matrix: {rate: [...]}) is one point, its trials summarised; each probe
// of a capacity search is a point of its own (its scenario has no rate
// axis: the search chose the rates). The ceiling probe (unthrottled, no
// Load) is not a point: the capacity table shows it.

// rateKeys are the matrix keys of the offered rate, as experiments and
// records spell them.
var rateKeys = []string{"workload.rate", "rate"}

// keepUpOf is the keep-up share of plan: its capacity section's, or
// figures.DefaultKeepUp.
func keepUpOf(plan *results.Plan) float64 {
	if plan != nil && plan.Capacity != nil && plan.Capacity.KeepUp > 0 {
		return plan.Capacity.KeepUp
	}
	return figures.DefaultKeepUp
}

// The metrics of the view, from summary's registry: each figure is
// defined there once, and the view only summarises its per-trial values.
var (
	metricAchieved = mustMetric("throughput")
	metricHandoff  = mustMetric("p99")
	metricCPU      = mustMetric("cpu.total")
)

// mustMetric returns the registry's metric key; a key the registry lacks
// is a programming error, caught by any test of the package.
func mustMetric(key string) summary.Metric {
	m, ok := summary.MetricByKey(key)
	if !ok {
		panic("report: no metric " + key)
	}
	return m
}

// intendedMetric is the metric of a percentile ("p50", "p95", "p99",
// "p999": results.CapacityPlan.SLO's keys) of the latency from the
// intended send time.
func intendedMetric(pct string) summary.Metric {
	return mustMetric(pct + ".intended")
}

// loadCurve is one curve of the view: the points sharing every matrix
// value but the rate.
type loadCurve struct {
	// Label is those values as "k=v k=v" ("all" when only the rate
	// varies); Name and Keys are the legend's entry (the values joined by
	// " / ") and title (their keys).
	Label, Name string
	Keys        []string
	// Points are in order of offered rate, trial order among equals.
	Points []loadPoint
}

// loadPoint is one offered rate of a curve: a scenario's rate-limited
// trials, or one probe.
type loadPoint struct {
	// Offered is the offered rate (records/s): the trials' mean, which
	// is their common rate.
	Offered float64
	// Trials are the trials the point summarises, in file order: a
	// scenario's counted ones, or the one probe (which may have failed).
	Trials []results.Record
	// Probe is the search's judgement when the point is one capacity
	// probe; nil for a scenario of a rate matrix.
	Probe *results.Probe
	// KeptUp is whether every trial achieved at least the keep-up share
	// of the offered rate.
	KeptUp bool
}

// figure summarises metric m over the point's counted trials (N is 0
// when none measured it): a probe's own figure, or a scenario's mean ±
// error; a probe that failed as a trial has none.
func (p *loadPoint) figure(m summary.Metric) stats.Summary {
	var xs []float64
	for i := range p.Trials {
		if !p.Trials[i].Counted() {
			continue
		}
		if v := m.Trial(&p.Trials[i]); !math.IsNaN(v) {
			xs = append(xs, v)
		}
	}
	return stats.Summarize(xs, stats.DefaultConfidence)
}

// achieved summarises the trials' achieved ÷ offered rate.
func (p *loadPoint) achieved() stats.Summary {
	xs := make([]float64, len(p.Trials))
	for i, r := range p.Trials {
		xs[i] = r.Load.Achieved
	}
	return stats.Summarize(xs, stats.DefaultConfidence)
}

// failed reports whether the point is a probe that failed, or did not
// keep up: its latency is not the producer's.
func (p *loadPoint) failed() bool {
	return !p.KeptUp || (p.Probe != nil && !p.Probe.Pass)
}

// loadCurves builds the view from the scenarios' rate-limited trials
// (Load set, offered rate > 0): a scenario's counted trials make one
// point; each probe the capacity search judged is a point of its own,
// counted or not (a probe that failed as a trial is a failed probe, whose
// figures are not shown). Curves come in order of their first scenario;
// nil when no trial was rate-limited. A trial keeps up when it achieved at
// least keepUp of the offered rate.
func loadCurves(recs []results.Record, scs []scenario, keepUp float64) []loadCurve {
	byID := map[string][]results.Record{}
	for _, r := range recs {
		if !r.Warmup && r.Status != results.StatusInterrupted && r.Load != nil && r.Load.OfferedRecordsPerS > 0 {
			id := summary.ScenarioKey(r)
			byID[id] = append(byID[id], r)
		}
	}
	var out []loadCurve
	idx := map[string]int{}
	add := func(s *scenario, p loadPoint) {
		label, name, keys := labelWithout(s.ScenarioStats, rateKeys)
		i, ok := idx[label]
		if !ok {
			i = len(out)
			idx[label] = i
			out = append(out, loadCurve{Label: label, Name: name, Keys: keys})
		}
		out[i].Points = append(out[i].Points, p)
	}
	for i := range scs {
		s := &scs[i]
		var plain []results.Record
		for _, r := range byID[s.ID] {
			switch {
			case r.Probe != nil && !r.Probe.Ceiling:
				add(s, newLoadPoint([]results.Record{r}, r.Probe, keepUp))
			case r.Probe == nil && r.Counted():
				plain = append(plain, r)
			}
		}
		if len(plain) > 0 {
			add(s, newLoadPoint(plain, nil, keepUp))
		}
	}
	for i := range out {
		// Stable: probes at one rate stay in trial order.
		sort.SliceStable(out[i].Points, func(a, b int) bool { return out[i].Points[a].Offered < out[i].Points[b].Offered })
	}
	return out
}

// newLoadPoint is the point of trials (all with Load set).
func newLoadPoint(trials []results.Record, probe *results.Probe, keepUp float64) loadPoint {
	p := loadPoint{Trials: trials, Probe: probe, KeptUp: true}
	for _, r := range trials {
		p.Offered += r.Load.OfferedRecordsPerS / float64(len(trials))
		if !summary.KeptUp(&r, keepUp) {
			p.KeptUp = false
		}
	}
	return p
}

// labelWithout names s by its matrix values other than those of except:
// label "k=v k=v" ("all" when none is left), name their values joined by
// " / " and keys their keys, as restLabel does for the charts.
func labelWithout(s *summary.ScenarioStats, except []string) (label, name string, keys []string) {
	var kv, vs []string
	for _, k := range s.Keys {
		v, ok := s.Values[k]
		if !ok || slices.Contains(except, k) {
			continue
		}
		kv = append(kv, k+"="+formatValue(v))
		vs = append(vs, formatValue(v))
		keys = append(keys, k)
	}
	if len(kv) == 0 {
		return "all", "all", nil
	}
	return strings.Join(kv, " "), strings.Join(vs, " / "), keys
}

// loadColumn is a column of the view's table, as the terminal table,
// Markdown and report.html show it.
type loadColumn struct {
	head, md string
	// when says whether the column is shown for these curves; nil: always.
	when func([]loadCurve) bool
	text func(*loadPoint) string
}

// loadColumns are the view's figure columns, after the curve's label.
// The latency percentiles run from each record's intended send time (the
// table's title says so); HAND-OFF P99 is the ordinary hand-off → ack
// latency, beside them to show how much of the latency is queueing.
var loadColumns = []loadColumn{
	{head: "OFFERED MSG/S", md: "offered msg/s", text: func(p *loadPoint) string { return thousands(p.Offered) }},
	{head: "ACHIEVED MSG/S", md: "achieved msg/s", text: func(p *loadPoint) string { return withErr(p.figure(metricAchieved), thousands) }},
	{head: "RATIO", md: "achieved ÷ offered", text: ratioCell},
	{head: "P50 ms", md: "p50 ms", text: intendedCell("p50")},
	{head: "P99 ms", md: "p99 ms", text: intendedCell("p99")},
	{head: "P99.9 ms", md: "p99.9 ms", text: intendedCell("p999")},
	{head: "HAND-OFF P99 ms", md: "hand-off p99 ms", text: func(p *loadPoint) string { return withErr(p.figure(metricHandoff), ms) }},
	{head: "CPU ms/MB", md: "CPU ms/MB", when: anyCPU, text: func(p *loadPoint) string { return withErr(p.figure(metricCPU), f1) }},
}

// notKeptUpMark follows the ratio of a point that did not keep up.
const notKeptUpMark = "*"

// ratioCell is the achieved ÷ offered rate, marked when the point did not
// keep up (some trial fell below the keep-up share).
func ratioCell(p *loadPoint) string {
	c := withErr(p.achieved(), func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) })
	if !p.KeptUp {
		c += " " + notKeptUpMark
	}
	return c
}

// intendedCell is a percentile of the latency from the intended send time.
func intendedCell(pct string) func(*loadPoint) string {
	m := intendedMetric(pct)
	return func(p *loadPoint) string { return withErr(p.figure(m), ms) }
}

// anyCPU reports whether some point measured CPU.
func anyCPU(cs []loadCurve) bool {
	return anyPoint(cs, func(p *loadPoint) bool { return p.figure(metricCPU).N > 0 })
}

// anyProbe reports whether some point is a capacity probe.
func anyProbe(cs []loadCurve) bool {
	return anyPoint(cs, func(p *loadPoint) bool { return p.Probe != nil })
}

// anyPoint reports whether f holds for some point of cs.
func anyPoint(cs []loadCurve, f func(*loadPoint) bool) bool {
	for i := range cs {
		for j := range cs[i].Points {
			if f(&cs[i].Points[j]) {
				return true
			}
		}
	}
	return false
}

// probeText is a probe's judgement: "pass", or "FAIL: why".
func probeText(pr *results.Probe) string {
	if pr.Pass {
		return "pass"
	}
	if pr.Why == "" {
		return "FAIL"
	}
	return "FAIL: " + pr.Why
}

// loadTitle heads the view's table.
const loadTitle = "Latency against offered rate (from the intended send time; " + notKeptUpMark +
	" did not keep up: its latency measures a queue, not the producer)"

// loadNote explains the view's table: what keeping up means, what a row
// is, and what CPU counts.
func loadNote(cs []loadCurve, keepUp float64) string {
	rows := "Each row is a scenario's trials at one offered rate, as mean ± error."
	if anyProbe(cs) {
		rows = "Each row is one probe of the capacity search, in order of offered rate."
	}
	return fmt.Sprintf("A row keeps up when every trial achieved at least %s of the offered rate, within its window's resolution (the records in flight). %s", trimFloat(keepUp), rows) +
		" HAND-OFF P99 is from the hand-off to the client; CPU is the client's and the brokers', per MB."
}

// loadTableOf is the view as a table: a row per point, the curve's label on
// its first row only, the figure columns shown for cs and, in a capacity
// run, each probe's judgement last (PROBE); nil without curves.
func loadTableOf(cs []loadCurve, keepUp float64) *extraTable {
	if len(cs) == 0 {
		return nil
	}
	t := &extraTable{Title: loadTitle, Head: []string{"SCENARIO"}, MD: []string{"scenario"}, KeyCols: 1, Note: loadNote(cs, keepUp)}
	var cols []loadColumn
	for _, c := range loadColumns {
		if c.when == nil || c.when(cs) {
			cols = append(cols, c)
			t.Head, t.MD = append(t.Head, c.head), append(t.MD, c.md)
		}
	}
	if anyProbe(cs) {
		t.StatusHead, t.StatusMD = "PROBE", "probe"
	}
	for _, c := range cs {
		for j := range c.Points {
			p := &c.Points[j]
			row := extraRow{Cells: []string{""}}
			if j == 0 {
				row.Cells[0] = c.Label
			}
			for _, col := range cols {
				row.Cells = append(row.Cells, col.text(p))
			}
			if p.Probe != nil {
				row.Status, row.Failed = probeText(p.Probe), !p.Probe.Pass
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}
