package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/testjar"
)

// Environment of the child role of TestRunInterrupted.
const interruptDirEnv = "PRODLAB_CLI_INTERRUPT_DIR"

// TestRunInterruptedChild is the child side of TestRunInterrupted: it is
// prodlab itself, running a long experiment with the Java client.
func TestRunInterruptedChild(t *testing.T) {
	dir := os.Getenv(interruptDirEnv)
	if dir == "" {
		t.Skip("child role of TestRunInterrupted")
	}
	exp := filepath.Join(dir, "long.yaml")
	args := []string{"run", exp, "--out", filepath.Join(dir, "run")}
	if os.Getenv(interruptResumeEnv) != "" {
		args = append(args, "--resume")
	}
	os.Exit(Main(args))
}

// interruptResumeEnv makes the child resume the interrupted run.
const interruptResumeEnv = "PRODLAB_CLI_INTERRUPT_RESUME"

// TestRunInterrupted runs prodlab as a child process, interrupts it (as
// Ctrl-C does) while a trial is running, and checks that it exits 1, keeps
// the trials that finished, and leaves no broker or worker JVM behind.
func TestRunInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real Kafka broker and a Java worker")
	}
	dir := t.TempDir()
	// Rate-limited so the second scenario is still running when interrupted.
	long := `name: long
workload: {records: 200000, record.size: 200, payload: random, rate: 20000}
client: java
matrix:
  linger.ms: [0, 5]
`
	if err := os.WriteFile(filepath.Join(dir, "long.yaml"), []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRunInterruptedChild$", "-test.timeout=5m")
	cmd.Env = append(os.Environ(), interruptDirEnv+"="+dir, "PRODLAB_WORKER_JAR="+testjar.WorkerJar(t))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	// Wait until the first trial is in results.jsonl: the cluster and the
	// worker are up and the second trial is under way.
	resultsPath := filepath.Join(dir, "run", results.ResultsFile)
	deadline := time.Now().Add(3 * time.Minute)
	for {
		if recs, err := results.ReadFile(resultsPath); err == nil && len(recs) >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no trial finished within 3 minutes; stderr:\n%s", stderr.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if n := processesUnder(t, dir); n == 0 {
		t.Fatal("no broker or worker process found under the run directory before the interrupt: the check below would prove nothing")
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	}
	if code != ExitFailure {
		t.Errorf("exit code %d, want %d (interrupted run); stderr:\n%s", code, ExitFailure, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("stderr does not say the run was interrupted:\n%s", stderr.String())
	}
	recs, err := results.ReadFile(resultsPath)
	if err != nil || len(recs) < 1 || recs[0].Status != results.StatusOK {
		t.Errorf("finished trials not kept: %v %+v", err, recs)
	}
	if last := recs[len(recs)-1]; len(recs) != 2 || last.Status != results.StatusInterrupted {
		t.Errorf("the trial under way when interrupted: %d records, last %s %q; want it recorded as interrupted", len(recs), last.Status, last.Error)
	}
	if !strings.Contains(stderr.String(), "--resume") {
		t.Errorf("stderr does not say how to resume:\n%s", stderr.String())
	}
	// Nothing prodlab started may outlive it.
	gone := time.Now().Add(10 * time.Second)
	for processesUnder(t, dir) > 0 {
		if time.Now().After(gone) {
			t.Fatalf("%d process(es) started by prodlab outlived it", processesUnder(t, dir))
		}
		time.Sleep(200 * time.Millisecond)
	}
	checkResume(t, dir, resultsPath)
}

// checkResume continues the interrupted run: only the interrupted trial
// runs again, and the run ends ok with both scenarios measured.
func checkResume(t *testing.T, dir, resultsPath string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestRunInterruptedChild$", "-test.timeout=5m")
	cmd.Env = append(os.Environ(), interruptDirEnv+"="+dir, interruptResumeEnv+"=1", "PRODLAB_WORKER_JAR="+testjar.WorkerJar(t))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	recs, err := results.ReadFile(resultsPath)
	if err != nil {
		t.Fatal(err)
	}
	ok := map[string]int{}
	for _, r := range recs {
		if r.Status == results.StatusOK {
			ok[r.ScenarioID]++
		}
	}
	if len(recs) != 3 || len(ok) != 2 || ok["linger.ms=0"] != 1 || ok["linger.ms=5"] != 1 {
		t.Errorf("after resuming: %d records, ok trials per scenario %v; want 3 records and one ok trial of each scenario", len(recs), ok)
	}
}

// processesUnder counts live processes whose command line mentions dir
// (brokers' configs and the worker's log live in the run directory).
func processesUnder(t *testing.T, dir string) int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	n := 0
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' || e.Name() == fmt.Sprint(os.Getpid()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(b), dir) || strings.Contains(string(b), "-test.run=") {
			continue
		}
		if st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil && strings.Contains(string(st), ") Z ") {
			continue // a zombie is dead
		}
		n++
	}
	return n
}
