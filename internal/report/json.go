package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/summary"
)

// scenarioJSON is one element of the json format: the scenario's figures;
// under "findings", the answers to the planned comparisons whose
// candidate it is; and, in a capacity run, under "capacity" its element
// of capacity.json (its sustainable rate). The keys are added to the
// array's elements rather than the array wrapped in an object, so that
// scripts reading the array of scenarios (jq '.[]') keep working; jq
// '[.[].findings[]?]' gathers the answers, and findings.json holds them
// all in plan order; jq '[.[].capacity | select(.)]' is capacity.json.
type scenarioJSON struct {
	summary.ScenarioStats
	Findings []Finding         `json:"findings,omitempty"`
	Capacity *results.Capacity `json:"capacity,omitempty"`
}

// json renders v as an indented JSON array of summary.ScenarioStats, one
// object per scenario in order of first appearance, warm-ups left out, each
// with the Findings whose candidate it is and its capacity (see
// scenarioJSON). Figures that are undefined (the error of a single trial)
// are null.
func (v *view) json(w io.Writer) error {
	scs := make([]scenarioJSON, len(v.scs))
	for i := range v.scs {
		scs[i].ScenarioStats = *v.scs[i].ScenarioStats
		for _, f := range v.findings {
			if f.Candidate == v.scs[i].ID {
				scs[i].Findings = append(scs[i].Findings, f)
			}
		}
		for j := range v.capacity {
			if v.capacity[j].ScenarioID == v.scs[i].ID {
				scs[i].Capacity = &v.capacity[j]
			}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(scs); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// findingsFile is findings.json: the answers to a run's planned
// comparisons for scripts, with the level and margin they were judged at
// (absent when the run has no plan, whose Findings are then empty).
type findingsFile struct {
	Level    float64   `json:"level,omitempty"`
	Margin   float64   `json:"margin,omitempty"`
	Findings []Finding `json:"findings"`
}

// findingsJSON renders v's Findings as findings.json.
func (v *view) findingsJSON() ([]byte, error) {
	f := findingsFile{Findings: v.findings}
	if v.plan != nil {
		f.Level, f.Margin = levelOr(v.plan.Level), marginOr(v.plan.Margin)
	}
	if f.Findings == nil {
		f.Findings = []Finding{}
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", results.FindingsFile, err)
	}
	return append(b, '\n'), nil
}
