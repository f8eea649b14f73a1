package lab

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/netem"
	"github.com/prodlab/prodlab/internal/results"
)

// faultAction is the lab side of a fault type (expfile.FaultTypes): how it
// is carried out. Each type registers its own in lab/fault_<name>.go;
// TestFaultActions checks that every expfile fault type has one and vice versa.
// Exactly one of proxy, down, links and fence is set.
type faultAction struct {
	// proxy adds the fault to the client proxies' settings; such a fault
	// puts the proxies in front of the brokers and works on any cluster.
	proxy func(cut *netem.Fault, f expfile.Fault)
	// down takes broker id of an embedded cluster down and returns how to
	// bring it back (up gives up when its context ends: an interrupted run
	// does not wait for a broker to restart); such a fault runs on a timer
	// in startFaults.
	down func(c *cluster.Cluster, id int) (up func(context.Context) error, err error)
	// fleet, for a down fault that Trogdor can deliver too, is the Trogdor
	// fault spec (class and its own fields; prodlab adds the times) that
	// carries it out on agent node, the host of the broker: how the fault
	// reaches an existing cluster's brokers from a fleet (fleetfaults.go).
	fleet func(node string) map[string]any
	// links, for a fault on the paths between zones, holds (on) or heals
	// (off) the target's proxies the fault names; such a fault runs on a
	// timer in startFaults and needs the client's proxies.
	links func(t *Target, f expfile.Fault, on bool) error
	// fence, for a fault on the trial's producer itself, acts on the
	// transactional ids it runs with (ids) at the fault's time; such a
	// fault runs on a timer in startFaults.
	fence func(ctx context.Context, t *Target, bootstrap, ids []string) error
}

// faultActions maps expfile fault type names to their actions.
var faultActions = map[string]faultAction{}

// registerFault adds the action of a fault type; it runs from init
// functions.
func registerFault(name string, a faultAction) {
	if _, dup := faultActions[name]; dup {
		panic("lab: fault type registered twice: " + name)
	}
	faultActions[name] = a
}

// action is the action of fault type name: the run's own (a test's)
// when it has one, else the registered one.
func (x *executor) action(name string) faultAction {
	if a, ok := x.actions[name]; ok {
		return a
	}
	return faultActions[name]
}

// isProxyFault reports whether the proxies carry fault f out.
func isProxyFault(f expfile.Fault) bool { return faultActions[f.Type].proxy != nil }

// needsClientProxies reports whether fault f needs the client's proxies in
// front of the brokers.
func needsClientProxies(f expfile.Fault) bool {
	a := faultActions[f.Type]
	return a.proxy != nil || a.links != nil
}

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

// startFaults schedules the faults of e on trial t relative to now.
func (x *executor) startFaults(ctx context.Context, tgt *Target, adm *cluster.Admin, t driver.Trial, e expfile.Experiment) *faultRun {
	topic := t.Topic
	ctx, cancel := context.WithCancel(ctx)
	f := &faultRun{cancel: cancel}
	for _, ft := range e.Faults {
		if fence := faultActions[ft.Type].fence; fence != nil {
			f.wg.Add(1)
			go func() {
				defer f.wg.Done()
				injectFence(ctx, f, tgt, t, ft, fence)
			}()
			continue
		}
		if faultActions[ft.Type].links != nil {
			f.wg.Add(1)
			go func() {
				defer f.wg.Done()
				injectLinkFault(ctx, f, tgt, adm, topic, ft)
			}()
			continue
		}
		if faultActions[ft.Type].down == nil {
			continue
		}
		var fleet *Fleet // the fleet that delivers ft, if any
		if fleetFault(expfile.Scenario{Exp: e}, ft, tgt.cfg.Bootstrap != nil) {
			fleet = tgt.cfg.Fleets.For(e.Trogdor)
		}
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			x.injectBrokerFault(ctx, f, tgt, adm, topic, ft, fleet)
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

// injectBrokerFault takes a broker down at the fault's time and brings it
// back after its delay: prodlab itself on an embedded cluster, or fleet
// (not nil) on an existing one.
func (x *executor) injectBrokerFault(ctx context.Context, f *faultRun, tgt *Target, adm *cluster.Admin, topic string, ft expfile.Fault, fleet *Fleet) {
	if !sleepCtx(ctx, time.Duration(ft.AtMs*float64(time.Millisecond))) {
		return
	}
	id := ft.Broker
	if id < 1 { // not given: the leader of partition 0
		leader, err := adm.Leader(ctx, topic, 0)
		if err != nil {
			f.event("error", "%s: find leader of %s-0: %v", ft.Type, topic, err)
			return
		}
		id = leader
	}
	delay := time.Duration(ft.DelayMs * float64(time.Millisecond))
	if delay <= 0 { // a Fault built without expfile's parser
		delay = expfile.DefaultFaultDelayMs * time.Millisecond
	}
	if fleet != nil {
		x.injectFleetFault(ctx, f, tgt, fleet, ft, id, delay)
		return
	}
	up, err := x.action(ft.Type).down(tgt.c, id)
	if err != nil {
		f.event("error", "%s broker %d: %v", ft.Type, id, err)
		return
	}
	f.event(ft.Type, "broker %d", id)
	sleepCtx(ctx, delay) // a trial that ends early still brings the broker back
	if err := up(x.runContext()); err != nil {
		err = fmt.Errorf("recover broker %d after %s: %w", id, ft.Type, err)
		f.event("error", "%v", err)
		// A broker that does not come back leaves a cluster no later trial
		// can trust: give it up, which ends this trial at once (its error,
		// see runMeasured) and records the group's other scenarios as not run.
		_ = tgt.giveUpWith(fmt.Errorf("%w: %w", ErrClusterLost, err))
		return
	}
	cpus, err := x.repin(tgt, id)
	if err != nil {
		f.event("error", "pin broker %d after %s: %v", id, ft.Type, err)
	}
	if cpus != "" {
		cpus = ", on CPUs " + cpus
	}
	f.event("recovered", "broker %d after %s%s", id, ft.Type, cpus)
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

// runContext is the run's own context (done once the user interrupts), for
// work that must outlive a trial but not the run.
func (x *executor) runContext() context.Context {
	if x.root == nil {
		return context.Background()
	}
	return x.root
}

// injectFence carries out a fault on the trial's producer at its time:
// fence acts on the transactional ids of t's producers.
func injectFence(ctx context.Context, f *faultRun, tgt *Target, t driver.Trial, ft expfile.Fault,
	fence func(context.Context, *Target, []string, []string) error) {
	if !sleepCtx(ctx, time.Duration(ft.AtMs*float64(time.Millisecond))) {
		return
	}
	ids := driver.TransactionalIDs(t)
	if err := fence(ctx, tgt, t.Bootstrap, ids); err != nil {
		f.event("error", "%s: %v", ft.Type, err)
		return
	}
	f.event(ft.Type, "%s", strings.Join(ids, ", "))
}
