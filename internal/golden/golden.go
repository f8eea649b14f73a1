// Package golden compares text output with golden files in testdata/ and
// rewrites them when tests run with -update. Tests of every package that
// renders text share it, so the flag is registered once per test binary.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// Update reports whether the test binary runs with -update.
func Update() bool { return *update }

// Check compares got with testdata/name; under -update it writes got there
// first.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s--- want\n%s", path, got, want)
	}
}
