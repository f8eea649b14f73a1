package results

import (
	"fmt"
	"path/filepath"
)

// PlanFile is the run directory's plan.json: the comparisons the
// experiment planned, saved when the run starts, for the report's
// Findings. A run without one has no Findings.
const PlanFile = "plan.json"

// Plan is what a run set out to answer.
type Plan struct {
	// Level is the confidence level of the verdicts (0.95); Margin the
	// relative equivalence margin (0.05: ±5 %); Precision the relative
	// half-width the stopping rule aimed for.
	Level     float64 `json:"level"`
	Margin    float64 `json:"margin"`
	Precision float64 `json:"precision,omitempty"`
	// Comparisons are answered in this order.
	Comparisons []PlannedComparison `json:"comparisons"`
	// Capacity is the capacity: section of a capacity run (nil otherwise);
	// its comparisons judge sustainable rates (Metric "sustainable").
	Capacity *CapacityPlan `json:"capacity,omitempty"`
	// Advise is the advise: section of an advise run (nil otherwise); its
	// search is a capacity search, so Capacity is set too.
	Advise *AdvicePlan `json:"advise,omitempty"`
	// DuetWouldRun is true when the run's sequential rounds at saturation
	// could have run as schedule: duet on its embedded clusters
	// (expfile.Experiment.DuetWouldRun): the report suggests it beside an
	// undecided finding.
	DuetWouldRun bool `json:"duet_would_run,omitempty"`
}

// PlannedComparison is one question of a Plan: is Candidate faster than,
// slower than or equivalent to Baseline (scenario IDs, Record.ScenarioID)?
type PlannedComparison struct {
	Question  string `json:"question"`
	Baseline  string `json:"baseline"`
	Candidate string `json:"candidate"`
	// Published is the published figure of the study the experiment
	// reproduces, one line, shown beside prodlab's answer.
	Published string `json:"published,omitempty"`
	// Metric is the stats.Metric key judged; "" (plans written before it
	// existed) means throughput.
	Metric string `json:"metric,omitempty"`
}

// WritePlan writes dir/plan.json whole (a temporary file renamed into
// place).
func WritePlan(dir string, p Plan) error {
	return writeJSONFile(dir, PlanFile, p)
}

// ReadPlan reads dir/plan.json; ok is false, with no error, when the run
// has none. A plan that does not decode, or whose level or margin no run
// writes (a level of 5 would be rendered "500 % confidence"), is refused:
// "DIR/plan.json: not a prodlab plan (…)".
func ReadPlan(dir string) (p Plan, ok bool, err error) {
	const what = "a prodlab plan"
	if ok, err = readJSONFile(dir, PlanFile, what, &p); err != nil || !ok {
		return Plan{}, false, err
	}
	if why := p.invalid(); why != "" {
		return Plan{}, false, fmt.Errorf("%s: not %s (%s)", filepath.Join(dir, PlanFile), what, why)
	}
	return p, true, nil
}

// invalid says what no run writes in p, or "". A zero level or margin is
// a plan that saved none (readers take the defaults); the level, margin
// and precision saved are each in (0, 1), as the experiment's keys are.
func (p Plan) invalid() string {
	for _, f := range []struct {
		key, eg string
		v       float64
	}{{"level", "0.95 for 95 %", p.Level}, {"margin", "0.05 for ±5 %", p.Margin}, {"precision", "0.05 for ±5 %", p.Precision}} {
		if f.v != 0 && !(f.v > 0 && f.v < 1) {
			return fmt.Sprintf("%q is %g; a plan's %s is in (0, 1), e.g. %s", f.key, f.v, f.key, f.eg)
		}
	}
	for i, c := range p.Comparisons {
		if c.Baseline == "" || c.Candidate == "" {
			return fmt.Sprintf("comparison %d names no baseline or no candidate", i+1)
		}
	}
	return ""
}
