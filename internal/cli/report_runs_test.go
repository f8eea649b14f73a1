package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
)

// lingerPlan asks one question: linger.ms=5 against linger.ms=0.
var lingerPlan = results.Plan{Level: 0.95, Margin: 0.05, Comparisons: []results.PlannedComparison{
	{Question: "does linger help?", Baseline: "linger.ms=0", Candidate: "linger.ms=5"}}}

// runAt writes a planned run whose linger.ms=5 trials are the factor
// times its linger.ms=0 ones, a small spread on top.
func runAt(t *testing.T, name string, factor float64, p results.Plan) string {
	t.Helper()
	base := []float64{1000, 1010, 990, 1005, 995, 1002, 998, 1000}
	cand := make([]float64, len(base))
	for i, x := range base {
		cand[i] = x * factor * (1 + float64(i%3-1)*0.002)
	}
	return writePlannedRun(t, name, map[string][]float64{"linger.ms=0": base, "linger.ms=5": cand}, p)
}

// TestReportOverRuns: runs that each decide a direction of their own,
// against each other, pooled in one report say inconclusive over the
// runs; runs that agree say so with the runs' count.
func TestReportOverRuns(t *testing.T) {
	up, down, mid := runAt(t, "up", 1.10, lingerPlan), runAt(t, "down", 0.92, lingerPlan), runAt(t, "mid", 1.03, lingerPlan)
	same1, same2, same3 := runAt(t, "s1", 1.20, lingerPlan), runAt(t, "s2", 1.21, lingerPlan), runAt(t, "s3", 1.19, lingerPlan)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"one run decides", []string{"report", up}, "faster than linger.ms=0 by 10.0 %"},
		{"another decides the other way", []string{"report", down}, "slower than linger.ms=0 by 8.0 %"},
		// ln ratios 0.095, -0.083, 0.030: mean 0.0138, SD 0.0904, t(2) 4.303.
		{"over the runs it is open", []string{"report", up, down, mid}, "inconclusive: [-19.0 %, +26.9 %] is wider than ±5 %; about 17 more lives would decide it (paired over 3 lives, 95 %"},
		{"runs that agree", []string{"report", same1, same2, same3}, "faster than linger.ms=0 by 20.0 % [+17.5 %, +22.5 %] (paired over 3 lives, 95 %"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(tt.args, &out, &errOut); code != ExitOK {
				t.Fatalf("exit %d; stderr: %s", code, errOut.String())
			}
			if !strings.Contains(out.String(), tt.want) {
				t.Errorf("stdout lacks %q:\n%s", tt.want, out.String())
			}
		})
	}
}

// TestReportOverRunsRefuses: runs that did not ask the same questions, a
// run given twice, a run without a plan, a capacity run and --html with
// several runs are refused before anything is rendered.
func TestReportOverRunsRefuses(t *testing.T) {
	a, b := runAt(t, "a", 1.1, lingerPlan), runAt(t, "b", 1.1, lingerPlan)
	wider := lingerPlan
	wider.Margin = 0.10
	other := runAt(t, "other", 1.1, wider)
	capPlan := lingerPlan
	capPlan.Capacity = &results.CapacityPlan{}
	capRun := runAt(t, "cap", 1.1, capPlan)
	noPlan := writeRun(t, "noplan", map[string][]float64{"linger.ms=0": {1, 2}})
	link := filepath.Join(t.TempDir(), "again")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"other margin", []string{"report", a, other}, other + " planned other comparisons than " + a},
		{"twice", []string{"report", a, b, link}, link + " is given twice (as " + a + ")"},
		{"no plan", []string{"report", a, noPlan}, noPlan + " has no plan.json"},
		{"capacity", []string{"report", a, capRun}, capRun + " is a capacity or advise run"},
		{"html", []string{"report", a, b, "--html"}, "--html regenerates one run directory's files"},
		{"missing", []string{"report", a, filepath.Join(a, "nope")}, "no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(tt.args, &out, &errOut); code != ExitUsage {
				t.Fatalf("exit %d, want %d; stderr: %s", code, ExitUsage, errOut.String())
			}
			if !strings.Contains(errOut.String(), tt.want) || out.Len() != 0 {
				t.Errorf("stderr %q lacks %q, or stdout is not empty: %q", errOut.String(), tt.want, out.String())
			}
		})
	}
}

// TestReportOverRunsWarns: runs whose experiment.yaml differ only in
// their rounds settings pool silently; one that differs in a workload
// setting is pooled with a warning naming the line.
func TestReportOverRunsWarns(t *testing.T) {
	a, b, c := runAt(t, "a", 1.1, lingerPlan), runAt(t, "b", 1.1, lingerPlan), runAt(t, "c", 1.1, lingerPlan)
	for dir, y := range map[string]string{
		a: "name: x\nworkload:\n  records: 10\ntrials: auto\nprecision: 0.03\n",
		b: "name: x\nworkload:\n  records: 10\ntrials: auto\nprecision: 0.026\nlives: 3\n",
		c: "name: x\nworkload:\n  records: 11\ntrials: auto\nprecision: 0.03\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, results.ExperimentFile), []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"report", a, b}, &out, &errOut); code != ExitOK || errOut.Len() != 0 {
		t.Errorf("a and b: exit %d, stderr %q; want 0 and no warning", code, errOut.String())
	}
	errOut.Reset()
	if code := run([]string{"report", a, b, c}, &out, &errOut); code != ExitOK ||
		!strings.Contains(errOut.String(), c+`'s experiment.yaml differs from `+a+`'s beyond its rounds settings ("records: 11" against "records: 10")`) {
		t.Errorf("with c: exit %d, stderr %q; want 0 and a warning naming records", code, errOut.String())
	}
}
