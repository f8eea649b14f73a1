package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
)

// Markdown writes a GitHub-flavoured Markdown table with one row per
// scenario and the Markdown columns of the registry (see columns), figures
// as "score ± error" like Table, followed by the steady-state notes and a
// numbered list of the full errors of failed trials. Pipes in cells are
// escaped.
func Markdown(w io.Writer, recs []results.Record) error {
	v, err := newView(recs, nil)
	if err != nil {
		return fmt.Errorf("markdown: %w", err)
	}
	return v.markdown(w)
}

// markdown renders v as Markdown: the results table (a capacity run's
// capacity table instead), the latency against offered rate of its
// rate-limited trials, and its Findings when it has a plan.
func (v *view) markdown(w io.Writer) error {
	var b strings.Builder
	v.layout.markdown(v, &b)
	for _, t := range v.extraTables() {
		t.markdown(&b)
	}
	v.layout.markdownAfter(v, &b)
	v.findingsMarkdown(&b)
	v.adviceMarkdown(&b)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write markdown: %w", err)
	}
	return nil
}

// problemsMarkdown appends, in a capacity run, the scenarios whose trials
// failed or violated and a numbered list of their full errors.
func problemsMarkdown(b *strings.Builder, scs []scenario) {
	lines, notes := problemNotes(scs)
	if len(lines) == 0 {
		return
	}
	b.WriteString("\n")
	for _, l := range lines {
		b.WriteString(mdEscape(l) + "  \n")
	}
	mdNotes(b, notes)
}

// mdNotes appends notes as a numbered list, continuation lines indented
// under each item, after a blank line.
func mdNotes(b *strings.Builder, notes []string) {
	if len(notes) == 0 {
		return
	}
	b.WriteString("\n")
	for i, n := range notes {
		fmt.Fprintf(b, "%d. %s\n", i+1, strings.ReplaceAll(n, "\n    ", "\n   "))
	}
}

// resultsMarkdown appends the results table, one row per scenario, with
// its steady-state notes and the full errors of its failures.
func (v *view) resultsMarkdown(b *strings.Builder) {
	cols := shown(inMarkdown, v.scs)
	header, align := []string{"scenario"}, []string{":--"}
	for _, c := range cols {
		header, align = append(header, c.md), append(align, "--:")
	}
	mdRow(b, append(header, "status"))
	mdRow(b, append(align, ":--"))
	var notes []string
	for i := range v.scs {
		s := &v.scs[i]
		var status string
		status, notes = statusCell(s.ScenarioStats, s.Label, notes)
		cells := []string{"`" + s.Label + "`"}
		for _, c := range cols {
			cells = append(cells, c.text(s))
		}
		mdRow(b, append(cells, status))
	}
	if st := steadyNotes(v.scs); len(st) > 0 {
		b.WriteString("\n")
		for _, n := range st {
			// A line break after each note, not one paragraph.
			b.WriteString(mdEscape(n) + "  \n")
		}
	}
	mdNotes(b, notes)
}

// mdEscape escapes the characters that would start Markdown markup inside
// a line of prose.
func mdEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "|", `\|`, "<", "&lt;").Replace(s)
}

// mdRow writes one table row, escaping pipes and line breaks in cells.
func mdRow(b *strings.Builder, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		c = strings.ReplaceAll(c, "|", `\|`)
		c = strings.ReplaceAll(c, "\n", " ")
		b.WriteString(" " + c + " |")
	}
	b.WriteString("\n")
}
