package live

import (
	"encoding/json"
	"math"

	"github.com/prodlab/prodlab/internal/report"
)

// finding is one question's answer as the page draws it: the estimate
// and its interval (relative, NaN as null) against the margin.
type finding struct {
	Title    string   `json:"title"`
	Sentence string   `json:"sentence"`
	Kind     string   `json:"kind"`
	Diff     *float64 `json:"diff"`
	Lo       *float64 `json:"lo"`
	Hi       *float64 `json:"hi"`
}

// findingsEvent is the findings as one event of kind "findings".
func findingsEvent(fs []report.Finding, margin float64) []byte {
	out := struct {
		Kind     string    `json:"kind"`
		Margin   float64   `json:"margin"`
		Findings []finding `json:"findings"`
	}{Kind: "findings", Margin: margin}
	for _, f := range fs {
		out.Findings = append(out.Findings, finding{Title: f.Title, Sentence: f.Sentence, Kind: f.Kind,
			Diff: finite(f.Verdict.Diff), Lo: finite(f.Verdict.Lo), Hi: finite(f.Verdict.Hi)})
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil
	}
	return b
}

// finite is &v, or nil when v is not a finite number.
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
