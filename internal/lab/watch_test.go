package lab

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/testtier"
)

// twoSteady is two scenarios of 20-second steady trials on the lab's own
// one-broker cluster (no --bootstrap), three rounds. The Java client: the
// franz-go driver, once cancelled, still waits for its buffered records'
// delivery timeout (AbortBufferedRecords without a deadline in
// franzRun.finish), which would hide the prompt failure under test.
const twoSteady = `
name: broker-death
cluster: {brokers: 1}
topic: {partitions: 1, replication.factor: 1}
workload: {duration.s: 20, rate: 2000, record.size: 200, payload: random}
client: java
trials: 3
matrix:
  linger.ms: [0, 5]
`

// killer is the run's log writer: on chosen "started" lines (trial starts)
// it SIGKILLs the run's broker JVM a moment later, as a crash would,
// without going through the cluster (not a fault), and notes when.
type killer struct {
	t      *testing.T
	dir    string       // the run directory: the broker's command line names it
	at     map[int]bool // trial starts (1-based) to kill in
	mu     sync.Mutex
	log    strings.Builder
	starts int
	killed []time.Time
	failed []time.Time // "FAILED" lines seen after each kill
}

func (k *killer) Write(p []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.log.Write(p)
	for _, line := range strings.Split(string(p), "\n") {
		switch {
		case trialStarted.MatchString(line):
			k.starts++
			if k.at[k.starts] {
				go k.kill()
			}
		case strings.Contains(line, "FAILED: broker"):
			k.failed = append(k.failed, time.Now())
		}
	}
	return len(p), nil
}

// trialStarted matches the progress line of a trial's start (and not a
// broker log line quoted in an error that also ends in "started").
var trialStarted = regexp.MustCompile(`^\[\d+/\d+\] \S+ trial \d+ started$`)

// kill waits until the trial is sending, then SIGKILLs the broker JVM.
func (k *killer) kill() {
	time.Sleep(2 * time.Second)
	pid := brokerPid(k.dir)
	if pid == 0 {
		k.t.Errorf("no broker JVM under %s to kill", k.dir)
		return
	}
	k.mu.Lock()
	k.killed = append(k.killed, time.Now())
	k.mu.Unlock()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		k.t.Errorf("kill broker pid %d: %v", pid, err)
	}
}

// brokerPid finds the Kafka JVM whose command line names a file under dir.
func brokerPid(dir string) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		args := string(cmdline)
		if strings.Contains(args, "kafka.Kafka\x00") && strings.Contains(args, dir+string(filepath.Separator)) {
			return pid
		}
	}
	return 0
}

// TestBrokerDeath kills the embedded broker from outside twice in one run:
// the trial it dies in fails within seconds with its exit status and log
// tail; the next trial runs on the restarted broker and succeeds; the
// second death loses the cluster, which stops the group and records the
// scenario that did not run.
func TestBrokerDeath(t *testing.T) {
	testtier.Shared(t)
	needCluster(t) // an integration test: not in -short mode
	exp, scs := planYAML(t, "death.yaml", twoSteady)
	dir := t.TempDir()
	jar := workerJarForTest(t)
	// Round 0 runs A then B, round 1 B then A: kill in A's first trial
	// (start 1) and in B's second (start 3).
	k := &killer{t: t, dir: dir, at: map[int]bool{1: true, 3: true}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	_, err := Run(ctx, exp, scs, Options{Dir: dir, Log: k, WorkerJar: jar})
	k.mu.Lock()
	defer k.mu.Unlock()
	t.Logf("run log:\n%s", k.log.String())
	if !errors.Is(err, ErrTrialsFailed) {
		t.Fatalf("Run = %v, want ErrTrialsFailed", err)
	}
	recs, err := results.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		scenario string
		status   string
		errHas   []string
	}
	a, b := "linger.ms=0", "linger.ms=5"
	exit := []string{"broker 1 (pid ", "exited unexpectedly (signal: killed)", "last lines of ", "broker-1.log"}
	wants := []want{
		{a, results.StatusFailed, exit},
		{b, results.StatusOK, nil}, // on the restarted broker
		{b, results.StatusFailed, exit},
		{a, results.StatusFailed, []string{"embedded cluster lost", "again after the brokers were restarted once"}},
		{b, results.StatusFailed, []string{"not run: embedded cluster lost"}},
	}
	if len(recs) != len(wants) {
		t.Fatalf("%d records, want %d", len(recs), len(wants))
	}
	for i, w := range wants {
		r := recs[i]
		if r.ScenarioID != w.scenario || r.Status != w.status {
			t.Errorf("record %d: %s %s (%s), want %s %s", i, r.ScenarioID, r.Status, r.Error, w.scenario, w.status)
		}
		for _, s := range w.errHas {
			if !strings.Contains(r.Error, s) {
				t.Errorf("record %d: error lacks %q:\n%s", i, s, r.Error)
			}
		}
	}
	if recs[1].Records.Acked == 0 || recs[1].Records.Failed != 0 {
		t.Errorf("trial after the restart: %+v, want records acked and none failed", recs[1].Records)
	}
	if len(k.killed) != 2 || len(k.failed) != 2 {
		t.Fatalf("%d kills and %d failures seen, want 2 of each", len(k.killed), len(k.failed))
	}
	for i := range k.killed {
		took := k.failed[i].Sub(k.killed[i])
		t.Logf("kill %d: trial failed %v after the kill", i+1, took.Round(time.Millisecond))
		// A trial that missed the death would end with its window, 18 s
		// after the kill, or at the client's delivery timeout; the watch
		// ends it within a second or two, more on a loaded machine.
		if took > 12*time.Second {
			t.Errorf("kill %d: the trial failed %v after the kill, want within 12 s (the window ends 18 s after it)", i+1, took)
		}
	}
}
