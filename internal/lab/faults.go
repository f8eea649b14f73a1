package lab

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/spec"
)

// defaultFaultDelay is how long a killed, paused or shut-down broker stays
// down when the fault names no delay.ms.
const defaultFaultDelay = 5 * time.Second

// faultRun injects a trial's broker faults on their schedule and puts every
// broker back afterwards. Connection cuts are the proxies' job (netemConfig).
type faultRun struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	events []results.Event
}

func (f *faultRun) event(kind, format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events = append(f.events, results.Event{
		Time: time.Now().UTC().Format(time.RFC3339Nano), Kind: kind, Detail: fmt.Sprintf(format, args...),
	})
}

// startFaults schedules the broker faults of e relative to now.
func (r *runner) startFaults(ctx context.Context, tgt *target, adm *admin, topic string, e spec.Experiment) *faultRun {
	ctx, cancel := context.WithCancel(ctx)
	f := &faultRun{cancel: cancel}
	for _, ft := range e.Faults {
		if ft.Type == "connection.cut" {
			continue
		}
		ft := ft
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			r.injectBrokerFault(ctx, f, tgt, adm, topic, ft)
		}()
	}
	return f
}

// stop cancels faults that have not fired, waits until every broker a fault
// took down is back, and returns what happened.
func (f *faultRun) stop() []results.Event {
	f.cancel()
	f.wg.Wait()
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.events
}

func (r *runner) injectBrokerFault(ctx context.Context, f *faultRun, tgt *target, adm *admin, topic string, ft spec.Fault) {
	if !sleepCtx(ctx, time.Duration(ft.AtMs*float64(time.Millisecond))) {
		return
	}
	id := ft.Broker
	if id < 1 { // not given: the leader of partition 0
		leader, err := adm.leader(ctx, topic, 0)
		if err != nil {
			f.event("error", "%s: find leader of %s-0: %v", ft.Type, topic, err)
			return
		}
		id = leader
	}
	delay := time.Duration(ft.DelayMs * float64(time.Millisecond))
	if delay <= 0 {
		delay = defaultFaultDelay
	}
	var down, up func() error
	switch ft.Type {
	case "broker.kill":
		down = func() error { return tgt.c.Kill(id) }
		up = func() error { return tgt.c.Restart(context.Background(), id) }
	case "broker.pause":
		down = func() error { return tgt.c.Pause(id) }
		up = func() error { return tgt.c.Resume(id) }
	case "leader.shutdown":
		down = func() error { return tgt.c.Shutdown(id) }
		up = func() error { return tgt.c.Restart(context.Background(), id) }
	default:
		f.event("error", "unknown fault type %s", ft.Type)
		return
	}
	if err := down(); err != nil {
		f.event("error", "%s broker %d: %v", ft.Type, id, err)
		return
	}
	f.event(ft.Type, "broker %d", id)
	sleepCtx(ctx, delay) // a trial that ends early still brings the broker back
	if err := up(); err != nil {
		f.event("error", "recover broker %d after %s: %v", id, ft.Type, err)
		return
	}
	f.event("recovered", "broker %d after %s", id, ft.Type)
}

// sleepCtx waits for d or until ctx ends; it reports whether d elapsed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
