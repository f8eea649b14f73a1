package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/secret"
)

// TestFilesScrubbed: a secret the process remembers, quoted in a trial's
// error or in the saved environment, is in no file of the run directory,
// and the record still reads back whole.
func TestFilesScrubbed(t *testing.T) {
	const marker = "results-marker-pw"
	secret.Remember(marker)
	dir := t.TempDir()
	w, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	rec := Record{ScenarioID: "s", Trial: 1, Client: "java", Error: `login to https://app:` + marker + `@idp/token failed: "` + marker + `"`}
	if err := w.Append(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := WriteEnvironment(dir, Environment{JVMOpts: map[string]string{"worker": "-Dproxy.url=http://u:" + marker + "@p"}}); err != nil {
		t.Fatal(err)
	}
	recs, err := Read(dir)
	if err != nil || len(recs) != 1 || !strings.Contains(recs[0].Error, "app:[hidden]@idp") {
		t.Fatalf("read back %v, %+v", err, recs)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), marker) {
			t.Errorf("%s holds the secret:\n%s", filepath.Base(f), b)
		}
	}
}
