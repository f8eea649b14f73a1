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

// markdown renders v as Markdown, with its Findings when it has a plan.
func (v *view) markdown(w io.Writer) error {
	cols := shown(inMarkdown, v.scs)
	header, align := []string{"scenario"}, []string{":--"}
	for _, c := range cols {
		header, align = append(header, c.md), append(align, "--:")
	}
	var b strings.Builder
	mdRow(&b, append(header, "status"))
	mdRow(&b, append(align, ":--"))
	var notes []string
	for i := range v.scs {
		s := &v.scs[i]
		var status string
		status, notes = statusCell(s.ScenarioStats, s.Label, notes)
		cells := []string{"`" + s.Label + "`"}
		for _, c := range cols {
			cells = append(cells, c.text(s))
		}
		mdRow(&b, append(cells, status))
	}
	if st := steadyNotes(v.scs); len(st) > 0 {
		b.WriteString("\n")
		for _, n := range st {
			// A line break after each note, not one paragraph.
			b.WriteString(mdEscape(n) + "  \n")
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n")
		for i, n := range notes {
			// A numbered list item; continuation lines indented under it.
			fmt.Fprintf(&b, "%d. %s\n", i+1, strings.ReplaceAll(n, "\n    ", "\n   "))
		}
	}
	v.findingsMarkdown(&b)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write markdown: %w", err)
	}
	return nil
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
