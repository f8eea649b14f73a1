package lab

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/netem"
	"github.com/prodlab/prodlab/internal/trogdor"
)

// Trials on a Trogdor fleet (trogdor.coordinator, or prodlab run --trogdor
// URL): before anything starts, PlanTrogdor probes each fleet the
// scenarios name and checks every scenario against it; the drivers it
// returns (Options.Fleets) then run each such scenario's trials as one
// Trogdor task over its agents, in place of the local client.

// Fleets are the Trogdor fleets of a run, by expfile.Trogdor.Key.
type Fleets map[string]*Fleet

// Fleet is a probed fleet with the agents a scenario runs on: its driver,
// and every answering agent's host, for faults on brokers' hosts
// (fleetfaults.go), which any agent of the fleet may deliver.
type Fleet struct {
	*driver.Trogdor
	hosts map[string]string
	// agents are the probed agents' answers, by name: where each keeps
	// the worker executables of the clients other than Java.
	agents map[string]trogdor.AgentInfo
	// byClient are the drivers of the other clients on this fleet
	// (DriverOf), made once.
	mu       sync.Mutex
	byClient map[string]*driver.Trogdor
}

// DriverOf is the fleet's driver for a client: the agents' Java client in
// their JVMs, or the kind's fleet worker (clients.Kind.FleetWorker) in
// each node's worker directory, run by Trogdor's ExternalCommandSpec.
func (f *Fleet) DriverOf(client string) *driver.Trogdor {
	c, err := clients.Parse(client)
	if err != nil || len(c.Kind.FleetWorker) == 0 {
		return f.Trogdor
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if d, ok := f.byClient[c.Kind.Name]; ok {
		return d
	}
	commands := map[string][]string{}
	for _, n := range f.Nodes() {
		if cmd, ok := fleetCommand(f.agents[n], c.Kind); ok {
			commands[n] = cmd
		}
	}
	if f.byClient == nil {
		f.byClient = map[string]*driver.Trogdor{}
	}
	d := f.ForClient(c.Kind.Name, commands)
	f.byClient[c.Kind.Name] = d
	return d
}

// fleetCommand is kind's worker command on agent a, when a has its
// executable in its worker directory.
func fleetCommand(a trogdor.AgentInfo, kind clients.Kind) ([]string, bool) {
	if len(kind.FleetWorker) == 0 || a.WorkerDir == "" || !slices.Contains(a.Executables, kind.FleetWorker[0]) {
		return nil, false
	}
	return append([]string{filepath.Join(a.WorkerDir, kind.FleetWorker[0])}, kind.FleetWorker[1:]...), true
}

// For is the fleet of a scenario's trogdor settings, nil for a local
// client.
func (f Fleets) For(t expfile.Trogdor) *Fleet {
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
// checks accept; every scenario must use that client or one whose worker
// each agent holds (checkFleetWorkers), within its per-node limit; and an
// embedded cluster, which listens on 127.0.0.1 only, needs
// agents on this host; faults must be ones the fleet can deliver
// (checkFleetFaults). bootstrap is the existing cluster (--bootstrap), nil
// for an embedded one. Nil when no scenario runs on a fleet.
func PlanTrogdor(ctx context.Context, scs []expfile.Scenario, bootstrap []string) (Fleets, error) {
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
			checkFleetWorkers(sc, d, &p)
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
func planFleet(ctx context.Context, t expfile.Trogdor, probed map[string]trogdor.Probed, external bool) (*Fleet, error) {
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
	return &Fleet{Trogdor: driver.NewTrogdor(c, nodes, release), hosts: hosts, agents: fleet.Answered}, nil
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

// checkTrogdorScenario refuses what a fleet cannot run for sc: a client
// kind agents do not run (none today: OnTrogdor), another Java release
// than the agents' own kafka-clients, the KIP-1269 client agent (the
// agents' JVMs are not prodlab's to start), and more producers on one
// agent than the stated limit.
func checkTrogdorScenario(sc expfile.Scenario, release string, nodes, maxPerNode int, p *problems) {
	e := sc.Exp
	c, err := clients.Parse(e.Client)
	switch {
	case err != nil:
		// Refused by expfile already.
	case !c.Kind.OnTrogdor:
		p.add(fmt.Sprintf("client %s: Trogdor agents do not run it; use client java (kafka-clients %s)%s", e.Client, release, fleetKinds()), label(sc))
	case len(c.Kind.FleetWorker) == 0 && c.Version != "" && c.Version != release:
		p.add(fmt.Sprintf("client %s: the Trogdor agents run kafka-clients %s (their trogdor release); use client java or java@%s", e.Client, release, release), label(sc))
	}
	if e.Cluster.CPUs == expfile.CPUsSplit {
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

// fleetKinds lists, for a message, the kinds the agents run as workers.
func fleetKinds() string {
	var names []string
	for _, k := range clients.Kinds() {
		if k.OnTrogdor && len(k.FleetWorker) > 0 {
			names = append(names, k.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " or " + strings.Join(names, ", ")
}

// checkFleetWorkers refuses a scenario whose client runs as a fleet worker
// when one of its agents lacks the worker's executable, naming the agent,
// the client and where the agent looked.
func checkFleetWorkers(sc expfile.Scenario, f *Fleet, p *problems) {
	c, err := clients.Parse(sc.Exp.Client)
	if err != nil || !c.Kind.OnTrogdor || len(c.Kind.FleetWorker) == 0 {
		return
	}
	exe := c.Kind.FleetWorker[0]
	for _, n := range f.Nodes() {
		a := f.agents[n]
		if _, ok := fleetCommand(a, c.Kind); ok {
			continue
		}
		where := "its agent jar reports no worker directory (an older prodlab-worker.jar: put this prodlab's on its class path)"
		if a.WorkerDir != "" {
			where = fmt.Sprintf("no executable %s in its worker directory %s ($PRODLAB_WORKER_DIR, else prodlab-worker.jar's directory): ship %s there beside the jar", exe, a.WorkerDir, exe)
		}
		p.add(fmt.Sprintf("client %s: agent %s has no %s worker: %s", sc.Exp.Client, n, c.Kind.Name, where), label(sc))
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
