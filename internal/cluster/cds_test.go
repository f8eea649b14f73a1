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

// TestClassArchiveKeep: a broker's class list is kept only when the broker
// exited by itself with a list written; a killed broker's part is removed.
func TestClassArchiveKeep(t *testing.T) {
	tests := []struct {
		name     string
		script   string
		write    string // what the "JVM" left in pending
		wantKept bool
	}{
		{"exited, list written", "exit 0", "java/lang/Object", true},
		{"exited 143 after SIGTERM, list written", "exit 143", "java/lang/Object", true},
		{"killed mid-line", "kill -9 $$", "java/lang/Obj", false},
		{"exited, empty list", "exit 1", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			a := classArchive{path: filepath.Join(dir, "k.jsa")}
			pending := filepath.Join(dir, "k.classlist.1.tmp")
			if err := os.WriteFile(pending, []byte(tc.write), 0o644); err != nil {
				t.Fatal(err)
			}
			a.keep(pending, exitState(t, tc.script))
			_, err := os.Stat(a.list())
			if kept := err == nil; kept != tc.wantKept {
				t.Errorf("list kept = %v, want %v", kept, tc.wantKept)
			}
			if _, err := os.Stat(pending); err == nil {
				t.Error("the pending file is still there")
			}
		})
	}
}

// TestClassArchiveArgs: no archive and no list means a class list written
// into a file of the broker's own; a kept list (the archive not dumped
// yet) means neither; an archive means mapping it; and the user's own CDS
// options (PRODLAB_BROKER_JVM_OPTS) mean none from prodlab.
func TestClassArchiveArgs(t *testing.T) {
	a := classArchive{path: filepath.Join(t.TempDir(), "k.jsa")}
	if got := a.useArgs(); got != nil {
		t.Errorf("useArgs before an archive = %v, want none", got)
	}
	args, pending := a.brokerArgs()
	if pending == "" || pending == a.list() || len(args) != 1 || args[0] != "-XX:DumpLoadedClassList="+pending {
		t.Fatalf("brokerArgs before a list = %v, %q: want a class list into a pending file", args, pending)
	}
	if err := os.WriteFile(a.list(), []byte("java/lang/Object\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if args, pending := a.brokerArgs(); args != nil || pending != "" {
		t.Errorf("brokerArgs with a list kept = %v, %q: want none", args, pending)
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
	for _, opts := range []string{"", "-Xshare:off", "-XX:SharedArchiveFile=/x.jsa", "-XX:ArchiveClassesAtExit=/x.jsa", "-XX:DumpLoadedClassList=/x"} {
		t.Setenv(BrokerJVMOptsEnv, opts)
		got := newClassArchive(t.TempDir(), java, dist{classpath: jar}).path
		if want := opts == ""; (got != "") != want {
			t.Errorf("%s=%q: archive %q, want one: %v", BrokerJVMOptsEnv, opts, got, want)
		}
	}
}

// TestClassArchiveDumpLocked: while another process holds the dump lock
// (younger than staleDumpLock), a start dumps nothing and keeps the list;
// a stale lock is taken over (the dump then runs: see
// TestClassArchiveMapped).
func TestClassArchiveDumpLocked(t *testing.T) {
	a := classArchive{path: filepath.Join(t.TempDir(), "k.jsa")}
	if err := os.WriteFile(a.list(), []byte("java/lang/Object\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(a.path+".lock", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	took, err := a.dump(t.Context(), "/nonexistent/java", "x.jar")
	if took != 0 || err != nil || nonEmpty(a.path) || !nonEmpty(a.list()) {
		t.Errorf("dump under another's lock = %v, %v: want nothing done, the list kept", took, err)
	}
	old := time.Now().Add(-2 * staleDumpLock)
	if err := os.Chtimes(a.path+".lock", old, old); err != nil {
		t.Fatal(err)
	}
	// A stale lock is taken: the dump runs (and fails here, with no java),
	// which removes the list for a later broker to write anew.
	if _, err := a.dump(t.Context(), "/nonexistent/java", "x.jar"); err == nil || nonEmpty(a.list()) {
		t.Errorf("dump under a stale lock = %v, list kept %v: want the dump tried, failed and the list removed", err, nonEmpty(a.list()))
	}
	if _, err := os.Stat(a.path + ".lock"); err == nil {
		t.Error("the lock is left behind")
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

// TestClassArchiveMapped: the first broker of a distribution writes its
// class list as it loads classes and keeps it when it stops; the next
// cluster start dumps the archive from it before its broker starts, and
// that broker maps it (the file is in its /proc/PID/maps) without a CDS
// warning in its log.
func TestClassArchiveMapped(t *testing.T) {
	testtier.Shared(t)
	dir := t.TempDir()
	first := startCluster(t, Config{Brokers: 1, ArchiveDir: dir})
	if log := readLog(t, first); !strings.Contains(log, "-XX:DumpLoadedClassList="+dir) {
		t.Fatalf("the first broker writes no class list into %s:\n%s", dir, lastLines(log, 5))
	}
	if err := first.Stop(); err != nil {
		t.Fatal(err)
	}
	if lists, _ := filepath.Glob(filepath.Join(dir, "*.classlist")); len(lists) != 1 {
		t.Fatalf("class lists after the first broker stopped: %v, want one", lists)
	}
	second := startCluster(t, Config{Brokers: 1, ArchiveDir: dir})
	if note := second.ArchiveNote(); !strings.Contains(note, "wrote the brokers' class-data archive") {
		t.Errorf("ArchiveNote = %q, want the archive written", note)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsa"))
	if len(files) != 1 {
		t.Fatalf("archives: %v, want one", files)
	}
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
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
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
