package report

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/secret"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// HTMLFile is the name of the HTML report in a run directory.
const HTMLFile = "report.html"

//go:embed templates/report.html.tmpl templates/table.html.tmpl templates/style.css
var templateFS embed.FS

// pageTemplate is report.html's template, with the table it draws every
// table with, parsed once.
var pageTemplate = template.Must(template.ParseFS(templateFS, "templates/report.html.tmpl", "templates/table.html.tmpl"))

// HTMLInput is what report.html shows.
type HTMLInput struct {
	// Title heads the page; empty means "prodlab: <experiment> (<run>)"
	// from the records.
	Title string
	// ExperimentYAML is the experiment as run (experiment.yaml).
	ExperimentYAML string
	// Env is the environment saved when the run started; nil when the run
	// saved none: the page then names the versions the records give and
	// says the machine is unknown.
	Env *Env
	// Plan, when the run has one, adds the Findings near the top.
	Plan    *results.Plan
	Records []results.Record
}

// page is the template's data.
type page struct {
	Title, Subtitle, Confidence string
	CSS                         template.CSS
	Findings                    []pageFinding
	FindingsTitle               string
	// Forest is the findings picture (forestSVG), nil without findings.
	Forest *pageChart
	// Hints say how an undecided finding could be decided (view.hints).
	Hints   []string
	HasPlan bool
	// Advice is an advise run's answer, nil otherwise.
	Advice *adviceSection
	// CapacityRun drops the results table's note: a capacity run's Tables
	// are the capacity table and its probes, each with a note of its own.
	CapacityRun bool
	Tables      []pageTable
	Steady      []string
	Errors      []string
	// Extra are the tables after the results (latency against offered
	// rate), each with its heading and note.
	Extra     []pageTable
	Charts    []pageChart
	Timelines []pageChart
	Env       []pageEnv
	YAML      string
}

// pageTable is one results table: the scenario's columns, then figures.
type pageTable struct {
	// Heading, when set, heads the table (the second one); Note, when
	// set, explains it under the heading.
	Heading, Note string
	Header        []string
	// KeyCols is how many leading columns are text (the scenario).
	KeyCols int
	Rows    []pageRow
	// Status says whether the rows end with the STATUS cell.
	Status bool
}

type pageRow struct {
	Cells  []string
	Status string
	Failed bool
}

type pageChart struct {
	ID  string
	SVG template.HTML
	// Caption, when set, is a note under the chart.
	Caption string
}

type pageEnv struct{ Name, Value string }

type pageFinding struct {
	Question, Sentence, Kind, Published string
}

// HTML writes report.html: a self-contained page (inline CSS, inline SVG
// charts, no scripts, no network references) with the Findings when the
// run has a plan, the results table (the report.html columns of the
// registry, audit and proxies included when they ran), the table and
// chart of latency against offered rate when trials were rate-limited
// (load.go, loadchart.go), the charts the matrix calls for (see charts),
// each scenario's timelines, the environment and the experiment. A
// capacity run shows its capacity table and its probes instead of the
// results table, and only the charts against offered rate (capacity.go).
// It can be opened from disk or attached to an issue as is.
func HTML(w io.Writer, in HTMLInput) error {
	v, err := newView(in.Records, in.Plan)
	if err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	css, err := fs.ReadFile(templateFS, "templates/style.css")
	if err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	all := make([]summary.ScenarioStats, len(v.scs))
	for i := range v.scs {
		all[i] = *v.scs[i].ScenarioStats
	}
	p := page{
		Title:      in.Title,
		Subtitle:   subtitle(in.Records, all),
		Confidence: stats.Percent(stats.DefaultConfidence),
		CSS:        template.CSS(css),
		YAML:       in.ExperimentYAML,
		Env:        envRows(in.Env, in.Records),
		Steady:     steadyNotes(v.scs),
		HasPlan:    v.hasFindings(),
	}
	if v.plan != nil {
		p.FindingsTitle, p.Hints = v.findingsTitle(), v.hints()
		for _, f := range v.findings {
			p.Findings = append(p.Findings, pageFinding{Question: orQuestion(f), Sentence: f.Sentence, Kind: f.Kind, Published: f.Published})
		}
		if len(v.findings) > 0 {
			p.Forest = forestChart(v.forest(), v.plan.Level)
		}
	}
	if v.advice != nil {
		s := adviceText(v.advice, v.plan)
		p.Advice = &s
	}
	if p.Title == "" {
		p.Title = defaultTitle(in.Records)
	}
	// The SVG is built from escaped text only (see esc in svg.go).
	cs := v.layout.html(v, &p, all)
	if v.advice != nil {
		if c := adviceChart(v.advice, v.plan); c != nil {
			cs = append([]chart{*c}, cs...)
		}
	}
	for _, c := range append(cs, loadCharts(v.load, v.plan)...) {
		p.Charts = append(p.Charts, pageChart{ID: c.ID, SVG: template.HTML(c.SVG), Caption: c.Caption})
	}
	for _, c := range timelineCharts(v.scs) {
		p.Timelines = append(p.Timelines, pageChart{ID: c.ID, SVG: template.HTML(c.SVG)})
	}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, p); err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	return nil
}

// tables fills the page's results tables: the figures and the status,
// then, when they ran, the columns with a side group (partitions,
// producers, CPU cost, the proxies' figures, the delivery audit) in a
// second table headed by their groups, so that each fits a 1280 px window
// without a horizontal scroll.
func (p *page) tables(scs []scenario, keys []string, cols []column) {
	var main, side []column
	var groups []string
	for _, c := range cols {
		if c.side == "" {
			main = append(main, c)
			continue
		}
		side = append(side, c)
		if !slices.Contains(groups, c.side) {
			groups = append(groups, c.side)
		}
	}
	p.Tables = append(p.Tables, p.table(scs, keys, main, true))
	if len(side) > 0 {
		t := p.table(scs, keys, side, false)
		t.Heading = sideHeading(groups)
		p.Tables = append(p.Tables, t)
	}
}

// sideHeading heads the second table: "Partitions, CPU cost and delivery
// audit".
func sideHeading(groups []string) string {
	h := groups[0]
	if n := len(groups); n > 1 {
		h = strings.Join(groups[:n-1], ", ") + " and " + groups[n-1]
	}
	return strings.ToUpper(h[:1]) + h[1:]
}

// table returns a results table: one column per matrix key rather than a
// long "k=v k=v" label (a zero-width space after each dot lets long
// property names wrap), then cols and, with status, the status (whose
// failure notes it adds to the page's errors). A figure's cell may wrap
// only before its "± error" (see wrapFigure).
func (p *page) table(scs []scenario, keys []string, cols []column, status bool) pageTable {
	t := pageTable{KeyCols: max(len(keys), 1), Status: status}
	for _, k := range keys {
		t.Header = append(t.Header, strings.ReplaceAll(k, ".", ".\u200b"))
	}
	if len(keys) == 0 {
		t.Header = append(t.Header, "SCENARIO")
	}
	for _, c := range cols {
		t.Header = append(t.Header, c.head)
	}
	if status {
		t.Header = append(t.Header, "STATUS")
	}
	for i := range scs {
		s := &scs[i]
		row := pageRow{}
		for _, k := range keys {
			val, ok := s.Values[k]
			if !ok {
				row.Cells = append(row.Cells, none)
				continue
			}
			row.Cells = append(row.Cells, formatValue(val))
		}
		if len(keys) == 0 {
			row.Cells = append(row.Cells, s.Label)
		}
		for _, c := range cols {
			row.Cells = append(row.Cells, wrapFigure(c.text(s)))
		}
		if status {
			row.Status, p.Errors = statusCell(s.ScenarioStats, s.Label, p.Errors)
			row.Failed = len(s.Failures) > 0 || len(s.Violated) > 0
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// wrapFigure keeps a figure's number with its unit and its "±" with the
// error (non-breaking spaces), so that a narrow column wraps "24,489 ±
// 2,272" as "24,489" over "± 2,272", never inside a value; text cells
// (an EMULATED label) still wrap between words.
func wrapFigure(cell string) string {
	cell = numberUnit.ReplaceAllString(cell, "$1\u00a0$2")
	return strings.ReplaceAll(cell, "± ", "±\u00a0")
}

// numberUnit matches the space between a number and its unit ("97.3 MiB").
var numberUnit = regexp.MustCompile(`(\d) (\pL)`)

// writeHTML writes dir/report.html whole.
func writeHTML(dir string, recs []results.Record, env *Env, plan *results.Plan) error {
	y, err := os.ReadFile(filepath.Join(dir, results.ExperimentFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("html report: %w", err)
	}
	var b bytes.Buffer
	if err := HTML(&b, HTMLInput{ExperimentYAML: string(y), Env: env, Plan: plan, Records: recs}); err != nil {
		return err
	}
	if err := writeFile(dir, HTMLFile, b.Bytes()); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	return nil
}

// writeFile writes dir/name through a temporary file and a rename, every
// secret the process remembers scrubbed from it (a trial's error quoting
// one, rendered from the records in memory).
func writeFile(dir, name string, data []byte) error {
	switch filepath.Ext(name) {
	case ".json":
		data = secret.ScrubJSON(data)
	case ".html":
		data = []byte(secret.ScrubHTML(string(data)))
	default:
		data = []byte(secret.Scrub(string(data)))
	}
	tmp := filepath.Join(dir, "."+name+".tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		_ = os.Remove(tmp) // best effort: the rename error is the one to report
		return err
	}
	return nil
}

// defaultTitle is "prodlab: <experiment> (<run>)" from the first record.
func defaultTitle(recs []results.Record) string {
	if len(recs) == 0 {
		return "prodlab report"
	}
	t := "prodlab: " + recs[0].Experiment
	if recs[0].Run != "" {
		t += " (" + recs[0].Run + ")"
	}
	return t
}

// subtitle counts scenarios and trials.
func subtitle(recs []results.Record, scs []summary.ScenarioStats) string {
	warm, failed := 0, 0
	for _, r := range recs {
		switch {
		case r.Warmup:
			warm++
		case r.Status == results.StatusFailed:
			failed++
		}
	}
	s := fmt.Sprintf("%d scenarios, %d trials (%d failed", len(scs), len(recs)-warm, failed)
	if warm > 0 {
		s += fmt.Sprintf(", %d warm-up trials not counted", warm)
	}
	return s + ")"
}
