package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
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
	bootstrap []string  // external clusters only
	brokers   []Broker  // external clusters only
	version   string    // broker version, "" when unknown
	java      string    // embedded only
	dist      dist      // embedded only
	clusterID string    // embedded only
	nodes     []*node   // embedded only; nodes[i] has id i+1
	stopOnce  sync.Once // Stop runs once
	stopErr   error     // Stop's result
	watch     exitWatch // unexpected broker exits (watch.go)
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
	c := &Cluster{cfg: cfg, java: java, dist: d, version: d.version}
	for attempt := 1; ; attempt++ {
		err = c.startOnce(ctx)
		if err == nil {
			c.watchNodes()
			return c, nil
		}
		c.killAll()
		if attempt == 2 || !c.bindFailed(err) {
			return nil, err
		}
	}
}

// startOnce is one attempt of Start with fresh ports, id and storage.
func (c *Cluster) startOnce(ctx context.Context) error {
	id, err := newClusterID()
	if err != nil {
		return err
	}
	c.clusterID = id
	ports, err := pickPorts(3 * c.cfg.Brokers)
	if err != nil {
		return err
	}
	specs := make([]nodeSpec, c.cfg.Brokers)
	c.nodes = make([]*node, c.cfg.Brokers)
	for i := range specs {
		spec := nodeSpec{ID: i + 1, ClientPort: ports[3*i], ControllerPort: ports[3*i+1], ReplicationPort: ports[3*i+2]}
		spec.Advertised = spec.Addr()
		if c.cfg.Advertise != nil {
			spec.Advertised = c.cfg.Advertise(spec.ID, spec.Addr())
		}
		spec.ReplicationAdvertised = spec.ReplicationAddr()
		if c.cfg.AdvertiseReplication != nil {
			spec.ReplicationAdvertised = c.cfg.AdvertiseReplication(spec.ID, spec.ReplicationAddr())
		}
		n := newNode(c.cfg.Dir, spec)
		// A retry must not find the storage formatted by the first attempt.
		if err := os.RemoveAll(n.dir); err != nil {
			return fmt.Errorf("clear directory of node %d: %w", spec.ID, err)
		}
		c.nodes[i] = n
		specs[i] = n.spec
	}
	for _, n := range c.nodes {
		if err := n.writeConfig(brokerProps(specs, n.spec, c.cfg.ExtraProps)); err != nil {
			return err
		}
	}
	if err := c.formatAll(ctx); err != nil {
		return err
	}
	for _, n := range c.nodes {
		if err := n.start(c.java, c.dist, c.cfg.Dir, c.cfg.Detached); err != nil {
			return err
		}
	}
	return waitReady(ctx, c.cfg.ReadyTimeout, c.nodes, c.ids())
}

// formatAll formats every node's storage, in parallel: each format is a
// short JVM run dominated by start-up.
func (c *Cluster) formatAll(ctx context.Context) error {
	errs := make([]error, len(c.nodes))
	var wg sync.WaitGroup
	for i, n := range c.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = n.format(ctx, c.java, c.dist, c.clusterID)
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
	for _, n := range c.nodes {
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
	for _, n := range c.nodes {
		if n.running() {
			_ = n.signal(syscall.SIGKILL)
			n.wait(5 * time.Second)
		}
	}
}

// ids returns the ids of all nodes.
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
