package lab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/secret"
)

// Plan expands and checks an experiment completely: every scenario's
// client must accept every producer property. Nothing is started.
func Plan(exp *expfile.Experiment) ([]expfile.Scenario, error) {
	scs, err := exp.Scenarios()
	if err != nil {
		return nil, err
	}
	var p problems
	for _, sc := range scs {
		if err := driver.Check(sc.Exp.Client, sc.Exp.Producer); err != nil {
			p.add(err.Error(), label(sc))
		}
	}
	if err := p.err(len(scs)); err != nil {
		return nil, err
	}
	return scs, nil
}

// problems collects each distinct problem once, with the scenarios that
// have it, so that a matrix of 20 scenarios sharing one mistake gets one
// message, not 20.
type problems struct {
	order []string
	where map[string][]string
}

func (p *problems) add(msg, scenario string) {
	if p.where == nil {
		p.where = map[string][]string{}
	}
	if _, seen := p.where[msg]; !seen {
		p.order = append(p.order, msg)
	}
	p.where[msg] = append(p.where[msg], scenario)
}

// err is a PlanError listing each problem with where it occurs among n
// scenarios, or nil.
func (p *problems) err(n int) error {
	if len(p.order) == 0 {
		return nil
	}
	out := make([]string, len(p.order))
	for i, msg := range p.order {
		scs := p.where[msg]
		switch {
		case n == 1:
			out[i] = msg
		case len(scs) == n:
			out[i] = fmt.Sprintf("%s (every scenario)", msg)
		case len(scs) == 1:
			out[i] = fmt.Sprintf("scenario %s: %s", scs[0], msg)
		default:
			out[i] = fmt.Sprintf("%s (%d scenarios: %s)", msg, len(scs), strings.Join(scs, "; "))
		}
	}
	return &PlanError{Problems: out}
}

// PlanError lists every scenario a client cannot run as configured.
type PlanError struct{ Problems []string }

func (e *PlanError) Error() string { return strings.Join(e.Problems, "\n") }

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func label(sc expfile.Scenario) string {
	if sc.ID == "" {
		return "(base)"
	}
	return sc.ID
}

// CheckExternal rejects, before anything starts, what an existing cluster
// (--bootstrap) cannot do: prodlab can neither signal its brokers nor
// reroute its replication.
func CheckExternal(scs []expfile.Scenario) error {
	var p problems
	for _, sc := range scs {
		if sc.Exp.Network.ReplicationRTTMs > 0 {
			p.add("network.replication.rtt.ms needs an embedded cluster (drop --bootstrap)", label(sc))
		}
		if sc.Exp.Cluster.HasZones() || sc.Exp.ClientZone != "" || sc.Exp.Topic.LeaderZone != "" {
			p.add("cluster.zones, client.zone and topic.leader.zone lay out an embedded cluster; an existing cluster's zones are real and its own (drop --bootstrap, or --set a matrix axis to a value without zones)", label(sc))
		}
		checkExternalSecurity(sc, &p)
		checkExternalKIP1269(sc, &p)
		if len(sc.Exp.Cluster.Configs) > 0 || sc.Exp.Cluster.Controllers > 0 {
			p.add("cluster.configs and cluster.controllers shape an embedded cluster; an existing one keeps its own (drop --bootstrap)", label(sc))
		}
		if sc.Exp.Cluster.CPUs == expfile.CPUsSplit {
			p.add("cluster.cpus: split pins the brokers prodlab starts; an existing cluster's are not its to pin (drop --bootstrap)", label(sc))
		}
		if ext := modeOf(&sc.Exp).external; ext != nil {
			if why := ext(sc); why != "" {
				p.add(why, label(sc))
			}
		}
		if sc.Exp.ClusterLives() > 1 {
			p.add(fmt.Sprintf("lives: %s starts the brokers again for each life; an existing cluster keeps running (drop --bootstrap, or lives)", sc.Exp.LivesText()), label(sc))
		}
		if sc.Exp.Cluster.TransactionVersion > 0 {
			p.add("cluster.transaction.version is set when prodlab formats an embedded cluster; an existing one keeps its own (drop --bootstrap, or set it with kafka-features)", label(sc))
		}
		if sc.Exp.Cluster.Storage == expfile.StorageMemory {
			p.add("cluster.storage: memory places an embedded cluster's data; an existing one keeps its own (drop --bootstrap)", label(sc))
		}
		for _, f := range sc.Exp.Faults {
			switch {
			case isProxyFault(f), fleetFault(sc, f, true), faultActions[f.Type].fence != nil:
			case sc.Exp.Trogdor.Coordinator != "":
				p.add(fmt.Sprintf("fault %s needs an embedded cluster (drop --bootstrap): on an existing cluster a Trogdor fleet delivers only %s", f.Type, fleetFaultTypes()), label(sc))
			case faultActions[f.Type].fleet != nil:
				p.add(fmt.Sprintf("fault %s needs an embedded cluster (drop --bootstrap), or a Trogdor fleet with an agent on the broker's host (trogdor.coordinator)", f.Type), label(sc))
			default:
				p.add(fmt.Sprintf("fault %s needs an embedded cluster (drop --bootstrap)", f.Type), label(sc))
			}
		}
	}
	return p.err(len(scs))
}

// versions lists, in order of first appearance, the Kafka releases (or
// local distributions) and the clients the run's scenarios name, as the
// run starts: "java" is the kafka-clients release of its brokers, and an
// external cluster's version is only known once connected (the records
// say it).
func versions(scs []expfile.Scenario, opts Options) (kafka, clients []string) {
	for _, sc := range scs {
		k := orDefault(sc.Exp.Cluster.Kafka, cluster.DefaultKafka)
		if len(opts.Bootstrap) > 0 {
			k = "external cluster at " + strings.Join(opts.Bootstrap, ",")
		}
		if !slices.Contains(kafka, k) {
			kafka = append(kafka, k)
		}
		if !slices.Contains(clients, sc.Exp.Client) {
			clients = append(clients, sc.Exp.Client)
		}
	}
	return kafka, clients
}

// jvmOpts are the JVM options added through the environment to the
// brokers and the Java worker, for the run's environment.json (nil when
// none are).
func jvmOpts() map[string]string {
	out := map[string]string{}
	for role, opts := range map[string][]string{"broker": cluster.BrokerJVMOpts(), "worker": driver.WorkerJVMOpts()} {
		if len(opts) > 0 {
			out[role] = strings.Join(secret.JVMOpts(opts), " ") // environment.json lands in the run directory
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
