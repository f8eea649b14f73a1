package report

import (
	"fmt"
	"strconv"

	"github.com/prodlab/prodlab/internal/figures"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// The capacity view answers a capacity run (plan.json has a capacity
// section): each scenario's sustainable rate with its interval, from
// summary.Capacity, the one definition the lab and capacity.json share.
// In such a run a scenario's trials are probes at different offered rates,
// so the ordinary results table, which averages a scenario's trials, would
// mean nothing: the table, Markdown and report.html show the capacity
// table and the probes (the latency-against-offered-rate table, load.go)
// instead.

// capacityTitle heads the capacity table: what "sustainable" meant in the
// run, and the interval's level.
func capacityTitle(c results.CapacityPlan, level float64) string {
	what := "the highest offered rate at which the producer achieves ≥ " + trimFloat(c.KeepUp) + " of it (within the window's resolution)"
	if s := figures.SLOLongText(c.SLO); s != "" {
		what += " with " + s
	}
	return fmt.Sprintf("Capacity (sustainable rate: %s; [lo, hi] is its %s interval)", what, stats.Percent(levelOr(level)))
}

// capacityNote explains the capacity table's columns.
const capacityNote = "A probe passes when it keeps up, its window is steady, no record fails and every SLO percentile holds. " +
	"PROBES counts the probes at chosen rates (passed in parentheses); CEILING is what the unthrottled probe achieved; " +
	"PRECISION is the interval's relative half-width reached, against the target."

// capacityColumn is a column of the capacity table.
type capacityColumn struct {
	head, md string
	text     func(*results.Capacity) string
}

// capacityColumns are the capacity table's figure columns, after the
// scenario.
var capacityColumns = []capacityColumn{
	{"SUSTAINABLE MSG/S", "sustainable msg/s", func(c *results.Capacity) string { return sustainableCell(c, 1, thousands, true) }},
	{"MB/S", "MB/s", func(c *results.Capacity) string { return sustainableCell(c, mbPerRecord(c.Sustainable), f1, false) }},
	{"PROBES", "probes", func(c *results.Capacity) string { return fmt.Sprintf("%d (%d passed)", c.Probes, c.Passes) }},
	{"CEILING MSG/S", "ceiling msg/s", func(c *results.Capacity) string {
		if c.CeilingRecordsPerS <= 0 {
			return none
		}
		return thousands(c.CeilingRecordsPerS)
	}},
	{"PRECISION", "precision", precisionCell},
}

// mbPerRecord is the MB/s of one record/s at the sustainable rate (0 when
// unknown).
func mbPerRecord(s results.Sustainable) float64 {
	if !(s.RecordsPerS > 0) {
		return 0
	}
	return s.MBPerS / s.RecordsPerS
}

// sustainableCell renders a sustainable rate scaled by k with f: "19,800
// [18,900, 20,700]" (the interval only with interval), or, when the probes
// do not close the interval (stats.Threshold.Edge), the bound they do
// show: "< 1,200 (open below: not yet bounded by the probes)" under the
// interval's top, "> 45,000 (open above: not yet bounded by the probes)"
// over its bottom. The open end is not shown: no probe puts it there. With
// no probe at a chosen rate, or no scale, nothing is known: "-".
func sustainableCell(c *results.Capacity, k float64, f func(float64) string, interval bool) string {
	s := c.Sustainable
	if c.Probes == 0 || k == 0 {
		return none
	}
	switch s.Edge {
	case stats.EdgeBelow:
		out := "< " + f(s.Hi*k)
		if interval {
			out += " (open below: not yet bounded by the probes)"
		}
		return out
	case stats.EdgeAbove:
		out := "> " + f(s.Lo*k)
		if interval {
			out += " (open above: not yet bounded by the probes)"
		}
		return out
	}
	out := f(s.RecordsPerS * k)
	if interval {
		out += " [" + f(s.Lo*k) + ", " + f(s.Hi*k) + "]"
	}
	return out
}

// precisionCell is the precision reached against its target: "±4.5 %
// (target ±5 %, met)"; "-" for a reached precision that is not finite.
func precisionCell(c *results.Capacity) string {
	p := c.Precision
	reached := none
	if p.Reached >= 0 {
		reached = "±" + strconv.FormatFloat(p.Reached*100, 'f', 1, 64) + " %"
	}
	met := "not met"
	if p.Met {
		met = "met"
	}
	return fmt.Sprintf("%s (target ±%s %%, %s)", reached, trimFloat(p.Target*100), met)
}

// capacityTableOf is the capacity answer cs as a table, one row per
// scenario named by its label in scs (its ID when scs lacks it).
func capacityTableOf(cs []results.Capacity, scs []scenario, c results.CapacityPlan, level float64) *extraTable {
	labels := map[string]string{}
	for i := range scs {
		labels[scs[i].ID] = scs[i].Label
	}
	t := &extraTable{Title: capacityTitle(c, level), Note: capacityNote, Head: []string{"SCENARIO"}, MD: []string{"scenario"}, KeyCols: 1}
	for _, col := range capacityColumns {
		t.Head, t.MD = append(t.Head, col.head), append(t.MD, col.md)
	}
	for i := range cs {
		label, ok := labels[cs[i].ScenarioID]
		if !ok {
			label = cs[i].ScenarioID
		}
		row := extraRow{Cells: []string{label}}
		for _, col := range capacityColumns {
			row.Cells = append(row.Cells, col.text(&cs[i]))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// problemNotes are, in a capacity run (which has no results table and so
// no STATUS column), a line per scenario some of whose trials failed or
// violated, followed by the numbered notes with the full errors.
func problemNotes(scs []scenario) (lines, notes []string) {
	for i := range scs {
		s := &scs[i]
		var status string
		status, notes = statusCell(s.ScenarioStats, s.Label, notes)
		if len(s.Failures) > 0 || len(s.Violated) > 0 {
			lines = append(lines, s.Label+": "+status)
		}
	}
	return lines, notes
}
