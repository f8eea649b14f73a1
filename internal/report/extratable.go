package report

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
)

// extraTable is a table beside the results table, built by its own
// concern (the capacity answer, latency against offered rate) from its
// own column list, and rendered alike by the terminal table, Markdown and
// report.html: its title, its columns, rows, and a note.
type extraTable struct {
	// Title heads the table: a line ending in ":" in the terminal, a bold
	// paragraph in Markdown, an <h3> in report.html.
	Title string
	// Note explains the figures: under the table in the terminal and
	// Markdown, above it in report.html.
	Note string
	// Head are the terminal's and report.html's headers, MD Markdown's.
	Head, MD []string
	// KeyCols is how many leading columns are text (left-aligned).
	KeyCols int
	// StatusHead and StatusMD, when set, head a last text column of
	// judgements (a probe's pass or failure), which may be long and so
	// comes last, as STATUS does in the results table.
	StatusHead, StatusMD string
	Rows                 []extraRow
}

// extraRow is a row of an extraTable.
type extraRow struct {
	Cells []string
	// Status is the last column's cell; Failed marks a failure (red in
	// report.html).
	Status string
	Failed bool
}

// text appends t to b as the terminal shows it, after a blank line when
// b already holds something.
func (t *extraTable) text(b *strings.Builder) error {
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	b.WriteString(t.Title + ":\n")
	tw := tabwriter.NewWriter(b, 0, 8, 2, ' ', 0)
	head := t.Head
	if t.StatusHead != "" {
		head = append(slices.Clone(head), t.StatusHead)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, r := range t.Rows {
		cells := r.Cells
		if t.StatusHead != "" {
			cells = append(slices.Clone(cells), r.Status)
		}
		fmt.Fprintln(tw, strings.TrimRight(strings.Join(cells, "\t"), "\t"))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", strings.ToLower(t.Head[0]), err)
	}
	if t.Note != "" {
		b.WriteString(t.Note + "\n")
	}
	return nil
}

// markdown appends t to b as Markdown, after a blank line when b already
// holds something.
func (t *extraTable) markdown(b *strings.Builder) {
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	b.WriteString("**" + mdEscape(t.Title) + "**\n\n")
	head, align := slices.Clone(t.MD), make([]string, len(t.MD))
	for i := range align {
		align[i] = "--:"
		if i < t.KeyCols {
			align[i] = ":--"
		}
	}
	if t.StatusMD != "" {
		head, align = append(head, t.StatusMD), append(align, ":--")
	}
	mdRow(b, head)
	mdRow(b, align)
	for _, r := range t.Rows {
		cells := slices.Clone(r.Cells)
		for i := 0; i < t.KeyCols && i < len(cells); i++ {
			if cells[i] != "" {
				cells[i] = "`" + cells[i] + "`"
			}
		}
		if t.StatusMD != "" {
			cells = append(cells, r.Status)
		}
		mdRow(b, cells)
	}
	if t.Note != "" {
		b.WriteString("\n" + mdEscape(t.Note) + "\n")
	}
}

// page is t as one of report.html's tables.
func (t *extraTable) page() pageTable {
	pt := pageTable{Heading: t.Title, Note: t.Note, Header: slices.Clone(t.Head), KeyCols: t.KeyCols, Status: t.StatusHead != ""}
	if pt.Status {
		pt.Header = append(pt.Header, t.StatusHead)
	}
	for _, r := range t.Rows {
		cells := make([]string, len(r.Cells))
		for i, c := range r.Cells {
			cells[i] = c
			if i >= t.KeyCols {
				cells[i] = wrapFigure(c)
			}
		}
		pt.Rows = append(pt.Rows, pageRow{Cells: cells, Status: r.Status, Failed: r.Failed})
	}
	return pt
}
