package lab

import (
	"context"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/spec"
)

// KIP-1269 emulation in the lab: clusters with kip1269.retain start their
// brokers with prodlab's agent (TargetConfig.KIP1269Retain), scenarios with
// kip1269.lift.client.cap get a Java worker of their own with the agent in
// client mode (DriverFor), and every record says so (Record.Emulated).

// checkExternalKIP1269 refuses the emulation on an existing cluster:
// prodlab does not patch brokers it did not start.
func checkExternalKIP1269(sc spec.Scenario, p *problems) {
	if sc.Exp.KIP1269() {
		p.add("kip1269 patches the brokers and worker prodlab starts; it does not patch brokers it did not start (drop kip1269 or --bootstrap)", label(sc))
	}
}

// DriverFor returns the driver of an experiment's client: Driver's, or,
// with kip1269.lift.client.cap, a Java worker of its own whose producer
// accepts idempotence with more than 5 requests in flight.
func (t *Target) DriverFor(ctx context.Context, e *spec.Experiment) (driver.Driver, error) {
	if !e.KIP1269LiftClientCap {
		return t.Driver(ctx, e.Client)
	}
	if err := t.Recover(ctx); err != nil {
		return nil, err
	}
	release := cluster.ReleaseOrDefault(t.version)
	key := driver.LiftedKey(e.Client, release)
	if w, ok := t.watched[key]; ok {
		return w, nil
	}
	d, ok := t.drivers[key]
	if !ok {
		t.cfg.Logf("starting Java worker with kafka-clients %s, idempotence cap lifted by prodlab's agent (KIP-1269 emulation)", driver.Release(e.Client, release))
		var err error
		if d, err = driver.NewLifted(ctx, e.Client, release, t.cfg.WorkerJar, t.cfg.LogDir); err != nil {
			return nil, err
		}
		t.drivers[key] = d
	}
	w := &watchedDriver{Driver: d, t: t}
	t.watched[key] = w
	return w, nil
}
