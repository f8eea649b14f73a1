package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// Table writes a summary of recs with one row per scenario, in the order
// scenarios first appear. Warm-up trials are left out. A scenario with
// several measured trials shows the mean of its successful trials (TRIALS
// says how many were measured) as "score ± error", the error being the
// half-width of the Student's t confidence interval of the mean at
// stats.DefaultConfidence (as JMH prints); with one successful trial there
// is no error to show. Latency percentiles are those of the trials' merged
// histograms when every trial carries one, with the error of the per-trial
// percentiles. Columns (see columns): the scenario's matrix values, the
// record counts, elapsed time, throughput in messages and megabytes per
// second, send→ack latency percentiles, the topic's size on disk (one
// replica per partition) and the compression ratio (uncompressed /
// compressed); then, when some scenario has them, CPU cost, the proxies'
// figures and the delivery audit.
//
// A throughput followed by "!" belongs to a scenario some of whose trials
// were not steady; a line under the table says how many and why.
//
// STATUS comes last so that an error, however long, never widens the
// figure columns: a scenario whose every trial failed shows its record
// counts, "-" for the figures, and "FAILED: <first line of the error> [n]";
// footnote [n] below the table gives the full error. A scenario where only
// some trials failed shows the mean of the rest and a footnote too.
func Table(w io.Writer, recs []results.Record) error {
	v, err := newView(recs, nil)
	if err != nil {
		return fmt.Errorf("table: %w", err)
	}
	return v.table(w)
}

// table renders the table of v, then the latency against offered rate of
// its rate-limited trials, then its Findings when it has a plan. A
// capacity run shows its capacity table instead of the results table
// (capacity.go).
func (v *view) table(w io.Writer) error {
	var b strings.Builder
	if err := v.layout.text(v, &b); err != nil {
		return err
	}
	for _, t := range v.extraTables() {
		if err := t.text(&b); err != nil {
			return err
		}
	}
	v.layout.textAfter(v, &b)
	v.findingsText(&b)
	v.adviceTextOut(&b)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}

// problemsText appends, in a capacity run, the scenarios whose trials
// failed or violated and the notes with their full errors.
func problemsText(b *strings.Builder, scs []scenario) {
	lines, notes := problemNotes(scs)
	if len(lines) == 0 {
		return
	}
	b.WriteString("\n" + strings.Join(lines, "\n") + "\n")
	for i, n := range notes {
		fmt.Fprintf(b, "[%d] %s\n", i+1, n)
	}
}

// resultsText appends the results table, one row per scenario, with its
// steady-state notes and the footnotes of its failures.
func (v *view) resultsText(b *strings.Builder) error {
	cols := shown(inTable, v.scs)
	header := []string{"SCENARIO"}
	for _, c := range cols {
		header = append(header, c.head)
	}
	header = append(header, "STATUS")
	tw := tabwriter.NewWriter(b, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	var notes []string
	for i := range v.scs {
		s := &v.scs[i]
		var status string
		status, notes = statusCell(s.ScenarioStats, s.Label, notes)
		cells := []string{s.Label}
		for _, c := range cols {
			cells = append(cells, c.text(s))
		}
		fmt.Fprintln(tw, strings.Join(append(cells, status), "\t"))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	if st := steadyNotes(v.scs); len(st) > 0 {
		b.WriteString("\n" + strings.Join(st, "\n") + "\n")
	}
	if len(notes) > 0 {
		b.WriteString("\n")
		for i, n := range notes {
			fmt.Fprintf(b, "[%d] %s\n", i+1, n)
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
func footnotes(label string, fails []summary.Failure) []string {
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
		n := strconv.Itoa(f.Trial)
		if f.Life > 0 {
			n += fmt.Sprintf(" (life %d)", f.Life+1)
		}
		trials[msg] = append(trials[msg], n)
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

// statusCell is a scenario's STATUS: "ok", its failures, or its delivery
// violations, with footnote markers; it appends the footnotes' texts to
// notes. Failures come first: a scenario that both failed and violated
// shows both.
func statusCell(s *summary.ScenarioStats, label string, notes []string) (string, []string) {
	total := len(s.Failures) + s.Trials
	var parts []string
	if len(s.Failures) > 0 {
		first := len(notes) + 1
		notes = append(notes, footnotes(label, s.Failures)...)
		refs := footnoteRefs(first, len(notes))
		if s.Trials == 0 {
			parts = append(parts, "FAILED: "+shortError(s.Failures[0].Error)+" "+refs)
		} else {
			parts = append(parts, fmt.Sprintf("%d of %d trials FAILED: %s %s",
				len(s.Failures), total, shortError(s.Failures[0].Error), refs))
		}
	}
	if len(s.Violated) > 0 {
		first := len(notes) + 1
		notes = append(notes, footnotes(label, s.Violated)...)
		parts = append(parts, fmt.Sprintf("%d of %d trials VIOLATED: %s %s",
			len(s.Violated), total, shortError(s.Violated[0].Error), footnoteRefs(first, len(notes))))
	}
	switch {
	case len(parts) > 0:
		return strings.Join(parts, "; "), notes
	case s.Trials == 0 && s.Interrupted > 0:
		return "interrupted", notes
	}
	return "ok", notes
}
