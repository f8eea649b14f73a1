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
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// HTMLFile is the name of the HTML report in a run directory.
const HTMLFile = "report.html"

//go:embed templates/report.html.tmpl templates/style.css
var templateFS embed.FS

// pageTemplate is report.html's template, parsed once.
var pageTemplate = template.Must(template.ParseFS(templateFS, "templates/report.html.tmpl"))

// HTMLInput is what report.html shows.
type HTMLInput struct {
	// Title heads the page; empty means "prodlab: <experiment> (<run>)"
	// from the records.
	Title string
	// ExperimentYAML is the experiment as run (experiment.yaml).
	ExperimentYAML string
	Env            Env
	Records        []results.Record
}

// page is the template's data.
type page struct {
	Title, Subtitle, Confidence string
	CSS                         template.CSS
	Header                      []string
	// KeyCols is how many leading columns are text (the scenario).
	KeyCols int
	Rows    []pageRow
	Errors  []string
	Charts  []pageChart
	Env     []pageEnv
	YAML    string
}

type pageRow struct {
	Cells  []string
	Status string
	Failed bool
}

type pageChart struct {
	ID  string
	SVG template.HTML
}

type pageEnv struct{ Name, Value string }

// HTML writes report.html: a self-contained page (inline CSS, inline SVG
// charts, no scripts, no network references) with the results table, the
// charts the matrix calls for (see charts), the environment and the
// experiment. It can be opened from disk or attached to an issue as is.
func HTML(w io.Writer, in HTMLInput) error {
	scs, err := stats.ByScenario(in.Records)
	if err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	css, err := fs.ReadFile(templateFS, "templates/style.css")
	if err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	p := page{
		Title:      in.Title,
		Subtitle:   subtitle(in.Records, scs),
		Confidence: stats.Percent(stats.DefaultConfidence),
		CSS:        template.CSS(css),
		YAML:       in.ExperimentYAML,
		Env:        envRows(in.Env),
	}
	// One column per matrix key rather than a long "k=v k=v" label; a
	// zero-width space after each dot lets long property names wrap.
	keys := matrixKeys(scs)
	for _, k := range keys {
		p.Header = append(p.Header, strings.ReplaceAll(k, ".", ".\u200b"))
	}
	if len(keys) == 0 {
		p.Header = append(p.Header, "SCENARIO")
	}
	p.KeyCols = max(len(keys), 1)
	p.Header = append(p.Header, tableHeader[1:len(tableHeader)-1]...)
	p.Header = append(p.Header, "STATUS")
	if p.Title == "" {
		p.Title = defaultTitle(in.Records)
	}
	for i := range scs {
		s := &scs[i]
		label := statsLabel(s)
		row := pageRow{Status: "ok"}
		for _, k := range keys {
			v, ok := s.Values[k]
			if !ok {
				row.Cells = append(row.Cells, none)
				continue
			}
			row.Cells = append(row.Cells, formatValue(v))
		}
		cells := tableCells(s, label)
		if len(keys) > 0 {
			cells = cells[1:]
		}
		row.Cells = append(row.Cells, cells...)
		if len(s.Failures) > 0 {
			first := len(p.Errors) + 1
			p.Errors = append(p.Errors, footnotes(label, s.Failures)...)
			row.Failed = true
			row.Status = fmt.Sprintf("%d of %d trials FAILED: %s %s", len(s.Failures), len(s.Failures)+s.Trials,
				shortError(s.Failures[0].Error), footnoteRefs(first, len(p.Errors)))
		}
		p.Rows = append(p.Rows, row)
	}
	for _, c := range charts(scs) {
		// The SVG is built from escaped text only (see esc in svg.go).
		p.Charts = append(p.Charts, pageChart{ID: c.ID, SVG: template.HTML(c.SVG)})
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

// WriteRunHTML writes dir/report.html for recs, with dir/experiment.yaml
// when present. It writes a temporary file and renames it, so a reader
// never sees half a report.
func WriteRunHTML(dir string, recs []results.Record, env Env) error {
	y, err := os.ReadFile(filepath.Join(dir, results.ExperimentFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("html report: %w", err)
	}
	var b bytes.Buffer
	if err := HTML(&b, HTMLInput{ExperimentYAML: string(y), Env: env, Records: recs}); err != nil {
		return err
	}
	tmp := filepath.Join(dir, "."+HTMLFile+".tmp")
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, HTMLFile)); err != nil {
		_ = os.Remove(tmp) // best effort: the rename error is the one to report
		return fmt.Errorf("write html report: %w", err)
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
func subtitle(recs []results.Record, scs []stats.ScenarioStats) string {
	warm, failed := 0, 0
	for _, r := range recs {
		switch {
		case r.Warmup:
			warm++
		case r.Status != results.StatusOK:
			failed++
		}
	}
	s := fmt.Sprintf("%d scenarios, %d trials (%d failed", len(scs), len(recs)-warm, failed)
	if warm > 0 {
		s += fmt.Sprintf(", %d warm-up trials not counted", warm)
	}
	return s + ")"
}

// envRows lists the environment for the page.
func envRows(e Env) []pageEnv {
	or := func(s string) string {
		if s == "" {
			return "unknown"
		}
		return s
	}
	rows := []pageEnv{
		{"Kafka", or(strings.Join(e.Kafka, ", "))},
		{"Clients", or(strings.Join(e.Clients, ", "))},
		{"CPUs", or(cpus(e.CPUs))},
		{"OS", or(e.OS)},
		{"Java", or(e.Java)},
		{"Go", or(e.Go)},
	}
	if e.Note != "" {
		rows = append(rows, pageEnv{"Note", e.Note})
	}
	return rows
}

// cpus renders a CPU count, 0 being unknown.
func cpus(n int) string {
	if n <= 0 {
		return ""
	}
	return strconv.Itoa(n)
}
