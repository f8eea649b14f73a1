package app

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
)

func TestPrepareRunDir(t *testing.T) {
	exp := mustParse(t, "name: a\nworkload: {records: 10}\n")
	other := mustParse(t, "name: a\nworkload: {records: 11}\n")
	y, err := exp.YAML()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	held := filepath.Join(tmp, "held")
	putFile(t, filepath.Join(held, results.ExperimentFile), string(y))
	putFile(t, filepath.Join(tmp, "file"), "x")
	lives := mustParse(t, "name: a\nworkload: {records: 10}\nlives: 3\n")
	yl, err := lives.YAML()
	if err != nil {
		t.Fatal(err)
	}
	heldLives := filepath.Join(tmp, "lives")
	putFile(t, filepath.Join(heldLives, results.ExperimentFile), string(yl))
	cases := []struct {
		name   string
		out    string
		exp    *expfile.Experiment
		resume bool
		want   string // "" = accepted; else a substring of a usage error
	}{
		{"new directory", filepath.Join(tmp, "new", "run"), exp, false, ""},
		{"empty directory", t.TempDir(), exp, false, ""},
		{"holds a run", held, exp, false, "already holds a run"},
		{"resume same", held, exp, true, ""},
		{"resume another experiment", held, other, true, `has "records: 10", this run "records: 11"`},
		{"resume a run of lives", heldLives, lives, true, "--resume cannot continue a run of lives: 3 yet"},
		{"resume nothing", filepath.Join(tmp, "none"), exp, true, "holds no run"},
		{"resume without --out", "", exp, true, "name the directory"},
		{"a file", filepath.Join(tmp, "file"), exp, false, "is a file, not a directory"},
		{"under a file", filepath.Join(tmp, "file", "x"), exp, false, "which is a file, not a directory"},
		{"proc", "/proc/prodlab-test", exp, false, "cannot create"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, err := prepareRunDir(c.out, c.exp, c.resume)
			checkUsage(t, err, c.want)
			if err == nil {
				if fi, serr := os.Stat(dir); serr != nil || !fi.IsDir() {
					t.Errorf("run directory %s not created: %v", dir, serr)
				}
			}
		})
	}
}

// TestPrepareRunDirReadOnly: a read-only file system (root ignores mode
// bits, so a read-only tmpfs) is refused up front.
func TestPrepareRunDirReadOnly(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_RDONLY, "size=64k"); err != nil {
		t.Skipf("cannot mount a read-only tmpfs here (%v): needs root", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, 0) })
	_, err := prepareRunDir(dir, mustParse(t, "name: a\n"), false)
	checkUsage(t, err, "cannot write")
}

func checkUsage(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatalf("refused: %v", err)
	case want == "":
	case err == nil:
		t.Fatalf("accepted, want an error with %q", want)
	case !IsInput(err):
		t.Errorf("error %v is not an input error (exit 2)", err)
	case !strings.Contains(err.Error(), want):
		t.Errorf("error %q lacks %q", err, want)
	}
}

func mustParse(t *testing.T, src string) *expfile.Experiment {
	t.Helper()
	exp, err := expfile.Parse("x.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

func putFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
