package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/maven"
)

// TestUpDryRun: `cluster up --dry-run` and `trogdor up --dry-run` print
// what would start and exit 0 with nothing started and nothing written
// (no state file, no lock, no directory), and refuse bad flags with the
// real command's exit 2 and message. PATH holds no java or mvn, so a dry
// run that tried either would fail.
func TestUpDryRun(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string // "{td}" is the test's temporary directory
		noWorker bool     // PRODLAB_WORKER_JAR names a missing jar
		cached   bool     // the trogdor release is in the cache
		wantCode int
		wantOut  []string
		wantErr  string
	}{
		{name: "cluster of a distribution", args: []string{"cluster", "up", "--dry-run", "--kafka", "{td}/kafka"},
			wantOut: []string{"would start Kafka 4.4.0 from {td}/kafka: 1 broker(s)", "3 per broker", "heap: ", "state: {cache}/cluster.json (not written"}},
		{name: "cluster in a dir", args: []string{"cluster", "up", "--dry-run", "--kafka", "{td}/kafka", "--dir", "{td}/logs"},
			wantOut: []string{"data and logs: {td}/logs"}},
		{name: "fleet", args: []string{"trogdor", "up", "--dry-run", "--agents", "3"},
			wantOut: []string{"would start Trogdor 4.3.1 (not in the cache: mvn downloads it", "agent-1, agent-2, agent-3", "ports: 4", "state: {cache}/trogdor.json (not written"}},
		{name: "fleet of a cached release", args: []string{"trogdor", "up", "--dry-run", "--dir", "{td}/fleet"}, cached: true,
			wantOut: []string{"would start Trogdor 4.3.1 (in the cache)", "config and logs: {td}/fleet"}},
		{name: "zero brokers", args: []string{"cluster", "up", "--dry-run", "--brokers", "0"},
			wantCode: ExitUsage, wantErr: "--brokers must be between 1 and 9, got 0"},
		{name: "empty kafka", args: []string{"cluster", "up", "--dry-run", "--kafka", ""},
			wantCode: ExitUsage, wantErr: "--kafka is empty"},
		{name: "missing distribution", args: []string{"cluster", "up", "--dry-run", "--kafka", "{td}/none"},
			wantCode: ExitUsage, wantErr: "neither a release version"},
		{name: "dir a file", args: []string{"cluster", "up", "--dry-run", "--kafka", "{td}/kafka", "--dir", "{td}/kafka/libs/kafka_2.13-4.4.0.jar"},
			wantCode: ExitUsage, wantErr: "is a file, not a directory"},
		{name: "nine agents", args: []string{"trogdor", "up", "--dry-run", "--agents", "9"},
			wantCode: ExitUsage, wantErr: "--agents must be between 1 and 8, got 9"},
		{name: "release before 3.0", args: []string{"trogdor", "up", "--dry-run", "--release", "2.8.2"},
			wantCode: ExitUsage, wantErr: "release 2.8.2 is older than 3.0"},
		{name: "no worker jar", args: []string{"trogdor", "up", "--dry-run"}, noWorker: true,
			wantCode: ExitUsage, wantErr: "the Java worker is not at"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			td, cache := t.TempDir(), t.TempDir()
			t.Setenv(maven.CacheEnv, cache)
			t.Setenv("PATH", t.TempDir())
			t.Setenv("JAVA_HOME", "")
			worker := filepath.Join(td, "prodlab-worker.jar")
			if !tc.noWorker {
				writeFileAt(t, worker, "")
			}
			t.Setenv("PRODLAB_WORKER_JAR", worker)
			writeFileAt(t, filepath.Join(td, "kafka", "libs", "kafka_2.13-4.4.0.jar"), "")
			if tc.cached {
				dir := filepath.Join(cache, "maven", "trogdor-4.3.1")
				writeFileAt(t, filepath.Join(dir, ".complete"), "org.apache.kafka:trogdor:4.3.1\norg.slf4j:slf4j-simple:1.7.36\n")
				writeFileAt(t, filepath.Join(dir, "libs", "trogdor-4.3.1.jar"), "")
			}
			before := listDir(t, cache)
			expand := strings.NewReplacer("{td}", td, "{cache}", cache)
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = expand.Replace(a)
			}
			var out, errOut bytes.Buffer
			code := run(args, &out, &errOut)
			if strings.Contains(errOut.String(), "do not fit in this machine's memory") {
				t.Skipf("the machine has too little memory free for the dry run's check: %s", errOut.String())
			}
			if code != tc.wantCode || !strings.Contains(errOut.String(), tc.wantErr) {
				t.Errorf("%v: exit %d, stderr %q; want exit %d, stderr with %q", args, code, errOut.String(), tc.wantCode, tc.wantErr)
			}
			for _, w := range tc.wantOut {
				if w = expand.Replace(w); !strings.Contains(out.String(), w) {
					t.Errorf("%v: stdout lacks %q:\n%s", args, w, out.String())
				}
			}
			if after := listDir(t, cache); after != before {
				t.Errorf("%v wrote to the cache (state, lock or directory):\nbefore %s\nafter  %s", args, before, after)
			}
			for _, d := range []string{"logs", "fleet"} {
				if _, err := os.Stat(filepath.Join(td, d)); err == nil {
					t.Errorf("%v created --dir %s", args, d)
				}
			}
		})
	}
}

// writeFileAt writes data to path, making its directory.
func writeFileAt(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// listDir names every file and directory under dir, one string.
func listDir(t *testing.T, dir string) string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(path string, _ os.DirEntry, err error) error {
		names = append(names, strings.TrimPrefix(path, dir))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(names, " ")
}
