package prodlab_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
)

// recordedRun is a run directory the docs name, as the sandbox holds it:
// its matrix (one axis per entry, the last varying fastest), its
// planned comparisons and each scenario's throughput.
type recordedRun struct {
	names []string // under results/
	// experiment names the runs' experiment (default: each its name): a
	// history's runs share one.
	experiment string
	axes       []axis
	plan       []results.PlannedComparison
	// rate is a scenario's mean records/s.
	rate func(id string) float64
}

type axis struct {
	key    string
	values []string
}

// recordedTrials is how many rounds each recorded run holds.
const recordedTrials = 8

// recordedRuns are the run directories the docs' report and compare
// commands read.
var recordedRuns = []recordedRun{
	{
		names: []string{"20261122-190000-batching", "monday-batching", "tuesday-batching"},
		axes:  []axis{{"linger.ms", []string{"0", "5", "50"}}, {"compression.type", []string{"none", "lz4", "zstd"}}},
		plan: []results.PlannedComparison{
			{Question: "linger.ms=5 vs 0", Baseline: "linger.ms=0,compression.type=none", Candidate: "linger.ms=5,compression.type=none"},
			{Question: "zstd and linger", Baseline: "linger.ms=0,compression.type=none", Candidate: "linger.ms=5,compression.type=zstd"},
		},
		rate: func(id string) float64 { return 100000 + 1000*float64(len(id)) },
	},
	{
		names: []string{"idem-1", "idem-2", "idem-3"},
		axes:  []axis{{"enable.idempotence", []string{"false", "true"}}},
		plan:  []results.PlannedComparison{{Question: "idempotence", Baseline: "enable.idempotence=false", Candidate: "enable.idempotence=true"}},
		rate: func(id string) float64 {
			if strings.HasSuffix(id, "true") {
				return 95000
			}
			return 100000
		},
	},
	{ // nightly runs of one experiment, for prodlab history
		names:      []string{"20261201-020000-batching", "20261202-020000-batching", "20261203-020000-batching", "20261204-020000-batching", "20261205-020000-batching"},
		experiment: "batching",
		axes:       []axis{{"linger.ms", []string{"0", "5"}}},
		plan:       []results.PlannedComparison{{Question: "linger.ms=5 vs 0", Baseline: "linger.ms=0", Candidate: "linger.ms=5"}},
		rate:       func(id string) float64 { return 100000 + 1000*float64(len(id)) },
	},
	{
		names: []string{"aa"},
		axes:  []axis{{"arm", []string{"a", "b"}}},
		plan:  []results.PlannedComparison{{Question: "A/A", Baseline: "arm=a", Candidate: "arm=b"}},
		rate:  func(string) float64 { return 100000 },
	},
	{
		names: []string{"20261122-190000-proxy-cost"},
		axes:  []axis{{"network.proxy", []string{"false", "true"}}},
		plan:  []results.PlannedComparison{{Question: "proxy cost", Baseline: "network.proxy=false", Candidate: "network.proxy=true"}},
		rate: func(id string) float64 {
			if strings.HasSuffix(id, "true") {
				return 97000
			}
			return 100000
		},
	},
}

// writeRecordedRuns writes every recorded run under dir.
func writeRecordedRuns(dir string) error {
	for _, r := range recordedRuns {
		for _, name := range r.names {
			if err := r.write(filepath.Join(dir, name), name); err != nil {
				return fmt.Errorf("recorded run %s: %w", name, err)
			}
		}
	}
	return nil
}

// write writes the run's results.jsonl (every scenario in every round,
// a spread of ±2 % that repeats every 5 rounds) and plan.json.
func (r recordedRun) write(dir, name string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	w, err := results.Create(dir)
	if err != nil {
		return err
	}
	keys := make([]string, len(r.axes))
	for i, a := range r.axes {
		keys[i] = a.key
	}
	for trial := range recordedTrials {
		for k, sc := range r.scenarios() {
			id := scenarioID(keys, sc)
			rps := r.rate(id) * (1 + 0.01*float64((trial*7+k)%5-2))
			scenario := map[string]any{}
			for i, key := range keys {
				scenario[key] = sc[i]
			}
			exp := r.experiment
			if exp == "" {
				exp = name
			}
			rec := results.Record{Schema: results.Schema, Run: name, Experiment: exp,
				Scenario: scenario, ScenarioKeys: keys, ScenarioID: id, Trial: trial,
				Status: results.StatusOK, Client: "franz-go", Kafka: "4.4.0", RecordSize: 1024,
				Throughput: results.Throughput{RecordsPerS: rps, MBPerS: rps * 1024 / 1e6},
				LatencyMs:  results.Latency{P50: 2, P99: 9, P999: 15},
				DiskBytes:  1 << 26, StartedAt: "2026-11-22T19:00:00Z"}
			if err := w.Append(rec); err != nil {
				return err
			}
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return results.WritePlan(dir, results.Plan{Level: 0.95, Margin: 0.05, Comparisons: r.plan})
}

// scenarios is the cross product of the run's axes, each scenario its
// values in axis order.
func (r recordedRun) scenarios() [][]string {
	out := [][]string{nil}
	for _, a := range r.axes {
		var next [][]string
		for _, sc := range out {
			for _, v := range a.values {
				next = append(next, append(append([]string(nil), sc...), v))
			}
		}
		out = next
	}
	return out
}

// scenarioID is the ID prodlab gives a scenario: key=value, comma-joined.
func scenarioID(keys, values []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + values[i]
	}
	return strings.Join(parts, ",")
}

// interruptedRuns are the run directories the docs' --resume commands
// continue, with the experiment each ran: a run cut short before its
// first trial finished holds the resolved experiment alone.
var interruptedRuns = map[string]string{
	"mine": "my.yaml",
	"adv":  "workload.yaml",
}

// writeInterruptedRuns writes each interrupted run under dir/results
// (dir holding the experiment files).
func writeInterruptedRuns(dir string) error {
	for name, file := range interruptedRuns {
		exp, err := expfile.Load(filepath.Join(dir, file), nil)
		if err != nil {
			return err
		}
		y, err := exp.YAML()
		if err != nil {
			return err
		}
		run := filepath.Join(dir, "results", name)
		if err := os.MkdirAll(run, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(run, results.ExperimentFile), y, 0o644); err != nil {
			return err
		}
	}
	return nil
}
