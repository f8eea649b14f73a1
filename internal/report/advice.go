package report

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/summary"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// The advice view: an advise run's answer (summary.Advice) as the
// terminal, Markdown and report.html show it, and the two files it
// leaves in the run directory, advice.json and advice.properties.

// adviceOf is the run's advice, nil outside an advise run.
func adviceOf(recs []results.Record, plan *results.Plan) *results.Advice {
	if plan == nil || plan.Advise == nil {
		return nil
	}
	a := summary.Advice(recs, *plan)
	return &a
}

// adviceSection is the advice as a heading and lines of plain text,
// the form every format renders.
type adviceSection struct {
	Title string
	Lines []string
}

// adviceText lays the advice out: the answer, the pick's settings and
// rate, its verdicts, the runners-up and why.
func adviceText(a *results.Advice, plan *results.Plan) adviceSection {
	s := adviceSection{Title: "Advice: the highest sustainable rate (keeping up alone)"}
	if plan.Capacity != nil && len(plan.Capacity.SLO) > 0 {
		s.Title = "Advice: the highest sustainable rate under " + summary.SLOText(plan.Capacity.SLO)
	}
	s.Lines = append(s.Lines, a.Answer)
	if a.Pick == nil {
		return s
	}
	s.Lines = append(s.Lines, fmt.Sprintf("pick: %s — %s", settingsText(a.Pick.Settings), rateText(a.Pick.Sustainable)))
	for _, v := range a.Verdicts {
		s.Lines = append(s.Lines, fmt.Sprintf("against %s: %s", v.Against, v.Text))
	}
	if len(a.RunnersUp) > 0 {
		s.Lines = append(s.Lines, fmt.Sprintf("runners-up not told apart from the pick (%d):", len(a.RunnersUp)))
		for _, r := range a.RunnersUp {
			s.Lines = append(s.Lines, fmt.Sprintf("  %s — %s: %s", settingsText(r.Settings), rateText(r.Sustainable), r.Text))
		}
	}
	s.Lines = append(s.Lines, fmt.Sprintf("%d other candidates were decided slower than the pick or not bracketed", a.Dropped))
	for _, w := range a.Why {
		s.Lines = append(s.Lines, "why: "+w)
	}
	s.Lines = append(s.Lines, "the pick's settings are in "+results.AdvicePropertiesFile)
	return s
}

// settingsText writes settings as "batch.size=65536 linger.ms=5", or
// "the client's defaults" when there are none.
func settingsText(m map[string]string) string {
	if len(m) == 0 {
		return "the client's defaults"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, " ")
}

// rateText writes a sustainable rate with its interval.
func rateText(s results.Sustainable) string {
	return fmt.Sprintf("%s msg/s [%s, %s]", textfmt.Group(s.RecordsPerS, 0), textfmt.Group(s.Lo, 0), textfmt.Group(s.Hi, 0))
}

// adviceTextOut appends the advice to a terminal table.
func (v *view) adviceTextOut(b *strings.Builder) {
	if v.advice == nil {
		return
	}
	s := adviceText(v.advice, v.plan)
	b.WriteString("\n" + s.Title + "\n")
	for _, l := range s.Lines {
		b.WriteString("  " + l + "\n")
	}
}

// adviceMarkdown appends the advice as a Markdown section.
func (v *view) adviceMarkdown(b *strings.Builder) {
	if v.advice == nil {
		return
	}
	s := adviceText(v.advice, v.plan)
	b.WriteString("\n### " + mdEscape(s.Title) + "\n\n")
	for _, l := range s.Lines {
		if rest, sub := strings.CutPrefix(l, "  "); sub {
			b.WriteString("  - " + mdEscape(rest) + "\n")
			continue
		}
		b.WriteString("- " + mdEscape(l) + "\n")
	}
}

// writeAdvice writes an advise run's advice.json and, when there is a
// pick, advice.properties; other runs have neither.
func writeAdvice(dir string, recs []results.Record, plan *results.Plan) error {
	a := adviceOf(recs, plan)
	if a == nil {
		return nil
	}
	if err := results.WriteAdvice(dir, *a); err != nil {
		return fmt.Errorf("write %s: %w", results.AdviceFile, err)
	}
	if a.Pick == nil {
		return nil
	}
	if err := writeFile(dir, results.AdvicePropertiesFile, []byte(propertiesText(a))); err != nil {
		return fmt.Errorf("write %s: %w", results.AdvicePropertiesFile, err)
	}
	return nil
}

// propertiesText is advice.properties: the pick's producer settings with
// Java names, the answer as a comment above them.
func propertiesText(a *results.Advice) string {
	var b strings.Builder
	b.WriteString("# prodlab advise: " + strings.ReplaceAll(a.Answer, "\n", " ") + "\n")
	if !a.Recommend {
		b.WriteString("# Not recommended over your current settings: no verdict said the pick is faster.\n")
	}
	fmt.Fprintf(&b, "# sustainable rate %s\n", rateText(a.Pick.Sustainable))
	for _, k := range slices.Sorted(maps.Keys(a.Pick.Properties)) {
		b.WriteString(k + "=" + a.Pick.Properties[k] + "\n")
	}
	return b.String()
}

// adviceChart draws the candidates of an advise run: sustainable rate
// against the SLO percentile at each one's highest passing probe (log
// scale), the Pareto front as a line, the pick marked and the SLO as a
// level; nil when no candidate has both figures.
func adviceChart(a *results.Advice, plan *results.Plan) *chart {
	var front, others, pick []datum
	pct := "p99"
	for _, c := range a.Candidates {
		if c.LatencyMs <= 0 {
			continue
		}
		pct = c.Percentile
		d := datum{X: c.Sustainable.RecordsPerS, Y: c.LatencyMs, Err: math.NaN(),
			Title: fmt.Sprintf("%s: %s msg/s [%s, %s], %s %.1f ms", c.ScenarioID, textfmt.Group(c.Sustainable.RecordsPerS, 0),
				textfmt.Group(c.Sustainable.Lo, 0), textfmt.Group(c.Sustainable.Hi, 0), c.Percentile, c.LatencyMs)}
		switch {
		case a.Pick != nil && c.ScenarioID == a.Pick.ScenarioID:
			pick = append(pick, d)
			if c.Pareto {
				front = append(front, d)
			}
		case c.Pareto:
			front = append(front, d)
		default:
			others = append(others, d)
		}
	}
	if len(front)+len(others) == 0 {
		return nil
	}
	slices.SortFunc(front, func(p, q datum) int { return cmp.Compare(p.X, q.X) })
	name := pct
	for _, p := range summary.SLOPercentiles {
		if p.Key == pct {
			name = p.Name
		}
	}
	c := &lineChart{ID: "chart-advice", Title: "Candidates: sustainable rate against " + name + " latency",
		XLabel: "sustainable rate (records/s)", YLabel: name + " from the intended send time at the highest passing probe (ms, log scale)",
		LogY: true, Markers: true, Series: []lineSeries{{Name: "Pareto front", Points: front}, {Name: "other candidates", Points: others, Dots: true}}}
	if len(pick) > 0 {
		c.Series = append(c.Series, lineSeries{Name: "pick", Points: pick, Dots: true})
	}
	xhi := 0.0
	for _, s := range c.Series {
		for _, p := range s.Points {
			xhi = math.Max(xhi, p.X)
		}
	}
	c.XTicks, _ = niceTicks(xhi, 6)
	if plan.Capacity != nil {
		if bound, ok := plan.Capacity.SLO[pct]; ok {
			c.Levels = []level{{Y: bound, Label: "SLO " + name + " ≤ " + strconv.FormatFloat(bound, 'f', -1, 64) + " ms"}}
		}
	}
	return &chart{ID: c.ID, SVG: c.svg(), Caption: "Each dot is a candidate (hover for its settings): no candidate on the Pareto front is beaten on both rate and latency by another. The latency is at each candidate's highest passing probe, so it is what the candidate showed near its own sustainable rate."}
}
