package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// markdownHeader and markdownAlign are the columns of Markdown: text left,
// figures right.
var (
	markdownHeader = []string{"scenario", "trials", "msg/s", "MB/s", "p50 ms", "p99 ms", "p99.9 ms", "disk", "ratio", "status"}
	markdownAlign  = []string{":--", "--:", "--:", "--:", "--:", "--:", "--:", "--:", "--:", ":--"}
)

// Markdown writes a GitHub-flavoured Markdown table with one row per
// scenario, figures as "score ± error" like Table, followed by a numbered
// list of the full errors of failed trials. Pipes in cells are escaped.
func Markdown(w io.Writer, recs []results.Record) error {
	scs, err := stats.ByScenario(recs)
	if err != nil {
		return fmt.Errorf("markdown: %w", err)
	}
	extra := extraColumns(scs)
	var b strings.Builder
	last := len(markdownHeader) - 1
	header := append(append(append([]string(nil), markdownHeader[:last]...), extra.header()...), markdownHeader[last])
	align := append([]string(nil), markdownAlign[:last]...)
	for range extra.header() {
		align = append(align, "--:")
	}
	mdRow(&b, header)
	mdRow(&b, append(align, markdownAlign[last]))
	var notes []string
	for i := range scs {
		s := &scs[i]
		label := statsLabel(s)
		var status string
		status, notes = statusCell(s, label, notes)
		mb := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
		cells := []string{"`" + label + "`", strconv.Itoa(s.Trials + len(s.Failures)),
			withErr(s.Throughput, thousands), withErr(s.MBps, mb),
			latencyCell(s.Latency.P50, s.P50), latencyCell(s.Latency.P99, s.P99), latencyCell(s.Latency.P999, s.P999),
			withErr(s.DiskBytes, iecBytes), withErr(s.Ratio, ratio)}
		if s.Trials == 0 {
			for j := 2; j < len(cells); j++ {
				cells[j] = none
			}
		}
		cells = append(append(cells, extra.cells(s)...), status)
		mdRow(&b, cells)
	}
	if len(notes) > 0 {
		b.WriteString("\n")
		for i, n := range notes {
			// A numbered list item; continuation lines indented under it.
			fmt.Fprintf(&b, "%d. %s\n", i+1, strings.ReplaceAll(n, "\n    ", "\n   "))
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write markdown: %w", err)
	}
	return nil
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
