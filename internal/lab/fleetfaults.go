package lab

import (
	"context"
	"fmt"
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/netem"
)

// Faults on an existing cluster through a Trogdor fleet (issue 14, item 4):
// prodlab cannot signal brokers it did not start, but a Trogdor agent on a
// broker's host can. A broker fault whose action has a fleet form
// (faultAction.fleet: broker.pause → ProcessStopFault) is delivered by the
// scenario's fleet as a Trogdor fault task on the agent that runs on the
// broker's host, at the fault's time and for its delay, and recorded as an
// event like a local fault. Faults the fleet cannot deliver are refused
// before the run starts (checkFleetFaults).

// fleetFault reports whether sc's fault f is delivered by its fleet: a
// broker fault with a fleet form, on an existing cluster, in a scenario
// on a fleet.
func fleetFault(sc expfile.Scenario, f expfile.Fault, external bool) bool {
	a := faultActions[f.Type]
	return external && sc.Exp.Trogdor.Coordinator != "" && a.down != nil && a.fleet != nil
}

// fleetFaultTypes lists the fault types a fleet can deliver, for messages.
func fleetFaultTypes() string {
	var out []string
	for name, a := range faultActions {
		if a.fleet != nil {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// checkFleetFaults refuses, before the run starts, faults a scenario's
// fleet cannot deliver: on an existing cluster (bootstrap), a broker fault
// needs an agent on the host of every broker it may hit (the one it names,
// or any, since partition 0's leader is known only during the trial);
// and the proxies' faults and network settings need agents on this host,
// since the proxies listen on 127.0.0.1.
func checkFleetFaults(ctx context.Context, scs []expfile.Scenario, fleets Fleets, bootstrap []string) error {
	var brokers []cluster.Broker
	var p problems
	for _, sc := range scs {
		d := fleets.For(sc.Exp.Trogdor)
		if d == nil {
			continue
		}
		if needsProxies([]expfile.Scenario{sc}) {
			for _, n := range d.Nodes() {
				if h := d.host(n); !netem.IsLoopback(h) {
					p.add(fmt.Sprintf("network settings and connection cuts act through prodlab's proxies on 127.0.0.1, which agent %s on %s cannot reach (Trogdor's DegradedNetworkFault, tc on the agents' hosts with root or NET_ADMIN, is not mapped)", n, h), label(sc))
				}
			}
		}
		for _, f := range sc.Exp.Faults {
			if !fleetFault(sc, f, bootstrap != nil) {
				continue
			}
			if brokers == nil {
				// Reach a secured cluster as prodlab's own clients will.
				opts, err := driver.SecurityOpts(sc.Exp.Producer)
				if err != nil {
					return fmt.Errorf("%s on a Trogdor fleet needs the brokers' hosts, and the security settings do not say how to reach them: %w", f.Type, err)
				}
				c, err := cluster.Connect(ctx, bootstrap, opts...)
				if err != nil {
					return fmt.Errorf("%s on a Trogdor fleet needs the brokers' hosts: %w", f.Type, err)
				}
				brokers = c.Brokers()
			}
			for _, b := range brokers {
				if f.Broker >= 1 && b.ID != f.Broker {
					continue
				}
				if _, ok := d.agentOn(brokerHost(b)); !ok {
					p.add(fmt.Sprintf("%s on broker %d (%s) needs a Trogdor agent on its host, and no agent of %s runs on %s (agents: %s)",
						f.Type, b.ID, b.Advertised, sc.Exp.Trogdor.Coordinator, brokerHost(b), agentHosts(d)), label(sc))
				}
			}
			if f.Broker >= 1 && !slices.ContainsFunc(brokers, func(b cluster.Broker) bool { return b.ID == f.Broker }) {
				p.add(fmt.Sprintf("%s names broker %d, and the cluster at %s has no such broker", f.Type, f.Broker, strings.Join(bootstrap, ",")), label(sc))
			}
		}
	}
	return p.err(len(scs))
}

// brokerHost is the host a broker advertises.
func brokerHost(b cluster.Broker) string {
	h, _, err := net.SplitHostPort(b.Advertised)
	if err != nil {
		return b.Advertised
	}
	return h
}

// agentHosts lists every answering agent of a fleet with its host, for
// messages: any of them may deliver a fault (agentOn), not only the
// agents the trials run on.
func agentHosts(d *Fleet) string {
	var out []string
	for _, n := range slices.Sorted(maps.Keys(d.hosts)) {
		out = append(out, n+" on "+d.host(n))
	}
	return strings.Join(out, ", ")
}

// injectFleetFault delivers fault ft on broker id through fleet d: a
// Trogdor fault task on the agent on the broker's host, starting now and
// lasting delay, then waits for it to end (at most delay + 30 s) and
// records both ends as events.
func (x *executor) injectFleetFault(ctx context.Context, f *faultRun, tgt *Target, d *Fleet, ft expfile.Fault, id int, delay time.Duration) {
	var host string
	for _, b := range tgt.c.Brokers() {
		if b.ID == id {
			host = brokerHost(b)
		}
	}
	node, ok := d.agentOn(host)
	if !ok {
		f.event("error", "%s broker %d: no Trogdor agent on its host %q", ft.Type, id, host)
		return
	}
	faultSpec := faultActions[ft.Type].fleet(node)
	faultSpec["startMs"] = time.Now().UnixMilli()
	faultSpec["durationMs"] = delay.Milliseconds()
	c := d.Coordinator()
	task := "prodlab-" + ft.Type + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if err := c.CreateTask(ctx, task, faultSpec); err != nil {
		f.event("error", "%s broker %d through Trogdor: %v", ft.Type, id, err)
		return
	}
	f.event(ft.Type, "broker %d, by Trogdor's %s on agent %s", id, shortClass(faultSpec["class"]), node)
	// The fault ends on its own schedule even when the trial ends early:
	// wait on the run's context, not the trial's.
	wctx, cancel := context.WithTimeout(x.runContext(), delay+30*time.Second)
	defer cancel()
	done, err := c.WaitTask(wctx, task, 100*time.Millisecond)
	switch {
	case err != nil:
		_ = c.StopTask(context.WithoutCancel(ctx), task)
		f.event("error", "%s broker %d through Trogdor: %v", ft.Type, id, err)
	case done.Error != "":
		f.event("error", "%s broker %d through Trogdor: %s", ft.Type, id, done.Error)
	default:
		f.event("recovered", "broker %d after %s (Trogdor task done)", id, ft.Type)
	}
	dctx, dcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer dcancel()
	_ = c.DestroyTask(dctx, task)
}

// shortClass is a Java class name without its package.
func shortClass(v any) string {
	s, _ := v.(string)
	return s[strings.LastIndex(s, ".")+1:]
}
