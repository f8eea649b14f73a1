package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// tableHeader names the columns of Table.
var tableHeader = []string{
	"SCENARIO", "TRIALS", "SENT", "FAILED", "ELAPSED", "MSG/S", "MB/S",
	"P50 ms", "P99 ms", "P99.9 ms", "DISK", "RATIO", "STATUS",
}

// Table writes a summary of recs with one row per scenario, in the order
// scenarios first appear. Warm-up trials are left out. A scenario with
// several measured trials shows the mean of its successful trials (TRIALS
// says how many were measured) as "score ± error", the error being the
// half-width of the 99.9 % Student's t confidence interval of the mean (as
// JMH prints); with one successful trial there is no error to show.
// Latency percentiles are those of the trials' merged histograms when every
// trial carries one, with the error of the per-trial percentiles. Columns:
// the scenario's matrix values, the record counts, elapsed time, throughput
// in messages and megabytes per second, send→ack latency percentiles, the
// topic's size on disk (one replica per partition) and the compression
// ratio (uncompressed/compressed).
//
// STATUS comes last so that an error, however long, never widens the
// figure columns: a scenario whose every trial failed shows its record
// counts, "-" for the figures, and "FAILED: <first line of the error> [n]";
// footnote [n] below the table gives the full error. A scenario where only
// some trials failed shows the mean of the rest and a footnote too.
func Table(w io.Writer, recs []results.Record) error {
	scs, err := stats.ByScenario(recs)
	if err != nil {
		return fmt.Errorf("table: %w", err)
	}
	extra := extraColumns(scs)
	header := append(append([]string(nil), tableHeader[:len(tableHeader)-1]...), extra.header()...)
	header = append(header, tableHeader[len(tableHeader)-1])
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	var notes []string
	for i := range scs {
		s := &scs[i]
		label := statsLabel(s)
		var status string
		status, notes = statusCell(s, label, notes)
		cells := append(tableCells(s, label), extra.cells(s)...)
		fmt.Fprintln(tw, strings.Join(append(cells, status), "\t"))
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

// tableCells returns the row's cells before STATUS: the figures over
// successful trials, or counts and "-" when there are none.
func tableCells(s *stats.ScenarioStats, label string) []string {
	trials := strconv.Itoa(s.Trials + len(s.Failures))
	if s.Trials == 0 {
		var sent, failed float64
		for _, f := range s.Failures {
			sent += float64(f.Sent)
			failed += float64(f.FailedRecords)
		}
		n := float64(len(s.Failures))
		return []string{label, trials, thousands(sent / n), thousands(failed / n),
			none, none, none, none, none, none, none, none}
	}
	mb := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	return []string{
		label,
		trials,
		thousands(s.Sent.Mean),
		thousands(s.FailedRecords.Mean),
		seconds(s.ElapsedS.Mean),
		withErr(s.Throughput, thousands),
		withErr(s.MBps, mb),
		latencyCell(s.Latency.P50, s.P50),
		latencyCell(s.Latency.P99, s.P99),
		latencyCell(s.Latency.P999, s.P999),
		withErr(s.DiskBytes, iecBytes),
		withErr(s.Ratio, ratio),
	}
}

// withErr renders a summary's mean with f, followed by " ± error" when it
// has one (two or more trials).
func withErr(s stats.Summary, f func(float64) string) string {
	if s.N == 0 {
		return none
	}
	out := f(s.Mean)
	if s.HasErr() && out != none {
		e := f(s.Err)
		if e == none { // formatters that show 0 as "not measured"
			e = "0"
		}
		out += " ± " + e
	}
	return out
}

// latencyCell renders a merged-histogram percentile v with the error of the
// per-trial percentiles per.
func latencyCell(v float64, per stats.Summary) string {
	per.Mean = v
	return withErr(per, ms)
}

// footnotes returns one note per distinct error among the failed trials,
// naming the scenario and the trials that hit it.
func footnotes(label string, fails []stats.Failure) []string {
	var order []string
	trials := map[string][]string{}
	for _, f := range fails {
		msg := strings.TrimSpace(f.Error)
		if msg == "" {
			msg = "(no error message recorded)"
		}
		if _, seen := trials[msg]; !seen {
			order = append(order, msg)
		}
		trials[msg] = append(trials[msg], strconv.Itoa(f.Trial))
	}
	notes := make([]string, len(order))
	for i, msg := range order {
		which := "trial " + trials[msg][0]
		if len(trials[msg]) > 1 {
			which = "trials " + strings.Join(trials[msg], ", ")
		}
		// Indent continuation lines under the note's text.
		notes[i] = fmt.Sprintf("%s, %s: %s", label, which, strings.ReplaceAll(msg, "\n", "\n    "))
	}
	return notes
}

// statusCell is a scenario's STATUS: "ok", or its failures with footnote
// markers; it appends the footnotes' texts to notes.
func statusCell(s *stats.ScenarioStats, label string, notes []string) (string, []string) {
	if len(s.Failures) == 0 {
		return "ok", notes
	}
	first := len(notes) + 1
	notes = append(notes, footnotes(label, s.Failures)...)
	refs := footnoteRefs(first, len(notes))
	if s.Trials == 0 {
		return "FAILED: " + shortError(s.Failures[0].Error) + " " + refs, notes
	}
	return fmt.Sprintf("%d of %d trials FAILED: %s %s",
		len(s.Failures), len(s.Failures)+s.Trials, shortError(s.Failures[0].Error), refs), notes
}
