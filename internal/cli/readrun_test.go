package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
)

// corruptRun inserts, as line 2 of dir's results.jsonl, the fragment of a
// record cut short by a full disk with the next record glued onto it, and a
// JSON line that is not a record as line 3.
func corruptRun(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, results.ResultsFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	fragment := lines[1][:len(lines[1])/2]
	bad := fragment + lines[1] + `[1,2]` + "\n"
	out := lines[0] + bad + strings.Join(lines[2:], "")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadRunSkipsBadLines: report and compare do not refuse a run for a
// bad line; they warn once per skipped line, with its number, size and
// reason, and use every whole record.
func TestReadRunSkipsBadLines(t *testing.T) {
	a := writeRun(t, "a", map[string][]float64{"linger.ms=0": {100, 102, 98}, "linger.ms=5": {200, 210, 190}})
	b := writeRun(t, "b", map[string][]float64{"linger.ms=0": {120, 118, 122}})
	corruptRun(t, a)
	tests := []struct {
		name string
		args []string
		out  string // in stdout
	}{
		// All three trials of linger.ms=0 are still there.
		{"report", []string{"report", a, "--format", "csv"}, "linger.ms=0,0,3"},
		{"compare runs", []string{"compare", a, b}, "A = a (3 trials)"},
		{"compare scenarios", []string{"compare", a, "--scenarios", "linger.ms=0", "linger.ms=5"}, "(3 trials)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(tt.args, &out, &errOut); code != ExitOK {
				t.Fatalf("exit %d, want %d; stderr: %s", code, ExitOK, errOut.String())
			}
			if !strings.Contains(out.String(), tt.out) {
				t.Errorf("stdout lacks %q:\n%s", tt.out, out.String())
			}
			warns := strings.Split(strings.TrimSpace(errOut.String()), "\n")
			if len(warns) != 2 || !strings.Contains(warns[0], "skipped line 2 (") || !strings.Contains(warns[1], "skipped line 3 (5 bytes): not a record") {
				t.Errorf("stderr %q, want one warning for line 2 and one for line 3", errOut.String())
			}
		})
	}
}

// TestReadRunMissing: a run directory without results is a usage error.
func TestReadRunMissing(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"report", t.TempDir()}, &out, &errOut); code != ExitUsage {
		t.Fatalf("exit %d, want %d; stderr: %s", code, ExitUsage, errOut.String())
	}
}

// TestReadRunNoRecord: report and compare refuse (exit 2) a results.jsonl
// that holds no record they can use, saying what they found, instead of
// rendering an empty table that looks like a run that measured nothing.
func TestReadRunNoRecord(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    string // in stderr
	}{
		{"empty", "", "results.jsonl is empty"},
		{"blank lines", "\n\n", "results.jsonl is empty"},
		{"binary", "\x00\x01\x02\xff\xfe\n\x89PNG\r\n\x1a\n", "holds no readable record: 3 lines skipped"},
		{"torn only", `{"schema":2,"run":"x","tri`, "holds no readable record: 1 line skipped"},
		{"not records", `{"run":"x"}` + "\n" + `[1,2]` + "\n", "holds no readable record: 2 lines skipped"},
		// A record of another schema is no damage to skip: the run is another prodlab's.
		{"unknown schema", `{"schema":99}` + "\n", "results.jsonl line 1 is a record of schema 99; this prodlab reads schemas 1 to 2"},
	}
	for _, tt := range tests {
		for _, cmd := range [][]string{{"report"}, {"report", "--format", "json"}, {"compare", "--scenarios", "a", "b"}} {
			t.Run(tt.name+"/"+strings.Join(cmd, " "), func(t *testing.T) {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, results.ResultsFile), []byte(tt.content), 0o644); err != nil {
					t.Fatal(err)
				}
				args := append([]string{cmd[0], dir}, cmd[1:]...)
				var out, errOut bytes.Buffer
				if code := run(args, &out, &errOut); code != ExitUsage {
					t.Fatalf("exit %d, want %d; stdout: %s; stderr: %s", code, ExitUsage, out.String(), errOut.String())
				}
				if !strings.Contains(errOut.String(), tt.want) {
					t.Errorf("stderr lacks %q:\n%s", tt.want, errOut.String())
				}
			})
		}
	}
}
