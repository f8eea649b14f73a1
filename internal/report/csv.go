package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// csvMetric is one figure of CSV: its column name and where it is.
type csvMetric struct {
	name string
	// of returns the figure's Summary; value, when set, replaces its mean
	// (the merged-histogram latency).
	of    func(*stats.ScenarioStats) stats.Summary
	value func(*stats.ScenarioStats) float64
}

// csvMetrics are the figures of CSV, each written as three columns: NAME
// (the mean, or for latency the merged-histogram value), NAME_sd and
// NAME_err (the 99.9 % confidence half-width).
var csvMetrics = []csvMetric{
	{"records_per_s", func(s *stats.ScenarioStats) stats.Summary { return s.Throughput }, nil},
	{"mb_per_s", func(s *stats.ScenarioStats) stats.Summary { return s.MBps }, nil},
	{"p50_ms", func(s *stats.ScenarioStats) stats.Summary { return s.P50 }, func(s *stats.ScenarioStats) float64 { return s.Latency.P50 }},
	{"p95_ms", func(s *stats.ScenarioStats) stats.Summary { return s.P95 }, func(s *stats.ScenarioStats) float64 { return s.Latency.P95 }},
	{"p99_ms", func(s *stats.ScenarioStats) stats.Summary { return s.P99 }, func(s *stats.ScenarioStats) float64 { return s.Latency.P99 }},
	{"p999_ms", func(s *stats.ScenarioStats) stats.Summary { return s.P999 }, func(s *stats.ScenarioStats) float64 { return s.Latency.P999 }},
	{"max_ms", func(s *stats.ScenarioStats) stats.Summary { return s.Max }, func(s *stats.ScenarioStats) float64 { return s.Latency.Max }},
	{"mean_ms", func(s *stats.ScenarioStats) stats.Summary { return s.MeanLat }, func(s *stats.ScenarioStats) float64 { return s.Latency.Mean }},
	{"disk_bytes", func(s *stats.ScenarioStats) stats.Summary { return s.DiskBytes }, nil},
	{"compression_ratio", func(s *stats.ScenarioStats) stats.Summary { return s.Ratio }, nil},
	{"elapsed_s", func(s *stats.ScenarioStats) stats.Summary { return s.ElapsedS }, nil},
}

// CSV writes one row per scenario (order of first appearance, warm-ups left
// out) under a header, for spreadsheets and scripts: scenario_id, one
// column per matrix key, trials (successful, counted), failed_trials,
// status ("ok", "partial" or "failed"), error (the first failure's
// message), sent, acked and failed records (means), then for every figure
// of csvMetrics three columns NAME, NAME_sd, NAME_err. Numbers are plain
// (no thousands separators, '.' decimals, shortest exact form); with one
// trial sd and err are "NaN" (undefined), and a figure never measured
// (every trial failed) is empty.
func CSV(w io.Writer, recs []results.Record) error {
	scs, err := stats.ByScenario(recs)
	if err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	keys := matrixKeys(scs)
	header := append([]string{"scenario_id"}, keys...)
	header = append(header, "trials", "failed_trials", "status", "error", "sent", "acked", "failed_records")
	for _, m := range csvMetrics {
		header = append(header, m.name, m.name+"_sd", m.name+"_err")
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	for i := range scs {
		s := &scs[i]
		row := []string{s.ID}
		for _, k := range keys {
			v, ok := s.Values[k]
			if !ok {
				row = append(row, "")
				continue
			}
			row = append(row, formatValue(v))
		}
		errMsg := ""
		if len(s.Failures) > 0 {
			errMsg = s.Failures[0].Error
		}
		row = append(row, strconv.Itoa(s.Trials), strconv.Itoa(len(s.Failures)), scenarioStatus(s), errMsg,
			csvNum(s.Sent.N, s.Sent.Mean), csvNum(s.Acked.N, s.Acked.Mean), csvNum(s.FailedRecords.N, s.FailedRecords.Mean))
		for _, m := range csvMetrics {
			sum := m.of(s)
			v := sum.Mean
			if m.value != nil && sum.N > 0 {
				v = m.value(s)
			}
			row = append(row, csvNum(sum.N, v), csvNum(sum.N, sum.SD), csvNum(sum.N, sum.Err))
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
// did and "partial" otherwise.
func scenarioStatus(s *stats.ScenarioStats) string {
	switch {
	case len(s.Failures) == 0:
		return "ok"
	case s.Trials == 0:
		return "failed"
	default:
		return "partial"
	}
}

// matrixKeys returns every matrix key of scs, in order of first appearance.
func matrixKeys(scs []stats.ScenarioStats) []string {
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
