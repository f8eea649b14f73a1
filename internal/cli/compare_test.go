package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
)

// writeRun writes a run directory whose scenarios have the given
// throughputs per trial (latency fixed at 10 ms p50, 20 ms p99).
func writeRun(t *testing.T, name string, scenarios map[string][]float64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := results.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"linger.ms=0", "linger.ms=5", "linger.ms=50"} {
		for i, rps := range scenarios[id] {
			r := results.Record{Schema: results.Schema, Run: name, ScenarioID: id,
				Scenario: map[string]any{"linger.ms": id[len("linger.ms="):]}, ScenarioKeys: []string{"linger.ms"},
				Trial: i, Status: results.StatusOK,
				Throughput: results.Throughput{RecordsPerS: rps, MBPerS: rps / 1000},
				LatencyMs:  results.Latency{P50: 10 + float64(i)/10, P99: 20 + float64(i)/10, P999: 30},
				DiskBytes:  1 << 20}
			if err := w.Append(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writePlannedRun is writeRun with plan p saved in the run's plan.json.
func writePlannedRun(t *testing.T, name string, scenarios map[string][]float64, p results.Plan) string {
	t.Helper()
	dir := writeRun(t, name, scenarios)
	if err := results.WritePlan(dir, p); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCompareCmd(t *testing.T) {
	a := writeRun(t, "a", map[string][]float64{
		"linger.ms=0": {100, 102, 98, 101, 99},
		"linger.ms=5": {200, 210, 190, 205, 195},
	})
	b := writeRun(t, "b", map[string][]float64{
		"linger.ms=0":  {120, 118, 122, 119, 121},
		"linger.ms=5":  {202, 212, 192, 207, 197},
		"linger.ms=50": {300, 301},
	})
	// A machine whose speed drifts by a factor of 2.5 between rounds, and
	// a scenario 10 % slower in every round.
	drift := writeRun(t, "drift", map[string][]float64{
		"linger.ms=0": {100, 150, 80, 200, 120},
		"linger.ms=5": {90, 135.5, 72, 179, 108.2},
	})
	runCompareRows(t, []compareRow{
		// Two runs: a clear gain, a difference five trials cannot decide
		// (never "no difference"); fewer trials than the rule's 8, said.
		{"runs", []string{"compare", a, b}, ExitOK,
			[]string{"linger.ms=0\n", "faster by 20.0 % [+17.5 %, +22.6 %] (Welch, 95 %, fewer than 8 trials per side)", "linger.ms=5\n",
				"inconclusive: [-4.6 %, +7.0 %] is wider than ±5 %; about 2 more trials per side would decide it (Welch, 95 %, fewer than 8 trials per side)",
				"latency p99 (ms)", "100 ± 2", "+20.0 % [+17.5 %, +22.6 %]", "equivalent within ±5 %: +0.0 % [-1.1 %, +1.1 %]"}, ""},
		// Two scenarios of one run, by ID, paired by round (the paired test's
		// figures are checked against scipy in internal/stats).
		{"scenarios", []string{"compare", b, "--scenarios", "linger.ms=0", "linger.ms=5"}, ExitOK,
			[]string{"A = linger.ms=0 (5 trials), B = linger.ms=5 (5 trials); B vs A at 95 %, paired by round (5 pairs)", "faster by 68.2 % [+57.7 %, +79.5 %] (paired, 95 %, fewer than 8 pairs)"}, ""},
		// --confidence changes the level of the verdicts.
		{"confidence", []string{"compare", b, "--scenarios", "linger.ms=0", "linger.ms=5", "--confidence", "0.999"}, ExitOK,
			[]string{"B vs A at 99.9 %, paired by round (5 pairs)", "(paired, 99.9 %, fewer than 8 pairs)"}, ""},
		{"bad confidence", []string{"compare", b, "--scenarios", "linger.ms=0", "linger.ms=5", "--confidence", "95"}, ExitUsage,
			nil, "--confidence must be in (0.5, 1), got 95"},
		// Within a run, pairing by round finds the 10 % that the drift
		// hides from Welch's test.
		{"paired finds what drift hides", []string{"compare", drift, "--scenarios", "linger.ms=0", "linger.ms=5"}, ExitOK,
			[]string{"slower by 10.0 % [-10.4 %, -9.6 %] (paired, 95 %, fewer than 8 pairs)"}, ""},
		{"unpaired", []string{"compare", drift, "--scenarios", "linger.ms=0", "linger.ms=5", "--unpaired"}, ExitOK,
			[]string{"(5 trials); B vs A at 95 %\n", "inconclusive: [-46.3 %, +50.9 %] is wider than ±5 %; about 84 more trials per side would decide it (Welch, 95 %, fewer than 8 trials per side)"}, ""},
		// JSON for scripts: the verdict with its kind, test and bounds.
		{"json", []string{"compare", drift, "--scenarios", "linger.ms=0", "linger.ms=5", "--format", "json"}, ExitOK,
			[]string{`"paired": true`, `"test": "paired"`, `"pairs": 5`, `"diff_lo": -0.10387`, `"significant": true`, `"kind": "slower"`}, ""},
		{"bad format", []string{"compare", drift, "--scenarios", "linger.ms=0", "linger.ms=5", "--format", "xml"}, ExitUsage,
			nil, `unknown --format "xml" for compare: use table or json`},
		// An unknown scenario is a usage error listing the IDs.
		{"unknown scenario", []string{"compare", a, "--scenarios", "linger.ms=0", "nope"}, ExitUsage,
			nil, `no scenario "nope"`},
		// A scenario against itself is refused, by ID or by label: it
		// would only ever be "equivalent".
		{"same scenario", []string{"compare", a, "--scenarios", "linger.ms=0", "linger.ms=0"}, ExitUsage,
			nil, `names scenario "linger.ms=0" twice`},
		// --scenarios needs exactly one run and two IDs.
		{"scenarios arity", []string{"compare", a, b, "--scenarios"}, ExitUsage, nil, "--scenarios takes one run directory"},
		// Two runs without --scenarios, not three arguments.
		{"three args", []string{"compare", a, b, a}, ExitUsage, nil, "two run directories"},
		{"one arg", []string{"compare", a}, ExitUsage, nil, "accepts between 2 and 3 arg(s)"}, // too few arguments
		// A missing run directory.
		{"missing", []string{"compare", a, filepath.Join(t.TempDir(), "none")}, ExitUsage, nil, "read results"},
	})
}

// TestCompareCmdPlan: without --confidence and --equivalence, compare
// judges at the level and margin of the runs' plan.json; a flag given
// overrides its setting only.
func TestCompareCmdPlan(t *testing.T) {
	// Runs whose experiments planned equivalence: 0.10 (p, q; p at 99 %)
	// or the default ±5 % (r), B about 6 % above A: equivalent within
	// ±10 %, faster at ±5 %.
	six := map[string][]float64{
		"linger.ms=0": {100, 101, 99, 100.5, 99.5},
		"linger.ms=5": {106, 107.5, 104.5, 106.2, 105.8},
	}
	p := writePlannedRun(t, "p", six, results.Plan{Level: 0.99, Margin: 0.10})
	q := writePlannedRun(t, "q", six, results.Plan{Level: 0.99, Margin: 0.10})
	r := writePlannedRun(t, "r", six, results.Plan{Level: 0.95, Margin: 0.05})
	runCompareRows(t, []compareRow{
		// Without flags, the run's plan.json sets the level and margin.
		{"plan's level and margin", []string{"compare", p, "--scenarios", "linger.ms=0", "linger.ms=5"}, ExitOK,
			[]string{"B vs A at 99 %", "equivalent within ±10 %"}, ""},
		// A flag given overrides the plan, the other setting still from it.
		{"flag overrides plan", []string{"compare", p, "--scenarios", "linger.ms=0", "linger.ms=5", "--equivalence", "0.05"}, ExitOK,
			[]string{"B vs A at 99 %", "faster by 6.0 %"}, ""},
		// Two runs whose plans agree are judged by them.
		{"plans agree", []string{"compare", p, q}, ExitOK,
			[]string{"at 99 %", "equivalent within ±10 %"}, ""},
		// Two runs whose plans disagree get the defaults, and a warning.
		{"plans disagree", []string{"compare", p, r}, ExitOK,
			[]string{"at 95 %", "within ±5 %"}, "plans equivalence margin 0.1 and " + r + " 0.05: using 0.05"},
		{"bad equivalence", []string{"compare", p, "--scenarios", "linger.ms=0", "linger.ms=5", "--equivalence", "0"}, ExitUsage,
			nil, "--equivalence must be in (0, 1), got 0"},
	})
}

// compareRow is a compare command line and what it must print.
type compareRow struct {
	name string
	args []string
	code int
	out  []string // substrings of stdout
	err  string   // substring of stderr
}

// runCompareRows runs each row through the CLI and checks its exit code
// and output.
func runCompareRows(t *testing.T, tests []compareRow) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(tt.args, &out, &errOut); code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.code, errOut.String())
			}
			for _, s := range tt.out {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, out.String())
				}
			}
			if !strings.Contains(errOut.String(), tt.err) {
				t.Errorf("stderr %q lacks %q", errOut.String(), tt.err)
			}
		})
	}
}

func TestReportCmd(t *testing.T) {
	dir := writeRun(t, "r", map[string][]float64{"linger.ms=0": {100, 102}})
	tests := []struct {
		name string
		args []string
		code int
		out  string
	}{
		// Each format renders.
		{"csv", []string{"report", dir, "--format", "csv"}, ExitOK, "scenario_id,linger.ms,trials"},
		{"markdown", []string{"report", dir, "--format", "markdown"}, ExitOK, "| `linger.ms=0` | 2 |"},
		{"perf-test", []string{"report", dir, "--format", "perf-test"}, ExitOK, "# linger.ms=0 (mean of 2 trials)"},
		// An unknown format is a usage error naming the valid ones.
		{"bad format", []string{"report", dir, "--format", "xml"}, ExitUsage, ""},
		// --html writes report.html into the run directory.
		{"html", []string{"report", dir, "--html"}, ExitOK, "SCENARIO"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(tt.args, &out, &errOut); code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.code, errOut.String())
			}
			if !strings.Contains(out.String(), tt.out) {
				t.Errorf("stdout lacks %q:\n%s", tt.out, out.String())
			}
		})
	}
	if _, err := results.Read(dir); err != nil {
		t.Fatal(err)
	}
	if !fileExists(filepath.Join(dir, "report.html")) {
		t.Error("report --html wrote no report.html")
	}
}

// fileExists reports whether path exists.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
