package report

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/figures"
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
	s := adviceSection{Title: adviceTitle(plan)}
	s.Lines = append(s.Lines, a.Answer)
	if a.Pick == nil {
		return s
	}
	pick := fmt.Sprintf("pick: %s — %s", settingsText(a.Pick.Settings), scoreText(a.Pick.Sustainable, a.Pick.Score))
	if a.Pick.Held != "" {
		pick += ", held the load in " + a.Pick.Held
	}
	s.Lines = append(s.Lines, pick)
	if a.Pick.Constraints != "" {
		s.Lines = append(s.Lines, "constraints checked on the pick: "+a.Pick.Constraints)
	}
	for _, v := range a.Verdicts {
		on := ""
		if m, ok := summary.MetricByKey(v.Metric); ok {
			on = " on " + m.Name
		}
		s.Lines = append(s.Lines, fmt.Sprintf("against %s%s: %s", v.Against, on, v.Text))
	}
	if len(a.RunnersUp) > 0 {
		s.Lines = append(s.Lines, fmt.Sprintf("runners-up not told apart from the pick (%d):", len(a.RunnersUp)))
		for _, r := range a.RunnersUp {
			s.Lines = append(s.Lines, fmt.Sprintf("  %s — %s: %s", settingsText(r.Settings), scoreText(r.Sustainable, r.Score), r.Text))
		}
	}
	worse := "decided slower than the pick or not bracketed"
	if a.Pick.Score != nil {
		worse = "decided worse than the pick, did not hold the load, or had too few trials"
	}
	s.Lines = append(s.Lines, fmt.Sprintf("%d other candidates were %s", a.Dropped, worse))
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

// adviceTitle heads the advice: the objective and what must hold.
func adviceTitle(plan *results.Plan) string {
	ap := plan.Advise
	if ap.Objective != figures.ObjectiveSustainable {
		name := ap.Objective
		if m, ok := summary.MetricByKey(ap.Objective); ok {
			name = m.Name
		}
		hold := fmt.Sprintf("keeping up %g", ap.KeepUp)
		if len(ap.SLO) > 0 {
			hold += " and " + figures.SLOText(ap.SLO)
		}
		return fmt.Sprintf("Advice: the lowest %s at %s msg/s (%s)", name, textfmt.Group(ap.RecordsPerS, 0), hold)
	}
	if plan.Capacity != nil && len(plan.Capacity.SLO) > 0 {
		return "Advice: the highest sustainable rate under " + figures.SLOText(plan.Capacity.SLO)
	}
	return "Advice: the highest sustainable rate (keeping up alone)"
}

// scoreText writes a candidate's figure with its interval: a sustainable
// rate, or a rate objective's mean.
func scoreText(s *results.Sustainable, v *results.AdviceValue) string {
	switch {
	case s != nil:
		return fmt.Sprintf("sustainable rate %s msg/s [%s, %s]", textfmt.Group(s.RecordsPerS, 0), textfmt.Group(s.Lo, 0), textfmt.Group(s.Hi, 0))
	case v != nil:
		return fmt.Sprintf("%s %s %s [%s, %s] over %d trials", v.Metric, textfmt.Group(v.Mean, 2), v.Unit, textfmt.Group(v.Lo, 2), textfmt.Group(v.Hi, 2), v.Trials)
	}
	return "no figure"
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

// SettingNotes explains, for one client, how its driver applies each of a
// file of producer settings: intro is a comment line for the file's top
// ("" for none), notes[k] a comment above setting k ("" for none). The
// app layer supplies each client's (driver.SettingNotes), so that report
// renders without importing any driver.
type SettingNotes func(client string, props map[string]string) (intro string, notes map[string]string)

// writeAdvice writes an advise run's advice.json and, when there is a
// pick, advice.properties (with notes, when given); other runs have
// neither.
func writeAdvice(dir string, recs []results.Record, plan *results.Plan, notes SettingNotes) error {
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
	if err := writeFile(dir, results.AdvicePropertiesFile, []byte(propertiesText(a, plan.Advise.Client, notes))); err != nil {
		return fmt.Errorf("write %s: %w", results.AdvicePropertiesFile, err)
	}
	return nil
}

// propertiesText is advice.properties: the pick's producer settings with
// the client's names, the answer as a comment above them, and the client's
// notes (notes, when non-nil: for franz-go the kgo option of each) above
// each.
func propertiesText(a *results.Advice, client string, notes SettingNotes) string {
	var b strings.Builder
	b.WriteString("# prodlab advise: " + strings.ReplaceAll(a.Answer, "\n", " ") + "\n")
	if !a.Recommend {
		b.WriteString("# Not recommended over your current settings: no verdict said the pick is better.\n")
	}
	fmt.Fprintf(&b, "# %s\n", scoreText(a.Pick.Sustainable, a.Pick.Score))
	var per map[string]string
	if notes != nil {
		var intro string
		intro, per = notes(client, a.Pick.Properties)
		if intro != "" {
			b.WriteString("# " + intro + "\n")
		}
	}
	for _, k := range slices.Sorted(maps.Keys(a.Pick.Properties)) {
		if t := per[k]; t != "" {
			b.WriteString("# " + t + "\n")
		}
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
		d := datum{Y: c.LatencyMs, Err: math.NaN(),
			Title: fmt.Sprintf("%s: %s, %s %.1f ms", c.ScenarioID, scoreText(c.Sustainable, c.Score), c.Percentile, c.LatencyMs)}
		switch {
		case c.Sustainable != nil:
			d.X = c.Sustainable.RecordsPerS
		case c.Score != nil:
			d.X = c.Score.Mean
		}
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
	name, label := pct, pct+" from the intended send time"
	if p, ok := figures.SLOByKey(pct); ok {
		name, label = p.Name, p.Label()
	}
	c := &lineChart{ID: "chart-advice", Title: "Candidates: sustainable rate against " + name + " latency",
		XLabel: "sustainable rate (records/s)", YLabel: label + " at the highest passing probe (ms, log scale)",
		LogY: true, Markers: true, Series: []lineSeries{{Name: "Pareto front", Points: front}, {Name: "other candidates", Points: others, Dots: true}}}
	slo := map[string]float64{}
	if plan.Capacity != nil {
		slo = plan.Capacity.SLO
	}
	caption := "Each dot is a candidate (hover for its settings): no candidate on the Pareto front is beaten on both rate and latency by another. The latency is at each candidate's highest passing probe, so it is what the candidate showed near its own sustainable rate."
	if ap := plan.Advise; ap.Objective != figures.ObjectiveSustainable {
		m, _ := summary.MetricByKey(ap.Objective)
		c.Title = fmt.Sprintf("Candidates at %s msg/s: %s against %s latency", textfmt.Group(ap.RecordsPerS, 0), m.Name, name)
		c.XLabel = fmt.Sprintf("%s (%s), mean over trials", m.Name, m.Unit)
		c.YLabel = label + ", mean over trials (ms, log scale)"
		slo = ap.SLO
		caption = "Each dot is a candidate that held the load (hover for its settings): no candidate on the Pareto front is beaten on both figures by another; lower is better on both."
	}
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
	if bound, ok := slo[pct]; ok {
		c.Levels = []level{{Y: bound, Label: "SLO " + name + " ≤ " + strconv.FormatFloat(bound, 'f', -1, 64) + " ms"}}
	}
	return &chart{ID: c.ID, SVG: c.svg(), Caption: caption}
}
