package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/prodlab/prodlab/internal/summary"
)

// csv renders v as CSV: one row per scenario (order of first appearance, warm-ups left
// out) under a header, for spreadsheets and scripts: scenario_id, one
// column per matrix key, trials (successful, counted), failed_trials,
// status ("ok", "partial" or "failed"), error (the first failure's
// message), then the CSV columns of the registry (see columns): counts
// (sent, acked, failed_records: means) and audit totals as one column, every
// other figure as three, NAME (the mean, or for latency the merged-histogram
// value), NAME_sd and NAME_err (the confidence half-width at
// stats.DefaultConfidence). Optional figures (CPU, proxies, audit) appear
// when some scenario has them. Numbers are plain
// (no thousands separators, '.' decimals, shortest exact form); with one
// trial sd and err are "NaN" (undefined), and a figure never measured
// (every trial failed) is empty.
func (v *view) csv(w io.Writer) error {
	all := make([]*summary.ScenarioStats, len(v.scs))
	for i := range v.scs {
		all[i] = v.scs[i].ScenarioStats
	}
	keys := matrixKeysOf(all)
	cols := shown(inCSV, v.scs)
	header := append([]string{"scenario_id"}, keys...)
	header = append(header, "trials", "failed_trials", "status", "error")
	for _, c := range cols {
		header = append(header, c.csv)
		if !c.plain {
			header = append(header, c.csv+"_sd", c.csv+"_err")
		}
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	for i := range v.scs {
		s := &v.scs[i]
		row := []string{s.ID}
		for _, k := range keys {
			val, ok := s.Values[k]
			if !ok {
				row = append(row, "")
				continue
			}
			row = append(row, formatValue(val))
		}
		errMsg := ""
		if len(s.Failures) > 0 {
			errMsg = s.Failures[0].Error
		}
		row = append(row, strconv.Itoa(s.Trials), strconv.Itoa(len(s.Failures)), scenarioStatus(s.ScenarioStats), errMsg)
		for _, c := range cols {
			sum := c.sum(s)
			x := sum.Mean
			if c.value != nil && sum.N > 0 {
				x = c.value(s)
			}
			row = append(row, csvNum(sum.N, x))
			if !c.plain {
				row = append(row, csvNum(sum.N, sum.SD), csvNum(sum.N, sum.Err))
			}
		}
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("write csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// csvNum renders a figure of n trials: empty when nothing was measured,
// "NaN" when undefined, otherwise the shortest exact decimal.
func csvNum(n int, v float64) string {
	switch {
	case n == 0:
		return ""
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// scenarioStatus is "ok" when every trial succeeded, "failed" when none
// did, "partial" when some did, and "violated" when all ran but some
// audit found what the experiment did not expect.
func scenarioStatus(s *summary.ScenarioStats) string {
	switch {
	case len(s.Failures) == 0 && len(s.Violated) > 0:
		return "violated"
	case len(s.Failures) == 0:
		return "ok"
	case s.Trials == 0:
		return "failed"
	default:
		return "partial"
	}
}

// matrixKeys returns every matrix key of scs, in order of first appearance.
func matrixKeys(scs []summary.ScenarioStats) []string {
	ps := make([]*summary.ScenarioStats, len(scs))
	for i := range scs {
		ps[i] = &scs[i]
	}
	return matrixKeysOf(ps)
}

// matrixKeysOf is matrixKeys of pointers.
func matrixKeysOf(scs []*summary.ScenarioStats) []string {
	var keys []string
	seen := map[string]bool{}
	for _, s := range scs {
		for _, k := range s.Keys {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	return keys
}
