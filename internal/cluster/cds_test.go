package cluster

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/testtier"
)

// exitState runs sh -c script and returns how it ended.
func exitState(t *testing.T, script string) *os.ProcessState {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	_ = cmd.Run()
	return cmd.ProcessState
}

// TestClassArchiveKeep: a dumped archive is moved into place only when its
// JVM exited by itself with a file written; a killed JVM's part is removed.
func TestClassArchiveKeep(t *testing.T) {
	tests := []struct {
		name     string
		script   string
		write    string // what the "JVM" left in pending
		wantKept bool
	}{
		{"exited, archive written", "exit 0", "archive", true},
		{"exited 143 after SIGTERM, archive written", "exit 143", "archive", true},
		{"killed while dumping", "kill -9 $$", "part", false},
		{"exited without writing one", "exit 1", "", false},
		{"exited, empty file", "exit 0", "EMPTY", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			a := classArchive{path: filepath.Join(dir, "k.jsa")}
			pending := filepath.Join(dir, "k.jsa.1.tmp")
			switch tc.write {
			case "":
			case "EMPTY":
				_ = os.WriteFile(pending, nil, 0o644)
			default:
				_ = os.WriteFile(pending, []byte(tc.write), 0o644)
			}
			a.keep(pending, exitState(t, tc.script))
			_, err := os.Stat(a.path)
			if kept := err == nil; kept != tc.wantKept {
				t.Errorf("archive kept = %v, want %v", kept, tc.wantKept)
			}
			if _, err := os.Stat(pending); err == nil {
				t.Error("the pending file is still there")
			}
		})
	}
}

// TestClassArchiveArgs: no archive yet means a dump at exit into a file of
// the JVM's own, an archive means mapping it, and the user's own CDS
// options (PRODLAB_BROKER_JVM_OPTS) mean none from prodlab.
func TestClassArchiveArgs(t *testing.T) {
	a := classArchive{path: filepath.Join(t.TempDir(), "k.jsa")}
	if got := a.useArgs(); got != nil {
		t.Errorf("useArgs before an archive = %v, want none", got)
	}
	args, pending := a.brokerArgs()
	if pending == "" || pending == a.path || len(args) != 1 || args[0] != "-XX:ArchiveClassesAtExit="+pending {
		t.Fatalf("brokerArgs before an archive = %v, %q: want a dump into a pending file", args, pending)
	}
	if _, err := os.Stat(pending); err == nil {
		t.Error("the pending file exists before the JVM wrote it")
	}
	if err := os.WriteFile(a.path, []byte("archive"), 0o644); err != nil {
		t.Fatal(err)
	}
	if args, pending := a.brokerArgs(); pending != "" || !slices.Equal(args, []string{"-XX:SharedArchiveFile=" + a.path}) {
		t.Errorf("brokerArgs with an archive = %v, %q: want it mapped", args, pending)
	}
	if args, _ := (classArchive{}).brokerArgs(); args != nil {
		t.Errorf("brokerArgs without an archive path = %v, want none", args)
	}

	java, err := javaPath()
	if err != nil {
		t.Skip(err)
	}
	jar := filepath.Join(t.TempDir(), "a.jar")
	if err := os.WriteFile(jar, []byte("jar"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, opts := range []string{"", "-Xshare:off", "-XX:SharedArchiveFile=/x.jsa", "-XX:ArchiveClassesAtExit=/x.jsa"} {
		t.Setenv(BrokerJVMOptsEnv, opts)
		got := newClassArchive(t.TempDir(), java, dist{classpath: jar}).path
		if want := opts == ""; (got != "") != want {
			t.Errorf("%s=%q: archive %q, want one: %v", BrokerJVMOptsEnv, opts, got, want)
		}
	}
}

// TestClassArchiveKey: the archive's name changes with any jar's size or
// modification time (CDS refuses an archive whose jars changed) and with
// the class path, and stays put otherwise.
func TestClassArchiveKey(t *testing.T) {
	java, err := javaPath()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	jar := filepath.Join(dir, "a.jar")
	if err := os.WriteFile(jar, []byte("jar"), 0o644); err != nil {
		t.Fatal(err)
	}
	key := func(cp string) string {
		k, err := archiveKey(java, cp)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	k0 := key(jar)
	if key(jar) != k0 {
		t.Error("the same jars gave two keys")
	}
	if key(filepath.Join(dir, "*")) == k0 {
		t.Error("a different class path gave the same key")
	}
	if err := os.Chtimes(jar, time.Now(), time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if key(jar) == k0 {
		t.Error("a jar's new modification time kept the key")
	}
	if _, err := archiveKey(java, filepath.Join(dir, "missing.jar")); err == nil || !strings.Contains(err.Error(), "missing.jar") {
		t.Errorf("a missing jar: %v, want an error naming it", err)
	}
}

// TestClassArchiveMapped: the first broker of a distribution dumps its
// archive when it stops, and the next broker maps it (the file is in its
// /proc/PID/maps) without a CDS warning in its log.
func TestClassArchiveMapped(t *testing.T) {
	testtier.Shared(t)
	dir := t.TempDir()
	first := startCluster(t, Config{Brokers: 1, ArchiveDir: dir})
	if log := readLog(t, first); !strings.Contains(log, "-XX:ArchiveClassesAtExit="+dir) {
		t.Fatalf("the first broker does not dump an archive into %s:\n%s", dir, lastLines(log, 5))
	}
	if err := first.Stop(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 1 || !strings.HasSuffix(files[0], ".jsa") {
		t.Fatalf("archive directory after the first broker stopped: %v, want one .jsa", files)
	}
	second := startCluster(t, Config{Brokers: 1, ArchiveDir: dir})
	log := readLog(t, second)
	if !strings.Contains(log, "-XX:SharedArchiveFile="+files[0]) {
		t.Errorf("the second broker does not map %s:\n%s", files[0], lastLines(log, 5))
	}
	if strings.Contains(log, "[cds") || strings.Contains(log, "shared archive") {
		t.Errorf("a CDS warning in the broker log:\n%s", lastLines(log, 20))
	}
	maps, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", second.Brokers()[0].PID))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(maps), files[0]) {
		t.Errorf("the second broker's JVM has not mapped %s", files[0])
	}
}

// readLog returns the log of c's first broker.
func readLog(t *testing.T, c *Cluster) string {
	t.Helper()
	data, err := os.ReadFile(c.nodes[0].logPath)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
