package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/prodlab/prodlab/internal/results"
)

// tableHeader names the columns of Table.
var tableHeader = []string{
	"SCENARIO", "TRIALS", "SENT", "FAILED", "ELAPSED", "MSG/S", "MB/S",
	"P50 ms", "P99 ms", "P99.9 ms", "DISK", "RATIO", "STATUS",
}

// Table writes a summary of recs with one row per scenario, in the order
// scenarios first appear. Warm-up trials are left out. A scenario with
// several measured trials shows the mean of its successful trials (TRIALS
// says how many were measured). Columns: the scenario's matrix values, the
// record counts, elapsed time, throughput in messages and megabytes per
// second, send→ack latency percentiles, the topic's size on disk (one replica
// per partition) and the compression ratio (uncompressed/compressed).
//
// STATUS comes last so that an error, however long, never widens the
// figure columns: a scenario whose every trial failed shows its record
// counts, "-" for the figures, and "FAILED: <first line of the error> [n]";
// footnote [n] below the table gives the full error. A scenario where only
// some trials failed shows the mean of the rest and a footnote too.
func Table(w io.Writer, recs []results.Record) error {
	groups := groupScenarios(recs)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(tableHeader, "\t"))
	var notes []string
	for _, g := range groups {
		status := "ok"
		if len(g.failed) > 0 {
			first := len(notes) + 1
			notes = append(notes, g.footnotes()...)
			refs := footnoteRefs(first, len(notes))
			if len(g.ok) == 0 {
				status = "FAILED: " + shortError(g.failed[0].Error) + " " + refs
			} else {
				status = fmt.Sprintf("%d of %d trials FAILED: %s %s",
					len(g.failed), len(g.failed)+len(g.ok), shortError(g.failed[0].Error), refs)
			}
		}
		fmt.Fprintln(tw, strings.Join(append(g.cells(), status), "\t"))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	if len(notes) > 0 {
		var b strings.Builder
		b.WriteString("\n")
		for i, n := range notes {
			fmt.Fprintf(&b, "[%d] %s\n", i+1, n)
		}
		if _, err := io.WriteString(w, b.String()); err != nil {
			return fmt.Errorf("write table footnotes: %w", err)
		}
	}
	return nil
}

// footnoteRefs renders the footnote markers first..last as "[1]" or "[1-3]".
func footnoteRefs(first, last int) string {
	if first == last {
		return "[" + strconv.Itoa(first) + "]"
	}
	return fmt.Sprintf("[%d-%d]", first, last)
}

// scenarioGroup is the measured trials of one scenario.
type scenarioGroup struct {
	label  string
	ok     []results.Record
	failed []results.Record
}

// groupScenarios collects the non-warm-up trials of each scenario, keeping
// the order in which scenarios first appear.
func groupScenarios(recs []results.Record) []*scenarioGroup {
	var order []*scenarioGroup
	byKey := map[string]*scenarioGroup{}
	for _, r := range recs {
		if r.Warmup {
			continue
		}
		label := scenarioLabel(r)
		key := r.ScenarioID
		if key == "" {
			key = label
		}
		g := byKey[key]
		if g == nil {
			g = &scenarioGroup{label: label}
			byKey[key] = g
			order = append(order, g)
		}
		if r.Status == results.StatusOK {
			g.ok = append(g.ok, r)
		} else {
			g.failed = append(g.failed, r)
		}
	}
	return order
}

// cells returns the row's cells before STATUS: the means over successful
// trials, or counts and "-" when there are none.
func (g *scenarioGroup) cells() []string {
	trials := strconv.Itoa(len(g.ok) + len(g.failed))
	if len(g.ok) == 0 {
		sent := mean(g.failed, func(r results.Record) float64 { return float64(r.Records.Sent) })
		failed := mean(g.failed, func(r results.Record) float64 { return float64(r.Records.Failed) })
		return []string{g.label, trials, thousands(sent), thousands(failed),
			none, none, none, none, none, none, none, none}
	}
	m := func(f func(results.Record) float64) float64 { return mean(g.ok, f) }
	return []string{
		g.label,
		trials,
		thousands(m(func(r results.Record) float64 { return float64(r.Records.Sent) })),
		thousands(m(func(r results.Record) float64 { return float64(r.Records.Failed) })),
		seconds(m(func(r results.Record) float64 { return r.ElapsedS })),
		thousands(m(func(r results.Record) float64 { return r.Throughput.RecordsPerS })),
		strconv.FormatFloat(m(func(r results.Record) float64 { return r.Throughput.MBPerS }), 'f', 1, 64),
		ms(m(func(r results.Record) float64 { return r.LatencyMs.P50 })),
		ms(m(func(r results.Record) float64 { return r.LatencyMs.P99 })),
		ms(m(func(r results.Record) float64 { return r.LatencyMs.P999 })),
		iecBytes(m(func(r results.Record) float64 { return float64(r.DiskBytes) })),
		ratio(m(func(r results.Record) float64 { return r.CompressionRatio })),
	}
}

// footnotes returns one note per distinct error among the failed trials,
// naming the scenario and the trials that hit it.
func (g *scenarioGroup) footnotes() []string {
	var order []string
	trials := map[string][]string{}
	for _, r := range g.failed {
		msg := strings.TrimSpace(r.Error)
		if msg == "" {
			msg = "(no error message recorded)"
		}
		if _, seen := trials[msg]; !seen {
			order = append(order, msg)
		}
		trials[msg] = append(trials[msg], strconv.Itoa(r.Trial))
	}
	notes := make([]string, len(order))
	for i, msg := range order {
		which := "trial " + trials[msg][0]
		if len(trials[msg]) > 1 {
			which = "trials " + strings.Join(trials[msg], ", ")
		}
		// Indent continuation lines under the note's text.
		notes[i] = fmt.Sprintf("%s, %s: %s", g.label, which, strings.ReplaceAll(msg, "\n", "\n    "))
	}
	return notes
}

// mean averages f over recs.
func mean(recs []results.Record, f func(results.Record) float64) float64 {
	if len(recs) == 0 {
		return 0
	}
	var sum float64
	for _, r := range recs {
		sum += f(r)
	}
	return sum / float64(len(recs))
}
