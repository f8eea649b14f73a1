package report

import (
	"fmt"
	"io"
	"math"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/summary"
)

// perfTest renders v as one kafka-producer-perf-test final line per scenario
// (see PerfTestTotal), each after a "# <scenario>" comment line, which
// scripts written for perf-test skip. With several trials the line holds
// the means of the successful ones (records rounded to an integer) and the
// merged-histogram latencies, and the comment says how many trials it
// summarises; a scenario whose every trial failed gets only its comment,
// ending in the error. A capacity run prints its probes instead
// (perfTestProbes).
func (v *view) perfTest(w io.Writer) error { return v.layout.perfTest(v, w) }

// perfTestScenarios writes a line per scenario of a run of rounds.
func (v *view) perfTestScenarios(w io.Writer) error {
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

// perfTestProbes renders a capacity run as one perf-test line per trial,
// scenario by scenario: each probe is a perf-test run at its own
// --throughput, and a mean over probes at different rates would be no
// run at all. Each line follows a comment naming the scenario and the
// probe: "# linger.ms=5: probe at 20,000 records/s: pass" (or "FAIL: why",
// or "ceiling (unthrottled)"); a trial that failed gets only its comment,
// ending in the error.
func (v *view) perfTestProbes(w io.Writer) error {
	for i := range v.scs {
		s := &v.scs[i]
		for _, r := range v.recs {
			if r.Warmup || summary.ScenarioKey(r) != s.ID || r.Status == results.StatusInterrupted {
				continue
			}
			comment := "# " + s.Label + ": " + probeComment(r)
			if !r.Counted() {
				comment += fmt.Sprintf(": %s FAILED: %s", r.TrialName(), shortError(r.Error))
			}
			if _, err := fmt.Fprintln(w, comment); err != nil {
				return fmt.Errorf("write perf-test: %w", err)
			}
			if r.Counted() {
				PerfTestLine(w, r)
			}
		}
	}
	return nil
}

// probeComment says what a capacity run's trial was: "ceiling
// (unthrottled)", "probe at 20,000 records/s: pass" or "…: FAIL: why".
func probeComment(r results.Record) string {
	switch {
	case r.Probe != nil && r.Probe.Ceiling:
		return "ceiling (unthrottled)"
	case r.Load == nil:
		return r.TrialName()
	}
	c := "probe at " + thousands(r.Load.OfferedRecordsPerS) + " records/s"
	if r.Probe != nil {
		c += ": " + probeText(r.Probe)
	}
	return c
}
