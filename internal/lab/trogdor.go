package lab

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/netem"
	"github.com/prodlab/prodlab/internal/spec"
	"github.com/prodlab/prodlab/internal/trogdor"
)

// Trials on a Trogdor fleet (trogdor.coordinator, or prodlab run --trogdor
// URL): before anything starts, PlanTrogdor probes each fleet the
// scenarios name and checks every scenario against it; the drivers it
// returns (Options.Fleets) then run each such scenario's trials as one
// Trogdor task over its agents, in place of the local client.

// Fleets are the Trogdor fleets of a run, by spec.Trogdor.Key.
type Fleets map[string]*Fleet

// Fleet is a probed fleet with the agents a scenario runs on: its driver,
// and every answering agent's host, for faults on brokers' hosts
// (fleetfaults.go), which any agent of the fleet may deliver.
type Fleet struct {
	*driver.Trogdor
	hosts map[string]string
}

// For is the fleet of a scenario's trogdor settings, nil for a local
// client.
func (f Fleets) For(t spec.Trogdor) *Fleet {
	if t.Coordinator == "" {
		return nil
	}
	return f[t.Key()]
}

// host is the host of agent node, "" when unknown.
func (f *Fleet) host(node string) string { return f.hosts[node] }

// agentOn names an agent of the fleet on host (the first by name), for a
// fault on that host; a loopback host matches a loopback agent.
func (f *Fleet) agentOn(host string) (string, bool) {
	for _, n := range slices.Sorted(maps.Keys(f.hosts)) {
		if h := f.hosts[n]; h == host || netem.IsLoopback(h) && netem.IsLoopback(host) {
			return n, true
		}
	}
	return "", false
}

// ProbeWait bounds the wait for a fleet's agents to answer the probe.
var ProbeWait = 10 * time.Second

// PlanTrogdor probes every fleet the scenarios name and checks the
// scenarios against it, before anything starts: each coordinator must
// answer and know prodlab's tasks, the chosen agents must exist and answer,
// with prodlab's task API and one kafka-clients release the Java client's
// checks accept; every scenario must use that client, within its per-node
// limit; and an embedded cluster, which listens on 127.0.0.1 only, needs
// agents on this host; faults must be ones the fleet can deliver
// (checkFleetFaults). bootstrap is the existing cluster (--bootstrap), nil
// for an embedded one. Nil when no scenario runs on a fleet.
func PlanTrogdor(ctx context.Context, scs []spec.Scenario, bootstrap []string) (Fleets, error) {
	external := bootstrap != nil
	probed := map[string]trogdor.Probed{}
	fleets := Fleets{}
	var errs []error
	var p problems
	for _, sc := range scs {
		t := sc.Exp.Trogdor
		if t.Coordinator == "" {
			continue
		}
		if _, seen := fleets[t.Key()]; !seen {
			d, err := planFleet(ctx, t, probed, external)
			if err != nil {
				errs = append(errs, err)
			}
			fleets[t.Key()] = d
		}
		if d := fleets[t.Key()]; d != nil {
			checkTrogdorScenario(sc, d.Release(), len(d.Nodes()), t.MaxProducersPerNode, &p)
		}
	}
	if err := errors.Join(append(errs, p.err(len(scs)))...); err != nil {
		return nil, err
	}
	if len(fleets) == 0 {
		return nil, nil
	}
	if err := checkFleetFaults(ctx, scs, fleets, bootstrap); err != nil {
		return nil, err
	}
	return fleets, nil
}

// planFleet probes t's coordinator (once per run: probed) and chooses its
// agents; nil with the reason when the fleet cannot run trials.
func planFleet(ctx context.Context, t spec.Trogdor, probed map[string]trogdor.Probed, external bool) (*Fleet, error) {
	c := trogdor.NewClient(t.Coordinator)
	fleet, ok := probed[t.Coordinator]
	if !ok {
		var err error
		if fleet, err = trogdor.Probe(ctx, c, ProbeWait); err != nil {
			return nil, fmt.Errorf("trogdor.coordinator: %w", err)
		}
		probed[t.Coordinator] = fleet
	}
	nodes, release, err := chooseAgents(fleet, t.NodeList())
	if err != nil {
		return nil, fmt.Errorf("trogdor.coordinator %s: %w", t.Coordinator, err)
	}
	if !external {
		if err := checkAgentsLocal(fleet, nodes); err != nil {
			return nil, err
		}
	}
	hosts := map[string]string{}
	for n, a := range fleet.Answered {
		hosts[n] = a.Hostname
	}
	return &Fleet{Trogdor: driver.NewTrogdor(c, nodes, release), hosts: hosts}, nil
}

// chooseAgents picks the agents trials run on (every one that answered when
// none are named) and checks them: known to the fleet, answering,
// speaking prodlab's task API, all with one supported kafka-clients
// release, which it returns.
func chooseAgents(f trogdor.Probed, named []string) ([]string, string, error) {
	nodes := named
	if len(nodes) == 0 {
		for n := range f.Answered {
			nodes = append(nodes, n)
		}
		slices.Sort(nodes)
	}
	var errs []error
	for _, n := range nodes {
		if !slices.Contains(f.Known, n) {
			errs = append(errs, fmt.Errorf("node %q is not an agent of this fleet; its agents: %s", n, strings.Join(f.Known, ", ")))
		} else if _, ok := f.Answered[n]; !ok {
			errs = append(errs, fmt.Errorf("agent %s did not answer the probe (is it running, and can the coordinator reach it?)", n))
		}
	}
	if len(errs) > 0 {
		return nil, "", errors.Join(errs...)
	}
	releases := map[string][]string{}
	for _, n := range nodes {
		a := f.Answered[n]
		if a.TaskAPI != trogdor.TaskAPI {
			errs = append(errs, fmt.Errorf("agent %s runs prodlab's Trogdor task API %d, this prodlab speaks %d: put this prodlab's worker jar on its class path", n, a.TaskAPI, trogdor.TaskAPI))
		}
		releases[a.KafkaClients] = append(releases[a.KafkaClients], n)
	}
	if len(releases) > 1 {
		var parts []string
		for r, ns := range releases {
			parts = append(parts, fmt.Sprintf("%s on %s", r, strings.Join(ns, ", ")))
		}
		slices.Sort(parts)
		errs = append(errs, fmt.Errorf("the agents run different kafka-clients releases (%s): a trial's producers must share one; choose agents of one release with trogdor.nodes", strings.Join(parts, "; ")))
	}
	release := f.Answered[nodes[0]].KafkaClients
	if err := trogdor.CheckRelease(release); err != nil {
		errs = append(errs, fmt.Errorf("the agents run kafka-clients %s: %w", release, err))
	}
	return nodes, release, errors.Join(errs...)
}

// checkTrogdorScenario refuses what a fleet cannot run for sc: another
// client than the agents' own kafka-clients, the KIP-1269 client agent
// (the agents' JVMs are not prodlab's to start), and more producers on one
// agent than the stated limit.
func checkTrogdorScenario(sc spec.Scenario, release string, nodes, maxPerNode int, p *problems) {
	e := sc.Exp
	c, err := clients.Parse(e.Client)
	switch {
	case err != nil:
		// Refused by the spec already.
	case !c.Kind.OnTrogdor:
		p.add(fmt.Sprintf("client %s: Trogdor agents run the Java client (kafka-clients %s); use client java", e.Client, release), label(sc))
	case c.Version != "" && c.Version != release:
		p.add(fmt.Sprintf("client %s: the Trogdor agents run kafka-clients %s (their trogdor release); use client java or java@%s", e.Client, release, release), label(sc))
	}
	if e.Cluster.CPUs == spec.CPUsSplit {
		p.add("cluster.cpus: split pins the client prodlab runs; Trogdor agents run theirs on their own hosts (drop trogdor.coordinator or cluster.cpus)", label(sc))
	}
	if e.KIP1269LiftClientCap {
		p.add("kip1269.lift.client.cap needs prodlab to start the client's JVM; Trogdor agents are already running (drop trogdor.coordinator or kip1269.lift.client.cap)", label(sc))
	}
	total := max(e.Workload.Producers, 1, nodes)
	if per := (total + nodes - 1) / nodes; maxPerNode > 0 && per > maxPerNode {
		p.add(fmt.Sprintf("workload.producers %d over %d agents puts %d on one agent, above trogdor.max.producers.per.node %d", total, nodes, per, maxPerNode), label(sc))
	}
}

// checkAgentsLocal refuses agents on other hosts for an embedded cluster:
// its brokers and proxies listen on 127.0.0.1 only.
func checkAgentsLocal(f trogdor.Probed, nodes []string) error {
	var errs []error
	for _, n := range nodes {
		if h := f.Answered[n].Hostname; !netem.IsLoopback(h) {
			errs = append(errs, fmt.Errorf("agent %s runs on %s, but the embedded cluster listens on 127.0.0.1 only: give the run a cluster the agents can reach (--bootstrap), or use agents on this host", n, h))
		}
	}
	return errors.Join(errs...)
}
