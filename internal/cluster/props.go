package cluster

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// loopback is the only address embedded nodes bind to.
const loopback = "127.0.0.1"

// directListenerName names the client listener that no proxy fronts
// (nodeSpec.DirectPort).
const directListenerName = "DIRECT"

// Node roles (process.roles) of a KRaft node.
const (
	roleCombined   = "broker,controller"
	roleBroker     = "broker"
	roleController = "controller"
)

// nodeSpec is what a node's configuration is rendered from.
type nodeSpec struct {
	ID int
	// Role is the node's process.roles; "" means roleCombined.
	Role           string
	ClientPort     int // PLAINTEXT listener
	ControllerPort int // CONTROLLER listener
	// Repl are the inter-broker listeners, never behind the client's
	// proxies: one (REPLICATION) in a cluster without zones, else one per
	// zone, the one the followers of that zone fetch through.
	Repl       []replListener
	Advertised string // host:port advertised to clients
	// DirectPort is the DIRECT listener's port, 0 for none: a second client
	// listener advertised at its own address, for clients that bypass the
	// proxies Advertised points at.
	DirectPort int
	DataDir    string // log.dirs
	// Zone is the node's availability zone (its broker.rack), "" without
	// zones; ZoneIndex is its place in Config.Zones.
	Zone      string
	ZoneIndex int
	// ControllerVia is, per zone, the address nodes of that zone reach this
	// node's CONTROLLER listener at ("" or missing: the listener itself),
	// e.g. a proxy that delays controller traffic between zones.
	ControllerVia []string
}

// replListener is one inter-broker listener of a broker.
type replListener struct {
	Name string // REPLICATION, or REPLICATION_<ZONE> with zones
	Port int
	// Advertised is the address the followers using this listener reach it
	// at: the listener itself, or a proxy that delays replication.
	Advertised string
}

// replicationName is the inter-broker listener followers of zone use.
func replicationName(zone string) string {
	if zone == "" {
		return "REPLICATION"
	}
	return "REPLICATION_" + strings.ToUpper(zone)
}

// Addr is the node's real client listener address.
func (n nodeSpec) Addr() string {
	return fmt.Sprintf("%s:%d", loopback, n.ClientPort)
}

// DirectAddr is the node's DIRECT listener address, "" without one.
func (n nodeSpec) DirectAddr() string {
	if n.DirectPort == 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d", loopback, n.DirectPort)
}

// directListener renders the DIRECT listener for listeners and
// advertised.listeners (both its own address) and the protocol map: each
// "" without one, else with a leading comma.
func (n nodeSpec) directListener() (listener, protocol string) {
	if n.DirectPort == 0 {
		return "", ""
	}
	return fmt.Sprintf(",%s://%s", directListenerName, n.DirectAddr()), "," + directListenerName + ":PLAINTEXT"
}

// ReplicationAddr is the real address of the node's i-th inter-broker
// listener.
func (n nodeSpec) ReplicationAddr(i int) string {
	return fmt.Sprintf("%s:%d", loopback, n.Repl[i].Port)
}

// interBroker is the inter-broker listener this node fetches through: its
// own zone's.
func (n nodeSpec) interBroker() string {
	if len(n.Repl) > 1 {
		return n.Repl[n.ZoneIndex].Name
	}
	return replicationName("")
}

// replListeners renders the inter-broker part of listeners (real
// addresses) or of advertised.listeners, and of the protocol map.
func (n nodeSpec) replListeners(advertised bool) (listeners, protocols string) {
	var ls, ps []string
	for i, r := range n.Repl {
		addr := n.ReplicationAddr(i)
		if advertised {
			addr = cmp.Or(r.Advertised, addr)
		}
		ls = append(ls, fmt.Sprintf("%s://%s", r.Name, addr))
		ps = append(ps, r.Name+":PLAINTEXT")
	}
	return strings.Join(ls, ","), strings.Join(ps, ",")
}

// controllerAddr is the address nodes of zone from reach n's controller at.
func (n nodeSpec) controllerAddr(from int) string {
	if from >= 0 && from < len(n.ControllerVia) && n.ControllerVia[from] != "" {
		return n.ControllerVia[from]
	}
	return fmt.Sprintf("%s:%d", loopback, n.ControllerPort)
}

// role returns the node's process.roles.
func (n nodeSpec) role() string {
	return cmp.Or(n.Role, roleCombined)
}

// isBroker and isController report whether the node serves clients and
// whether it votes in the KRaft quorum.
func (n nodeSpec) isBroker() bool     { return n.role() != roleController }
func (n nodeSpec) isController() bool { return n.role() != roleBroker }

// quorumVoters renders controller.quorum.voters as node self sees it:
// every controller (or combined) node, at its own address or, in another
// zone, through the zones' link.
func quorumVoters(nodes []nodeSpec, self nodeSpec) string {
	var voters []string
	for _, n := range nodes {
		if !n.isController() {
			continue
		}
		addr := n.controllerAddr(self.ZoneIndex)
		if n.ID == self.ID {
			addr = n.controllerAddr(-1)
		}
		voters = append(voters, fmt.Sprintf("%d@%s", n.ID, addr))
	}
	return strings.Join(voters, ",")
}

// countBrokers counts the nodes that serve clients.
func countBrokers(nodes []nodeSpec) int {
	n := 0
	for _, s := range nodes {
		if s.isBroker() {
			n++
		}
	}
	return n
}

// controllerOnly turns a node's properties into those of a controller-only
// node: only the CONTROLLER listener, nothing advertised to clients, no
// inter-broker listener.
func controllerOnly(props map[string]string, self nodeSpec) {
	props["listeners"] = fmt.Sprintf("CONTROLLER://%s:%d", loopback, self.ControllerPort)
	props["listener.security.protocol.map"] = "CONTROLLER:PLAINTEXT"
	delete(props, "advertised.listeners")
	delete(props, "inter.broker.listener.name")
}

// brokerOnly removes the controller listener from a broker-only node.
func brokerOnly(props map[string]string, self nodeSpec) {
	repl, _ := self.replListeners(false)
	direct, _ := self.directListener()
	props["listeners"] = fmt.Sprintf("PLAINTEXT://%s:%d,%s%s", loopback, self.ClientPort, repl, direct)
}

// brokerProps returns the server.properties of node self in a cluster of
// nodes, with extra applied last so that it overrides prodlab's choices.
func brokerProps(nodes []nodeSpec, self nodeSpec, extra map[string]string) map[string]string {
	rf := strconv.Itoa(min(countBrokers(nodes), 3))
	repl, replProtocols := self.replListeners(false)
	replAdvertised, _ := self.replListeners(true)
	direct, directProtocol := self.directListener()
	props := map[string]string{
		// KRaft combined mode by default: every node is broker and
		// controller, with a static quorum of all nodes (no --standalone
		// formatting needed). With separate controllers, the quorum is
		// theirs and the other nodes are brokers only.
		"process.roles":            self.role(),
		"node.id":                  strconv.Itoa(self.ID),
		"controller.quorum.voters": quorumVoters(nodes, self),
		"listeners": fmt.Sprintf("PLAINTEXT://%s:%d,CONTROLLER://%s:%d,%s%s",
			loopback, self.ClientPort, loopback, self.ControllerPort, repl, direct),
		"advertised.listeners":                             fmt.Sprintf("PLAINTEXT://%s,%s%s", self.Advertised, replAdvertised, direct),
		"controller.listener.names":                        "CONTROLLER",
		"listener.security.protocol.map":                   "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT," + replProtocols + directProtocol,
		"inter.broker.listener.name":                       self.interBroker(),
		"log.dirs":                                         self.DataDir,
		"offsets.topic.replication.factor":                 rf,
		"transaction.state.log.replication.factor":         rf,
		"transaction.state.log.min.isr":                    "1",
		"share.coordinator.state.topic.replication.factor": rf,
		"share.coordinator.state.topic.min.isr":            "1",
		"group.initial.rebalance.delay.ms":                 "0",
		// Experiments create their topics explicitly, with the partitions
		// and replication they ask for; a typo must not create one.
		"auto.create.topics.enable": "false",
		// Every trial deletes its topic; Kafka's default 60 s delay before
		// deleting the files kept a minute of trials on disk (tens of GB in
		// a long run on a fast machine) and, on a full disk, killed the
		// broker; on a tmpfs (storage: memory) it held them in memory, and
		// two duet clusters were OOM-killed. A delay of 1 s then put the
		// freeing of hundreds of MB about 1 s into the next trial, at its
		// window's start: a stall there in 12-29 % of CPU-bound capacity
		// probes, against 0.3-1.6 % of other intervals. So the files go
		// 100 ms after the delete (the broker's deleter looks that often
		// when idle; 0 makes it spin), the deleter starts 100 ms after the
		// broker does instead of 30 s (Kafka 3.7 and later; older releases
		// warn and ignore it), and the lab waits for the files before the
		// next trial (lab.Target.awaitTopicGone). The broker's name for the
		// topic-level file.delete.delay.ms (which a broker ignores).
		"log.segment.delete.delay.ms": "100",
		"log.initial.task.delay.ms":   "100",
		// A small machine runs up to three brokers plus the load generator
		// on two cores: keep thread pools modest. log.flush.* stay at their
		// defaults (the OS flushes), as in production.
		"num.network.threads":               "2",
		"num.io.threads":                    "4",
		"background.threads":                "4",
		"num.recovery.threads.per.data.dir": "1",
		"num.replica.fetchers":              "1",
		// Internal topics default to 50 partitions each, which makes the
		// first group or transaction slow to start on a laptop.
		"offsets.topic.num.partitions":         "5",
		"transaction.state.log.num.partitions": "5",
	}
	if self.Zone != "" && self.isBroker() {
		// Kafka places a topic's replicas in distinct racks.
		props["broker.rack"] = self.Zone
	}
	switch self.role() {
	case roleController:
		controllerOnly(props, self)
	case roleBroker:
		brokerOnly(props, self)
	}
	for k, v := range extra {
		props[k] = v
	}
	return props
}

// renderProps renders properties as a server.properties file, sorted by key
// so that the file is stable and easy to diff.
func renderProps(props map[string]string) string {
	keys := slices.Sorted(maps.Keys(props))
	var b strings.Builder
	b.WriteString("# Written by prodlab for an embedded KRaft node.\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%s\n", k, escapeProp(props[k]))
	}
	return b.String()
}

// escapeProp escapes a value for a Java properties file: backslashes (e.g.
// in Windows-style paths) and line breaks would otherwise change its meaning.
func escapeProp(v string) string {
	r := strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\r", `\r`)
	return r.Replace(v)
}
