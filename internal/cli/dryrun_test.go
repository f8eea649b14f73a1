package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestDryRun prints the plan of a small experiment and starts nothing: no
// run directory appears.
func TestDryRun(t *testing.T) {
	dir := t.TempDir()
	exp := filepath.Join(dir, "dry.yaml")
	if err := os.WriteFile(exp, []byte(`name: dry
workload: {duration.s: 2, warmup.s: 1}
cluster: {kafka: 4.3.1}
client: franz-go
trials: 3
warmup: 1
matrix:
  linger.ms: [0, 5]
  layout:
    - {label: one broker, cluster.brokers: 1}
    - {label: three, cluster.brokers: 3, topic.replication.factor: 3}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", exp, "--dry-run", "--out", out}, &stdout, &stderr)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	checkGolden(t, "dryrun.golden", stdout.Bytes())
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("--dry-run created %s (%v)", out, err)
	}
}
