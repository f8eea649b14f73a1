package report

import (
	"fmt"
	"io"
	"math"
)

// perfTest renders v as one kafka-producer-perf-test final line per scenario
// (see PerfTestTotal), each after a "# <scenario>" comment line, which
// scripts written for perf-test skip. With several trials the line holds
// the means of the successful ones (records rounded to an integer) and the
// merged-histogram latencies, and the comment says how many trials it
// summarises; a scenario whose every trial failed gets only its comment,
// ending in the error.
func (v *view) perfTest(w io.Writer) error {
	for i := range v.scs {
		s := v.scs[i].ScenarioStats
		comment := "# " + statsLabel(s)
		switch {
		case s.Trials == 0:
			comment += fmt.Sprintf(": all %d trials FAILED: %s", len(s.Failures), shortError(s.Failures[0].Error))
		case s.Trials > 1:
			comment += fmt.Sprintf(" (mean of %d trials)", s.Trials)
		}
		if len(s.Failures) > 0 && s.Trials > 0 {
			comment += fmt.Sprintf(" (%d FAILED: %s)", len(s.Failures), shortError(s.Failures[0].Error))
		}
		if _, err := fmt.Fprintln(w, comment); err != nil {
			return fmt.Errorf("write perf-test: %w", err)
		}
		if s.Trials == 0 {
			continue
		}
		PerfTestTotal(w, PerfTotal{
			Records:     int64(math.Round(s.Acked.Mean)),
			RecordsPerS: s.Throughput.Mean,
			MBPerS:      s.MBPerS.Mean,
			Latency:     s.Latency,
		})
	}
	return nil
}
