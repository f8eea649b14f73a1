package cli

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// The -update flag rewrites golden files. It is registered here unless
// another test file of the package already did (package-level variables
// are initialised before init functions run).
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files in testdata/")
	}
}

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s--- want\n%s", name, got, want)
	}
}
