package lab

import (
	"context"
	"errors"

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

// checkKIP1269Agents runs the agent's own check, before anything starts,
// against every release the emulation will patch: each distinct Kafka
// release (or distribution) with kip1269.retain and each distinct Java
// client release with kip1269.lift.client.cap. A release the agent does
// not recognise is refused with the agent's reason, once.
func checkKIP1269Agents(ctx context.Context, scs []spec.Scenario, workerJar string) error {
	var errs []error
	seen := map[string]bool{}
	for _, sc := range scs {
		c := sc.Exp.Cluster
		if c.KIP1269Retain > 0 && !seen["broker "+c.Kafka] {
			seen["broker "+c.Kafka] = true
			if err := cluster.CheckAgent(ctx, c.Kafka, driver.AgentJar(workerJar), c.KIP1269Retain); err != nil {
				errs = append(errs, err)
			}
		}
		release := cluster.ReleaseOrDefault(c.Kafka)
		if key := "client " + driver.Key(sc.Exp.Client, release); sc.Exp.KIP1269LiftClientCap && !seen[key] {
			seen[key] = true
			if err := driver.CheckLifted(ctx, sc.Exp.Client, release, workerJar); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}
