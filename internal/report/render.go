package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/summary"
)

// Output format names accepted by Render (and the --format flags).
const (
	FormatTable    = "table"
	FormatPerfTest = "perf-test"
	FormatCSV      = "csv"
	FormatJSON     = "json"
	FormatMarkdown = "markdown"
)

// formats maps each format name to its renderer, in the order Formats
// lists them.
var formats = []struct {
	name   string
	render func(*view, io.Writer) error
}{
	{FormatTable, (*view).table},
	{FormatPerfTest, (*view).perfTest},
	{FormatCSV, (*view).csv},
	{FormatJSON, (*view).json},
	{FormatMarkdown, (*view).markdown},
}

// view is what every format renders: the records, their scenarios and,
// when the run has a plan, its Findings; the rate-limited trials as
// latency against offered rate; and, in a capacity run, the capacity
// answer.
type view struct {
	recs     []results.Record
	scs      []scenario
	plan     *results.Plan
	findings []Finding
	// load are the curves of latency against offered rate (load.go), nil
	// without rate-limited trials; keepUp the share of the offered rate
	// that counts as keeping up.
	load   []loadCurve
	keepUp float64
	// capacity is the capacity answer (summary.Capacity) when the plan has
	// a capacity section; layout then lays the report out around it.
	capacity []results.Capacity
	layout   layout
	// advice is an advise run's answer (summary.Advice), nil otherwise.
	advice *results.Advice
}

// newView summarises recs; plan may be nil (no Findings).
func newView(recs []results.Record, plan *results.Plan) (*view, error) {
	scs, err := summarize(recs)
	if err != nil {
		return nil, err
	}
	v := &view{recs: recs, scs: scs, plan: plan, keepUp: keepUpOf(plan), layout: roundsLayout{}}
	v.load = loadCurves(recs, scs, v.keepUp)
	if plan != nil {
		v.findings = findings(recs, scs, *plan)
		if plan.Capacity != nil { // a capacity search's or a sustainable-rate advisor's
			v.layout = capacityLayout{}
			v.capacity = summary.Capacity(recs, *plan.Capacity, plan.Level)
		}
		v.advice = adviceOf(recs, plan)
	}
	return v, nil
}

// capacityTable is the view's capacity table; capacityLayout asks it, in
// a run whose plan has a capacity section.
func (v *view) capacityTable() *extraTable {
	return capacityTableOf(v.capacity, v.scs, *v.plan.Capacity, v.plan.Level)
}

// loadTable is the view's latency-against-offered-rate table, nil without
// rate-limited trials.
func (v *view) loadTable() *extraTable { return loadTableOf(v.load, v.keepUp) }

// extraTables are the tables after the results (or capacity) table: latency
// against offered rate, then the zone layout, those the run has.
func (v *view) extraTables() []*extraTable {
	var out []*extraTable
	for _, t := range []*extraTable{v.loadTable(), zoneTableOf(v.scs)} {
		if t != nil {
			out = append(out, t)
		}
	}
	return out
}

// Formats returns the names Render accepts, the default (table) first.
func Formats() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.name
	}
	return names
}

// ValidFormat returns nil when name is a format Render accepts, and
// otherwise an error listing the valid ones, for flag validation before a
// run starts.
func ValidFormat(name string) error {
	for _, f := range formats {
		if f.name == name {
			return nil
		}
	}
	return fmt.Errorf("unknown format %q: want one of %s", name, strings.Join(Formats(), ", "))
}

// Render writes recs to w in the named format (see Formats), without
// Findings; RenderPlan adds them.
func Render(w io.Writer, format string, recs []results.Record) error {
	return RenderPlan(w, format, recs, nil)
}

// RenderPlan writes recs to w in the named format with the Findings of
// plan (nil: none) in the formats that show them (table, markdown).
func RenderPlan(w io.Writer, format string, recs []results.Record, plan *results.Plan) error {
	for _, f := range formats {
		if f.name != format {
			continue
		}
		v, err := newView(recs, plan)
		if err != nil {
			return fmt.Errorf("%s: %w", format, err)
		}
		return f.render(v, w)
	}
	return ValidFormat(format)
}
