package cluster

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"
)

// Broker describes one broker of a cluster.
type Broker struct {
	ID         int    `json:"id"`
	Addr       string `json:"addr"`       // real listener host:port
	Advertised string `json:"advertised"` // host:port given to clients
	PID        int    `json:"pid"`        // 0 for external or stopped brokers
}

// Cluster is an embedded cluster started by Start, or an external one found
// by Connect.
type Cluster struct {
	cfg       Config
	external  bool
	bootstrap []string     // external clusters only
	brokers   []Broker     // external clusters only
	version   string       // broker version, "" when unknown
	java      string       // embedded only
	dist      dist         // embedded only
	cds       classArchive // embedded only: dist's class-data archive
	// archiveNote says what Start did about the archive ("" for nothing).
	archiveNote string
	clusterID   string // embedded only
	// dataRoot is this cluster's directory under Config.DataRoot; "" when
	// the data lives under Config.Dir.
	dataRoot string
	nodes    []*node // embedded only; the brokers, nodes[i] has id i+1
	// controllers are the separate controller nodes (Config.Controllers),
	// with ids after the brokers'; none in combined mode.
	controllers []*node
	heap        int64     // each node's heap, from the machine's memory
	stopOnce    sync.Once // Stop runs once
	stopErr     error     // Stop's result
	watch       exitWatch // unexpected broker exits (watch.go)
	sec         *security // nil for plaintext (security.go)
}

// pickPorts chooses the nodes' ports; tests replace it to force a bind error.
var pickPorts = freePorts

// errExternal is returned by the operations that need an embedded cluster.
var errExternal = errors.New("not an embedded cluster: prodlab did not start these brokers (--bootstrap)")

// Start starts an embedded cluster: it resolves the Kafka jars, picks free
// loopback ports, writes each node's configuration, formats its storage,
// starts every node and waits until every broker is in the metadata of
// every node. A bind error (a port taken in the meantime) is retried once
// with new ports. On error nothing is left running.
func Start(ctx context.Context, cfg Config) (*Cluster, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	java, err := javaPath()
	if err != nil {
		return nil, err
	}
	d, err := resolveDist(ctx, cfg.Kafka)
	if err != nil {
		return nil, err
	}
	heap, err := HeapFor(cfg.Brokers + cfg.Controllers)
	if err != nil {
		return nil, err
	}
	c := &Cluster{cfg: cfg, java: java, dist: d, cds: newClassArchive(cfg.ArchiveDir, java, d), version: d.version, heap: heap}
	if c.sec, err = newSecurity(cfg.Security); err != nil {
		return nil, err
	}
	switch took, err := c.cds.dump(ctx, java, d.classpath); {
	case err != nil:
		c.archiveNote = fmt.Sprintf("brokers start without a class-data archive: %v", err)
	case took > 0:
		c.archiveNote = fmt.Sprintf("wrote the brokers' class-data archive for this release in %.1fs (once: later starts map it)", took.Seconds())
	}
	for attempt := 1; ; attempt++ {
		err = c.startOnce(ctx)
		if err == nil {
			c.watchNodes()
			return c, nil
		}
		c.killAll()
		if attempt == 2 || !c.bindFailed(err) {
			return nil, errors.Join(err, c.removeDataRoot())
		}
	}
}

// ArchiveNote says what Start did about the brokers' class-data archive
// (cds.go): wrote it, or could not; "" when it did nothing.
func (c *Cluster) ArchiveNote() string { return c.archiveNote }

// startOnce is one attempt of Start with fresh ports, id and storage.
func (c *Cluster) startOnce(ctx context.Context) error {
	id, err := newClusterID()
	if err != nil {
		return err
	}
	c.clusterID = id
	if c.cfg.DataRoot != "" {
		if err := c.removeDataRoot(); err != nil {
			return err
		}
		if err := c.makeDataRoot(); err != nil {
			return err
		}
	}
	total := c.cfg.Brokers + c.cfg.Controllers
	per := c.cfg.portsPerNode()
	ports, release, err := pickPorts(per * total)
	if err != nil {
		return err
	}
	// Held until the proxies the Advertise functions make have their own
	// ports (see freePorts); released by the time the nodes start.
	defer release()
	specs := make([]nodeSpec, total)
	c.nodes, c.controllers = nil, nil
	for i := range specs {
		spec := c.nodeSpec(i+1, ports[per*i:per*i+per])
		n := newNode(c.cfg.Dir, spec)
		if c.dataRoot != "" {
			n.spec.DataDir = filepath.Join(c.dataRoot, fmt.Sprintf("node-%d", spec.ID))
		}
		n.heap = c.heap
		if n.jvmExtra, err = agentArgs(c.cfg, c.dist.version); err != nil {
			return err
		}
		// A retry must not find the storage formatted by the first attempt.
		if err := os.RemoveAll(n.dir); err != nil {
			return fmt.Errorf("clear directory of node %d: %w", spec.ID, err)
		}
		if spec.isBroker() {
			c.nodes = append(c.nodes, n)
		} else {
			c.controllers = append(c.controllers, n)
		}
		specs[i] = n.spec
	}
	for _, n := range c.allNodes() {
		props := brokerProps(specs, n.spec, c.cfg.ExtraProps)
		if err := c.sec.secure(props, n.spec); err != nil {
			return err
		}
		if err := n.writeConfig(props); err != nil {
			return err
		}
	}
	if err := c.formatAll(ctx); err != nil {
		return err
	}
	release()
	// Controllers first: brokers wait for a quorum to register with.
	for _, n := range append(append([]*node(nil), c.controllers...), c.nodes...) {
		if err := n.start(c.java, c.dist, c.cds, c.cfg.Dir, c.cfg.Detached); err != nil {
			return err
		}
	}
	return waitReady(ctx, c.cfg.ReadyTimeout, c.nodes, c.ids(), c.clusterID, c.ClientOpts()...)
}

// nodeSpec lays out node id on its ports (client, controller, one
// inter-broker listener per zone, then DIRECT when clients are proxied):
// brokers (ids 1..Brokers) advertise their client and replication
// addresses, possibly through proxies; separate controllers (the ids
// after) only vote.
func (c *Cluster) nodeSpec(id int, ports []int) nodeSpec {
	spec := nodeSpec{ID: id, ClientPort: ports[0], ControllerPort: ports[1]}
	if c.cfg.Controllers > 0 {
		spec.Role = roleBroker
		if id > c.cfg.Brokers {
			spec.Role = roleController
		}
	}
	if zones := c.cfg.Zones; len(zones) > 0 {
		spec.ZoneIndex = c.zoneIndex(id)
		spec.Zone = zones[spec.ZoneIndex]
		if c.cfg.AdvertiseController != nil && spec.isController() {
			for _, from := range zones {
				spec.ControllerVia = append(spec.ControllerVia, c.cfg.AdvertiseController(from, id, spec.controllerAddr(-1)))
			}
		}
	}
	if !spec.isBroker() {
		return spec
	}
	spec.Advertised = spec.Addr()
	if c.cfg.Advertise != nil {
		spec.Advertised = c.cfg.Advertise(spec.ID, spec.Addr())
		spec.DirectPort = ports[len(ports)-1]
	}
	froms := c.cfg.Zones
	if len(froms) == 0 {
		froms = []string{""}
	}
	for i, from := range froms {
		spec.Repl = append(spec.Repl, replListener{Name: replicationName(from), Port: ports[2+i]})
		spec.Repl[i].Advertised = spec.ReplicationAddr(i)
		if c.cfg.AdvertiseReplication != nil {
			spec.Repl[i].Advertised = c.cfg.AdvertiseReplication(from, spec.ID, spec.ReplicationAddr(i))
		}
	}
	return spec
}

// zoneIndex places node id in a zone, round-robin: brokers by id, then
// separate controllers by their own order, so that a controller quorum
// spreads over the zones too.
func (c *Cluster) zoneIndex(id int) int {
	n := len(c.cfg.Zones)
	if n == 0 {
		return 0
	}
	if id > c.cfg.Brokers {
		return (id - c.cfg.Brokers - 1) % n
	}
	return (id - 1) % n
}

// Zone is node id's availability zone, "" in a cluster without zones.
func (c *Cluster) Zone(id int) string {
	if len(c.cfg.Zones) == 0 {
		return ""
	}
	return c.cfg.Zones[c.zoneIndex(id)]
}

// allNodes returns the brokers, then the separate controllers.
func (c *Cluster) allNodes() []*node {
	return append(append([]*node(nil), c.nodes...), c.controllers...)
}

// formatAll formats every node's storage, in parallel: each format is a
// short JVM run dominated by start-up.
func (c *Cluster) formatAll(ctx context.Context) error {
	all := c.allNodes()
	errs := make([]error, len(all))
	var wg sync.WaitGroup
	for i, n := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = n.format(ctx, c.java, c.dist, c.cds, c.clusterID, append(c.sec.formatArgs(), featureArgs(c.cfg.Features)...)...)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// bindFailed reports whether err or a broker log shows a port conflict.
func (c *Cluster) bindFailed(err error) bool {
	if isBindError(err.Error()) {
		return true
	}
	for _, n := range c.allNodes() {
		// The whole log: the bind error comes well before the shutdown
		// lines that end it.
		if data, err := os.ReadFile(n.logPath); err == nil && isBindError(string(data)) {
			return true
		}
	}
	return false
}

// killAll SIGKILLs every node and waits for them, after a failed start.
func (c *Cluster) killAll() {
	for _, n := range c.allNodes() {
		if n.running() {
			_ = n.signal(syscall.SIGKILL)
			n.wait(5 * time.Second)
		}
	}
}

// ids returns the ids of all nodes.
// BrokerIDs lists the brokers' node ids, ascending (empty for a cluster
// prodlab did not start).
func (c *Cluster) BrokerIDs() []int { return c.ids() }

func (c *Cluster) ids() []int {
	ids := make([]int, len(c.nodes))
	for i, n := range c.nodes {
		ids[i] = n.spec.ID
	}
	return ids
}

// Bootstrap returns the addresses clients should bootstrap from: the
// advertised address of every broker.
func (c *Cluster) Bootstrap() []string {
	if c.external {
		return append([]string(nil), c.bootstrap...)
	}
	addrs := make([]string, len(c.nodes))
	for i, n := range c.nodes {
		addrs[i] = n.spec.Advertised
	}
	return addrs
}

// DirectBootstrap returns the brokers' DIRECT listeners, which no proxy
// fronts, or nil when clients are not proxied (Config.Advertise unset)
// and for external clusters.
func (c *Cluster) DirectBootstrap() []string {
	var addrs []string
	for _, n := range c.nodes {
		if a := n.spec.DirectAddr(); a != "" {
			addrs = append(addrs, a)
		}
	}
	return addrs
}

// Brokers returns every broker, with the pid of its current process (0 when
// it is stopped, and for external clusters).
func (c *Cluster) Brokers() []Broker {
	if c.external {
		return append([]Broker(nil), c.brokers...)
	}
	out := make([]Broker, len(c.nodes))
	for i, n := range c.nodes {
		pid := 0
		if n.running() {
			pid, _ = n.state()
		}
		out[i] = Broker{ID: n.spec.ID, Addr: n.spec.Addr(), Advertised: n.spec.Advertised, PID: pid}
	}
	return out
}

// LogDirs are the embedded brokers' log directories (none for an external
// cluster): where a deleted topic's files can be seen to go.
func (c *Cluster) LogDirs() []string {
	if c.external {
		return nil
	}
	out := make([]string, len(c.nodes))
	for i, n := range c.nodes {
		out[i] = n.spec.DataDir
	}
	return out
}

// Version returns the broker version: the release for clusters from Maven
// Central, the jar version for a local distribution, and a guess from the
// brokers' ApiVersions for external clusters; "" when unknown.
func (c *Cluster) Version() string {
	return c.version
}

// Dir returns the cluster directory (empty for external clusters).
func (c *Cluster) Dir() string {
	if c.external {
		return ""
	}
	return c.cfg.Dir
}

// Embedded reports whether prodlab started this cluster.
func (c *Cluster) Embedded() bool {
	return !c.external
}

// featureArgs are kafka-storage format's arguments setting features, in
// name order.
func featureArgs(features map[string]int) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(features)) {
		out = append(out, "--feature", fmt.Sprintf("%s=%d", name, features[name]))
	}
	return out
}
