package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/prodlab/prodlab/internal/summary"
)

// json renders v as an indented JSON array of summary.ScenarioStats, one object
// per scenario in order of first appearance, warm-ups left out. Figures
// that are undefined (the error of a single trial) are null. Findings are
// not part of it: the array is what scripts read.
func (v *view) json(w io.Writer) error {
	scs := make([]summary.ScenarioStats, len(v.scs))
	for i := range v.scs {
		scs[i] = *v.scs[i].ScenarioStats
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(scs); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}
