package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// JSON writes an indented JSON array of stats.ScenarioStats, one object
// per scenario in order of first appearance, warm-ups left out. Figures
// that are undefined (the error of a single trial) are null.
func JSON(w io.Writer, recs []results.Record) error {
	scs, err := stats.ByScenario(recs)
	if err != nil {
		return fmt.Errorf("json: %w", err)
	}
	if scs == nil {
		scs = []stats.ScenarioStats{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(scs); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}
