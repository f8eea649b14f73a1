package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/prodlab/prodlab/internal/textfmt"
)

// MarshalJSON writes a missing point as {"missing": true} and an unknown
// bound (a single trial's) as null: JSON has no NaN.
func (p Point) MarshalJSON() ([]byte, error) {
	if p.Missing {
		return []byte(`{"missing":true}`), nil
	}
	return json.Marshal(map[string]any{"value": jsonNum(p.Value), "lo": jsonNum(p.Lo), "hi": jsonNum(p.Hi), "n": p.N})
}

// MarshalJSON writes a change point with its run counted from 1, as the
// table and CSV count, and an undefined change (a level of 0) as null.
func (c SeriesShift) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]any{"run": c.Run + 1, "dir": c.Dir, "before": jsonNum(c.Before), "after": jsonNum(c.After),
		"change": jsonNum(c.Change), "change_in_points": c.Points, "p_value": jsonNum(c.PValue), "env_changed": c.Env})
}

// jsonNum is v, or nil (null) when it is not finite.
func jsonNum(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// HistoryJSON writes the history as one JSON document, for scripts.
func HistoryJSON(w io.Writer, h *History) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(h); err != nil {
		return fmt.Errorf("write history: %w", err)
	}
	return nil
}

// HistoryTable writes the runs (with what changed in their environment)
// and one line per series: its newest value and its change points, or
// "no change".
func HistoryTable(w io.Writer, h *History) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "history of %s: %d runs; change points by %s at p < %g (%d permutations, at least %d runs per level)\n",
		h.Experiment, len(h.Runs), h.Method.Name, h.Method.Alpha, h.Method.Permutations, h.Method.MinRuns)
	for i, r := range h.Runs {
		line := fmt.Sprintf("  run %d  %s", i+1, r.Dir)
		if r.Started != "" {
			line += "  " + r.Started
		}
		if len(r.Changed) > 0 {
			line += "  environment changed: " + strings.Join(r.Changed, "; ")
		}
		fmt.Fprintln(tw, line)
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "SERIES\tMETRIC\tNEWEST\tCHANGE POINTS")
	for i := range h.Series {
		s := &h.Series[i]
		fmt.Fprintf(tw, "%s\t%s (%s)\t%s\t%s\n", s.label(), s.Name, s.Unit, s.newest(), h.shiftsText(s))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write history: %w", err)
	}
	return nil
}

// label names the series: its scenario, or its finding.
func (s *Series) label() string {
	if s.Finding != "" {
		return "finding: " + s.Finding
	}
	return s.Scenario
}

// newest is the series' last value with its interval, or "-".
func (s *Series) newest() string {
	if len(s.Points) == 0 || s.Points[len(s.Points)-1].Missing {
		return "-"
	}
	p := s.Points[len(s.Points)-1]
	if math.IsNaN(p.Hi) {
		return fmtValue(p.Value)
	}
	return fmtValue(p.Value) + " ± " + fmtValue((p.Hi-p.Lo)/2)
}

// shiftsText says each change point: the run it starts at, the change of
// level, the p-value and whether the environment changed there too.
func (h *History) shiftsText(s *Series) string {
	if len(s.Changes) == 0 {
		return "no change"
	}
	parts := make([]string, len(s.Changes))
	for i, c := range s.Changes {
		parts[i] = fmt.Sprintf("%s → %s (%s) at run %d (p %.3g)", fmtValue(c.Before), fmtValue(c.After), c.changeText(), c.Run+1, c.PValue)
		if c.Env {
			parts[i] += ", environment changed there"
		}
	}
	return strings.Join(parts, "; ")
}

// changeText writes the change: "+12.3 %" of a metric, "+5.0 pp" of a
// finding's difference.
func (c SeriesShift) changeText() string {
	if c.Points {
		return fmt.Sprintf("%+.1f pp", c.Change)
	}
	return relText(c.Change)
}

// relText writes a relative change as "+12.3 %".
func relText(rel float64) string {
	if math.IsNaN(rel) || math.IsInf(rel, 0) {
		return "n/a"
	}
	return fmt.Sprintf("%+.1f %%", 100*rel)
}

// fmtValue writes a figure with four significant digits, thousands
// grouped: 41,750, 75.54, 0.1111.
func fmtValue(v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case math.Abs(v) >= 1000:
		return textfmt.Group(v, 0)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// HistoryCSV writes one row per series and run: the value, its
// interval, its trials and whether a change point starts there.
func HistoryCSV(w io.Writer, h *History) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"run", "dir", "started", "scenario", "finding", "metric", "unit", "value", "lo", "hi", "n", "change_point", "env_changed"})
	for i := range h.Series {
		s := &h.Series[i]
		starts := map[int]bool{}
		for _, c := range s.Changes {
			starts[c.Run] = true
		}
		for j, p := range s.Points {
			if p.Missing {
				continue
			}
			_ = cw.Write([]string{strconv.Itoa(j + 1), h.Runs[j].Dir, h.Runs[j].Started, s.Scenario, s.Finding, s.Metric, s.Unit,
				csvFloat(p.Value), csvFloat(p.Lo), csvFloat(p.Hi), strconv.Itoa(p.N),
				strconv.FormatBool(starts[j]), strconv.FormatBool(len(h.Runs[j].Changed) > 0)})
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write history: %w", err)
	}
	return nil
}

// csvFloat writes v in full, or empty when unknown.
func csvFloat(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// historyChart draws series s over the runs: each run's value with its
// interval, a line at each change point, a dashed one where the
// environment changed.
func (h *History) historyChart(i int) chart {
	s := &h.Series[i]
	pts := make([]datum, 0, len(s.Points))
	for j, p := range s.Points {
		if p.Missing {
			continue
		}
		pts = append(pts, datum{X: float64(j + 1), Y: p.Value, Err: (p.Hi - p.Lo) / 2,
			Title: fmt.Sprintf("run %d (%s): %s %s", j+1, h.Runs[j].Dir, fmtValue(p.Value), s.Unit)})
	}
	c := lineChart{ID: fmt.Sprintf("history-%d", i), Title: s.label() + ": " + s.Name, XLabel: "run", YLabel: s.Unit,
		Series: []lineSeries{{Name: s.Name, Points: pts}}, Markers: true}
	for j, r := range h.Runs {
		if len(r.Changed) > 0 {
			c.Marks = append(c.Marks, mark{X: float64(j+1) - 0.5, Class: "env", Title: "environment changed: " + strings.Join(r.Changed, "; ")})
		}
	}
	for _, ch := range s.Changes {
		c.Marks = append(c.Marks, mark{X: float64(ch.Run+1) - 0.5, Class: "change", Label: ch.changeText(),
			Title: fmt.Sprintf("change point: %s → %s (p %.3g)", fmtValue(ch.Before), fmtValue(ch.After), ch.PValue)})
	}
	return chart{ID: c.ID, SVG: c.svg(), Caption: h.shiftsText(s)}
}

// HistoryHTML writes the history as one self-contained page: the runs and
// a chart per series, the table's words under each.
func HistoryHTML(w io.Writer, h *History) error {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
	b.WriteString(template.HTMLEscapeString("history of " + h.Experiment))
	b.WriteString("</title><style>body{font:14px system-ui,sans-serif;margin:2em;max-width:1100px}svg{max-width:100%;height:auto}" +
		".env{stroke:#999;stroke-dasharray:4 3}.change{stroke:#c0392b}figure{margin:1.5em 0}</style></head><body>\n")
	var table bytes.Buffer
	if err := HistoryTable(&table, h); err != nil {
		return err
	}
	fmt.Fprintf(&b, "<h1>%s</h1>\n<pre>%s</pre>\n", template.HTMLEscapeString("history of "+h.Experiment), template.HTMLEscapeString(table.String()))
	for i := range h.Series {
		c := h.historyChart(i)
		// The SVG is built from escaped text only (see esc in svg.go).
		fmt.Fprintf(&b, "<figure id=\"%s\">%s<figcaption>%s</figcaption></figure>\n", c.ID, c.SVG, template.HTMLEscapeString(c.Caption))
	}
	b.WriteString("</body></html>\n")
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write history: %w", err)
	}
	return nil
}
