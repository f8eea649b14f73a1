package report

import (
	"io"
	"strings"

	"github.com/prodlab/prodlab/internal/summary"
)

// layout is how a run's report is laid out around its findings, by the
// run mode its plan records: the rounds' results table (steady rounds, a
// duet, an advisor race at a rate), or a capacity search's probes and
// answer (a capacity search, an advisor race by sustainable rate, whose
// plan has a capacity section). newView picks it once; every output
// format asks it.
type layout interface {
	// text and markdown write the main table and what follows the extra
	// tables (a capacity run's failed probes).
	text(v *view, b *strings.Builder) error
	textAfter(v *view, b *strings.Builder)
	markdown(v *view, b *strings.Builder)
	markdownAfter(v *view, b *strings.Builder)
	// html fills the page's tables and returns its charts of all.
	html(v *view, p *page, all []summary.ScenarioStats) []chart
	// perfTest writes the kafka-producer-perf-test lines.
	perfTest(v *view, w io.Writer) error
}

// roundsLayout lays out rounds of trials: the results table, charts of
// every scenario, perf-test lines per scenario.
type roundsLayout struct{}

func (roundsLayout) text(v *view, b *strings.Builder) error { return v.resultsText(b) }
func (roundsLayout) textAfter(*view, *strings.Builder)      {}
func (roundsLayout) markdown(v *view, b *strings.Builder)   { v.resultsMarkdown(b) }
func (roundsLayout) markdownAfter(*view, *strings.Builder)  {}

func (roundsLayout) html(v *view, p *page, all []summary.ScenarioStats) []chart {
	p.tables(v.scs, matrixKeys(all), shown(inHTML, v.scs))
	for _, t := range v.extraTables() {
		p.Extra = append(p.Extra, t.page())
	}
	return charts(all)
}

func (roundsLayout) perfTest(v *view, w io.Writer) error { return v.perfTestScenarios(w) }

// capacityLayout lays out a capacity search: its capacity table instead
// of the results table, the probes with their failures, no per-trial
// charts (the probes ran at different rates).
type capacityLayout struct{}

func (capacityLayout) text(v *view, b *strings.Builder) error { return v.capacityTable().text(b) }
func (capacityLayout) textAfter(v *view, b *strings.Builder)  { problemsText(b, v.scs) }
func (capacityLayout) markdown(v *view, b *strings.Builder)   { v.capacityTable().markdown(b) }
func (capacityLayout) markdownAfter(v *view, b *strings.Builder) {
	problemsMarkdown(b, v.scs)
}

func (capacityLayout) html(v *view, p *page, _ []summary.ScenarioStats) []chart {
	// The probes belong with the answer, before the failed trials.
	p.CapacityRun, p.Steady = true, nil
	p.Tables = []pageTable{v.capacityTable().page()}
	for _, t := range v.extraTables() {
		p.Tables = append(p.Tables, t.page())
	}
	_, p.Errors = problemNotes(v.scs)
	return nil
}

func (capacityLayout) perfTest(v *view, w io.Writer) error { return v.perfTestProbes(w) }
