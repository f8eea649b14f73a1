package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/prodlab/prodlab/internal/stats"
)

// Comparison is one answer of `prodlab compare`: scenario B against
// scenario A, metric by metric.
type Comparison struct {
	Title string `json:"title"`
	// A and B say where each side comes from (a run or a scenario ID).
	A string `json:"a"`
	B string `json:"b"`
	// Paired: the trials were paired by round (Pairs of them).
	Paired  bool `json:"paired"`
	Pairs   int  `json:"-"`
	ATrials int  `json:"-"`
	BTrials int  `json:"-"`
	// Level is the verdicts' confidence level.
	Level   float64         `json:"-"`
	Metrics []MetricVerdict `json:"metrics"`
}

// MetricVerdict is one metric of a comparison: both sides and the verdict.
type MetricVerdict struct {
	Name    string        `json:"name"`
	Unit    string        `json:"unit"`
	A       stats.Summary `json:"a"`
	B       stats.Summary `json:"b"`
	Verdict stats.Verdict `json:"verdict"`
}

// CompareTable prints one table per comparison: each metric's A and B
// figures, B's relative difference and the verdict.
func CompareTable(w io.Writer, cs []Comparison) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for i, c := range cs {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		how := ""
		if c.Paired {
			how = fmt.Sprintf(", paired by round (%d pairs)", c.Pairs)
		}
		fmt.Fprintf(tw, "%s\n  A = %s (%d trials), B = %s (%d trials); B vs A at %s%s\n",
			c.Title, c.A, c.ATrials, c.B, c.BTrials, stats.Percent(c.Level), how)
		fmt.Fprintln(tw, "  METRIC\tA\tB\tB vs A\tVERDICT")
		for _, m := range c.Metrics {
			fmt.Fprintf(tw, "  %s (%s)\t%s\t%s\t%s\t%s\n", m.Name, m.Unit, m.A, m.B, relDiff(m.Verdict), m.Verdict.Text)
		}
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write comparison: %w", err)
	}
	return nil
}

// CompareJSON prints the comparisons as a JSON array, NaN as null.
func CompareJSON(w io.Writer, cs []Comparison) error {
	if cs == nil {
		cs = []Comparison{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(cs); err != nil {
		return fmt.Errorf("write comparison: %w", err)
	}
	return nil
}

// relDiff renders a verdict's relative difference with its interval:
// "+12.3 % [+8.1 %, +16.4 %]".
func relDiff(v stats.Verdict) string {
	if math.IsNaN(v.Diff) {
		return "-"
	}
	s := fmt.Sprintf("%+.1f %%", v.Diff*100)
	if !math.IsNaN(v.Lo) && !math.IsNaN(v.Hi) {
		s += fmt.Sprintf(" [%+.1f %%, %+.1f %%]", v.Lo*100, v.Hi*100)
	}
	return s
}
