package lab

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/expfile"
)

// KIP-1269 emulation in the lab: clusters with kip1269.retain start their
// brokers with prodlab's agent (TargetConfig.KIP1269Retain), scenarios with
// kip1269.lift.client.cap get a Java worker of their own with the agent in
// client mode (DriverFor), and every record says so (Record.Emulated). A
// Kafka that implements the KIP itself (a local build, by its broker config
// definitions) gets the KIP's own property instead of the agent.

// checkExternalKIP1269 refuses the emulation on an existing cluster:
// prodlab does not patch brokers it did not start.
func checkExternalKIP1269(sc expfile.Scenario, p *problems) {
	if sc.Exp.KIP1269() {
		p.add("kip1269 patches the brokers and worker prodlab starts; it does not patch brokers it did not start (drop kip1269 or --bootstrap)", label(sc))
	}
}

// DriverFor returns the driver of an experiment's client: its Trogdor
// fleet's (trogdor.coordinator), Driver's, or, with
// kip1269.lift.client.cap, a Java worker of its own whose producer accepts
// idempotence with more than 5 requests in flight; class is the trial's
// worker class (workerClasses), "" for the one default process.
func (t *Target) DriverFor(ctx context.Context, e *expfile.Experiment, class string) (driver.Driver, error) {
	if d := t.cfg.Fleets.For(e.Trogdor); d != nil {
		if err := t.Recover(ctx); err != nil {
			return nil, err
		}
		dc := d.DriverOf(e.Client)
		return t.watch("trogdor "+e.Trogdor.Key()+" "+dc.Client(), dc), nil
	}
	if !e.KIP1269LiftClientCap {
		return t.driverOf(ctx, e.Client, class)
	}
	if err := t.Recover(ctx); err != nil {
		return nil, err
	}
	release := cluster.ReleaseOrDefault(t.version)
	key := driver.LiftedKey(e.Client, release) + classSuffix(class)
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
func checkKIP1269Agents(ctx context.Context, scs []expfile.Scenario, workerJar string) error {
	var errs []error
	seen := map[string]bool{}
	for _, sc := range scs {
		c := sc.Exp.Cluster
		if c.KIP1269Retain > 0 && !seen["broker "+c.Kafka] {
			seen["broker "+c.Kafka] = true
			if err := checkKIP1269Broker(ctx, c, workerJar); err != nil {
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

// nativeKIP1269 is cluster.NativeKIP1269; tests stand in a KIP-1269 build,
// which no release is yet.
var nativeKIP1269 = cluster.NativeKIP1269

// checkKIP1269Broker checks, before anything starts, that the brokers of c
// can retain c.KIP1269Retain batches: by the KIP's own property when c's
// Kafka implements it (which cluster.configs must then leave to
// kip1269.retain), otherwise by the agent, which must recognise the
// release.
func checkKIP1269Broker(ctx context.Context, c expfile.Cluster, workerJar string) error {
	prop, err := nativeKIP1269(ctx, c.Kafka, workerJar)
	if err != nil {
		return err
	}
	if prop == "" {
		return cluster.CheckAgent(ctx, c.Kafka, driver.AgentJar(workerJar), c.KIP1269Retain)
	}
	if v, ok := c.Configs[prop]; ok {
		return fmt.Errorf("kip1269.retain %d and cluster.configs %s=%s both set the retention of kafka %s, which implements KIP-1269 as %s: keep one", c.KIP1269Retain, prop, v, c.Kafka, prop)
	}
	return nil
}

// kip1269Cluster returns the broker configs and the agent's retention for
// a group's cluster: the group's own, or, when its Kafka implements
// KIP-1269 itself, the KIP's property set to kip1269.retain and no agent.
// It remembers the property for the records' labels.
func (r *runner) kip1269Cluster(ctx context.Context, g *clusterGroup) (map[string]string, int, error) {
	c := g.cluster
	if c.KIP1269Retain <= 0 || len(r.opts.Bootstrap) > 0 {
		return c.Configs, c.KIP1269Retain, nil
	}
	prop, known := r.kip1269Native[c.Kafka]
	if !known { // once per Kafka: a local build's definitions cost a JVM start
		var err error
		if prop, err = nativeKIP1269(ctx, c.Kafka, r.opts.WorkerJar); err != nil {
			return nil, 0, err
		}
		if r.kip1269Native == nil {
			r.kip1269Native = map[string]string{}
		}
		r.kip1269Native[c.Kafka] = prop
	}
	if prop == "" {
		return c.Configs, c.KIP1269Retain, nil
	}
	r.logf("%skafka %s implements KIP-1269: its brokers retain %d batches by their own %s, without prodlab's agent", g.logPrefix(), c.Kafka, c.KIP1269Retain, prop)
	return withKIP1269Property(c.Configs, prop, c.KIP1269Retain), 0, nil
}

// withKIP1269Property returns configs with prop set to retain, leaving
// configs itself alone (the group's scenarios share it).
func withKIP1269Property(configs map[string]string, prop string, retain int) map[string]string {
	out := maps.Clone(configs)
	if out == nil {
		out = map[string]string{}
	}
	out[prop] = strconv.Itoa(retain)
	return out
}
