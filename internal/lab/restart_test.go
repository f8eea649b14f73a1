package lab

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/testtier"
)

// failedLines is a run's log writer that notes when the first trial
// started and when a progress line said FAILED.
type failedLines struct {
	mu              sync.Mutex
	log             strings.Builder
	started, failed time.Time
}

func (w *failedLines) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.log.Write(p)
	for _, line := range strings.Split(string(p), "\n") {
		switch {
		case trialStarted.MatchString(line) && w.started.IsZero():
			w.started = time.Now()
		case strings.Contains(line, "FAILED:") && w.failed.IsZero():
			w.failed = time.Now()
		}
	}
	return len(p), nil
}

// TestFaultRestartFails takes the broker down with a real leader.shutdown
// whose restart fails (the action's up is the test's: the broker stays
// down): the trial fails at once with the restart's error instead of
// running on against a broker that is gone, the cluster is given up, and
// the group's other scenario is recorded as not run. Before, the restart's
// error was only an event and the trial hung until its client gave up.
func TestFaultRestartFails(t *testing.T) {
	testtier.Shared(t)
	needCluster(t) // an integration test: not in -short mode
	exp, scs := planYAML(t, "restart.yaml", `
name: restart-fails
cluster: {brokers: 1}
topic: {partitions: 1, replication.factor: 1}
workload: {duration.s: 30, rate: 2000, record.size: 200, payload: random}
client: java
faults:
  - {type: leader.shutdown, at.ms: 2000, delay.ms: 300}
matrix:
  linger.ms: [0, 5]
`)
	dir := t.TempDir()
	real := faultActions[expfile.FaultLeaderShutdown]
	refused := errors.New("test: the broker is kept down")
	fails := real
	fails.down = func(c *cluster.Cluster, id int) (func(context.Context) error, error) {
		if _, err := real.down(c, id); err != nil {
			return nil, err
		}
		return func(context.Context) error { return refused }, nil
	}
	w := &failedLines{}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	_, err := Run(ctx, exp, scs, Options{Dir: dir, Log: w, WorkerJar: workerJarForTest(t),
		actions: map[string]faultAction{expfile.FaultLeaderShutdown: fails}})
	w.mu.Lock()
	defer w.mu.Unlock()
	t.Logf("run log:\n%s", w.log.String())
	if !errors.Is(err, ErrTrialsFailed) {
		t.Fatalf("Run = %v, want ErrTrialsFailed", err)
	}
	recs, err := results.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	wants := []struct {
		scenario string
		errHas   []string
	}{
		{"linger.ms=0", []string{"embedded cluster lost", "recover broker 1 after leader.shutdown", refused.Error()}},
		{"linger.ms=5", []string{"not run: embedded cluster lost"}},
	}
	if len(recs) != len(wants) {
		t.Fatalf("%d records, want %d", len(recs), len(wants))
	}
	for i, want := range wants {
		r := recs[i]
		if r.ScenarioID != want.scenario || r.Status != results.StatusFailed {
			t.Errorf("record %d: %s %s (%s), want %s failed", i, r.ScenarioID, r.Status, r.Error, want.scenario)
		}
		for _, s := range want.errHas {
			if !strings.Contains(r.Error, s) {
				t.Errorf("record %d: error lacks %q:\n%s", i, s, r.Error)
			}
		}
	}
	if !strings.Contains(eventKinds(recs[0]), "error") {
		t.Errorf("events %s lack the restart's error", eventKinds(recs[0]))
	}
	// The fault fires 2 s into the trial; a trial that ran on would end
	// with its 30 s window or its client's delivery timeout.
	took := w.failed.Sub(w.started)
	t.Logf("the trial failed %v after it started", took.Round(time.Millisecond))
	if w.failed.IsZero() || took > 20*time.Second {
		t.Errorf("the trial failed %v after it started, want within 20 s (the fault fires at 2 s, the window ends at 30 s)", took)
	}
}
