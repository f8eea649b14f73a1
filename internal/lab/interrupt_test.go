package lab

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/testtier"
)

// TestInterruptWhileBrokerDown interrupts a run while a killed broker is
// down for 5 minutes: the run must end promptly (not wait to restart the
// broker), and the trial under way is recorded as interrupted.
func TestInterruptWhileBrokerDown(t *testing.T) {
	testtier.Shared(t)
	needCluster(t) // integration test; this one starts its own cluster
	exp, scs := planYAML(t, "interrupt.yaml", `
name: interrupt
workload: {records: 1000000, record.size: 100, payload: random, rate: 2000}
client: franz-go
producer: {acks: all}
faults:
  - {type: broker.kill, broker: 1, at.ms: 300, delay.ms: 300000}
`)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := &watchWriter{want: "trial 0 started", seen: make(chan struct{})}
	var cancelledAt time.Time
	go func() {
		select {
		case <-started.seen:
			time.Sleep(2 * time.Second) // the kill fires at 300 ms
		case <-time.After(3 * time.Minute):
		}
		cancelledAt = time.Now()
		cancel()
	}()
	sum, _ := Run(ctx, exp, scs, Options{Dir: dir, Log: started})
	took := time.Since(cancelledAt)
	t.Logf("the run ended %s after the interrupt; log:\n%s", took.Round(time.Millisecond), started.buf.String())
	// A run that waited for the killed broker would end 5 minutes later;
	// one that did not ends in seconds, more on a loaded machine.
	if took > time.Minute {
		t.Errorf("the run took %s to end after the interrupt: it waited for the killed broker", took)
	}
	if sum == nil || len(sum.Records) != 1 || sum.Records[0].Status != results.StatusInterrupted {
		t.Errorf("records %+v, want the one trial recorded as interrupted", sum)
	}
}

// watchWriter closes seen the first time want is written to it.
type watchWriter struct {
	want string
	seen chan struct{}
	once sync.Once
	buf  strings.Builder
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}
