package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
)

// writeHistory writes one run per level under a new folder: scenario
// linger.ms=0 at about level records/s (five trials), started a day apart
// in the order given (the directory names are in the reverse order, so
// the history must order by start), of experiment exp.
func writeHistory(t *testing.T, exp string, levels ...float64) string {
	t.Helper()
	parent := t.TempDir()
	for i, lvl := range levels {
		dir := filepath.Join(parent, fmt.Sprintf("run-%02d", len(levels)-i))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		w, err := results.Create(dir)
		if err != nil {
			t.Fatal(err)
		}
		for trial, f := range []float64{1, 1.01, 0.99, 1.005, 0.995} {
			rps := lvl * f
			r := results.Record{Schema: results.Schema, Experiment: exp, ScenarioID: "linger.ms=0",
				Scenario: map[string]any{"linger.ms": "0"}, ScenarioKeys: []string{"linger.ms"}, Trial: trial, Status: results.StatusOK,
				Throughput: results.Throughput{RecordsPerS: rps, MBPerS: rps / 1000}, LatencyMs: results.Latency{P50: 10, P99: 20 * 1000 / lvl, P999: 30}}
			if err := w.Append(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := results.WriteEnvironment(dir, results.Environment{StartedAt: fmt.Sprintf("2026-11-%02dT08:00:00Z", i+1)}); err != nil {
			t.Fatal(err)
		}
	}
	return parent
}

func TestHistoryCmd(t *testing.T) {
	steady := writeHistory(t, "batching", 1000, 1002, 998, 1001, 999, 1000)
	fell := writeHistory(t, "batching", 1000, 1002, 998, 1001, 999, 1000, 800)
	two := writeHistory(t, "batching", 1000, 800)
	other := writeHistory(t, "other", 1000)
	broken := writeHistory(t, "batching", 1000, 1001, 999)
	if err := os.Mkdir(filepath.Join(broken, "run-00"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, "run-00", results.ResultsFile), nil, 0o644); err != nil { // stopped before its first trial
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	runCompareRows(t, []compareRow{
		{name: "table", args: []string{"history", steady}, code: ExitOK,
			out: []string{"history of batching: 6 runs", "linger.ms=0", "throughput (msg/s)", "no change"}},
		{name: "gate passes", args: []string{"history", steady, "--gate", "throughput:5%"}, code: ExitOK,
			err: "gate throughput: passed (1 series)"},
		{name: "gate fails: exit 4", args: []string{"history", fell, "--gate", "throughput:5%", "--gate", "p99:0.1"}, code: ExitRegression,
			err: "throughput of linger.ms=0 fell 20.0 % in " + filepath.Join(fell, "run-01") + " against the 6 runs since " + filepath.Join(fell, "run-07")},
		{name: "threshold above the fall", args: []string{"history", fell, "--gate", "throughput:30%"}, code: ExitOK},
		{name: "too few runs to gate", args: []string{"history", two, "--gate", "throughput"}, code: ExitOK,
			err: "gate throughput: cannot tell yet: throughput of linger.ms=0: 1 run(s) at its level before the newest, a test needs 2"},
		{name: "a broken run in the folder is skipped", args: []string{"history", broken}, code: ExitOK,
			out: []string{"history of batching: 3 runs"}, err: "skipping " + filepath.Join(broken, "run-00")},
		{name: "a broken run named is refused", args: []string{"history", steady, filepath.Join(broken, "run-00")}, code: ExitUsage, err: "is empty"},
		{name: "csv", args: []string{"history", steady, "--format", "csv"}, code: ExitOK, out: []string{"run,dir,started,scenario"}},
		{name: "json", args: []string{"history", steady, "--format", "json"}, code: ExitOK, out: []string{`"experiment": "batching"`}},
		{name: "html", args: []string{"history", steady, "--format", "html"}, code: ExitOK, out: []string{"<svg", "</html>"}},
		{name: "one run", args: []string{"history", filepath.Join(steady, "run-01")}, code: ExitUsage, err: "history needs at least two runs"},
		{name: "no argument", args: []string{"history"}, code: ExitUsage},
		{name: "two experiments", args: []string{"history", steady, other}, code: ExitUsage, err: `the runs are of 2 experiments (batching, other): a history is runs of one; choose it with --experiment`},
		{name: "--experiment chooses", args: []string{"history", steady, other, "--experiment", "batching"}, code: ExitOK, out: []string{"history of batching: 6 runs"}},
		{name: "--experiment with one run", args: []string{"history", steady, other, "--experiment", "other"}, code: ExitUsage, err: `at least two runs of experiment "other", found 1`},
		{name: "a folder without runs", args: []string{"history", t.TempDir()}, code: ExitUsage, err: "holds no run directory"},
		{name: "a FIFO", args: []string{"history", fifo, steady}, code: ExitUsage, err: "is a file, not a run directory"},
		{name: "missing", args: []string{"history", filepath.Join(steady, "nope")}, code: ExitUsage, err: "no such file"},
		{name: "given twice", args: []string{"history", steady, filepath.Join(steady, "run-01")}, code: ExitUsage, err: "is given twice"},
		{name: "unknown format", args: []string{"history", steady, "--format", "xml"}, code: ExitUsage, err: `unknown --format "xml"`},
		{name: "unknown gate metric", args: []string{"history", steady, "--gate", "thruput:5%"}, code: ExitUsage, err: `unknown metric "thruput"`},
		{name: "bad threshold", args: []string{"history", steady, "--gate", "throughput:-5%"}, code: ExitUsage, err: "must be a share"},
		{name: "bad alpha", args: []string{"history", steady, "--alpha", "0.7"}, code: ExitUsage, err: "--alpha must be in (0, 0.5)"},
		{name: "bad permutations", args: []string{"history", steady, "--permutations", "5"}, code: ExitUsage, err: "--permutations must be from 19"},
	})
}
