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
	var b strings.Builder
	mdRow(&b, markdownHeader)
	mdRow(&b, markdownAlign)
	var notes []string
	for i := range scs {
		s := &scs[i]
		label := statsLabel(s)
		status := "ok"
		if len(s.Failures) > 0 {
			first := len(notes) + 1
			notes = append(notes, footnotes(label, s.Failures)...)
			status = fmt.Sprintf("%d of %d FAILED: %s %s", len(s.Failures), len(s.Failures)+s.Trials,
				shortError(s.Failures[0].Error), footnoteRefs(first, len(notes)))
		}
		mb := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
		cells := []string{"`" + label + "`", strconv.Itoa(s.Trials + len(s.Failures)),
			withErr(s.Throughput, thousands), withErr(s.MBps, mb),
			latencyCell(s.Latency.P50, s.P50), latencyCell(s.Latency.P99, s.P99), latencyCell(s.Latency.P999, s.P999),
			withErr(s.DiskBytes, iecBytes), withErr(s.Ratio, ratio), status}
		if s.Trials == 0 {
			for j := 2; j < len(cells)-1; j++ {
				cells[j] = none
			}
		}
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
