package lab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/netem"
)

// TargetConfig says which cluster a Target starts or reaches and what it
// puts in front of it.
type TargetConfig struct {
	// Bootstrap, if set, reaches an existing cluster instead of starting
	// embedded brokers.
	Bootstrap []string
	// SkipConnect uses Bootstrap as given, without listing the cluster's
	// brokers first (cluster.Connect). For callers that need no proxies
	// and whose cluster may ask for credentials prodlab's admin client
	// cannot take from ClientProps (a JKS truststore): `prodlab perf`.
	// Version is then unknown ("").
	SkipConnect bool
	// Brokers, Controllers, Kafka and BrokerConfigs shape an embedded
	// cluster (see cluster.Config; BrokerConfigs are its ExtraProps).
	Brokers       int
	Controllers   int
	Kafka         string
	BrokerConfigs map[string]string
	// Security secures an embedded cluster's client listener
	// (cluster.security); ClientProps are an existing cluster's producer
	// properties, whose security settings prodlab's own clients adopt.
	Security    string
	ClientProps map[string]string
	// Storage is cluster.storage: expfile.StorageMemory puts an embedded
	// cluster's broker data on cluster.MemoryRoot.
	Storage string
	// Features are an embedded cluster's KRaft feature levels
	// (cluster.transaction.version), set when its storage is formatted.
	Features map[string]int
	// Dir holds an embedded cluster's data and logs; "" makes a temporary
	// directory that Close removes.
	Dir string
	// Proxies puts a netem proxy in front of each broker: embedded brokers
	// advertise their proxies; for an external cluster the proxies rewrite
	// broker addresses in metadata so clients stay behind them.
	Proxies bool
	// ZoneLinks puts proxies on the paths between nodes (zones.go): on
	// the inter-broker listeners (network.replication.rtt.ms) and, with
	// Zones, between zones; embedded clusters only.
	ZoneLinks bool
	// Zones names an embedded cluster's availability zones (cluster.zones
	// > 1; see cluster.Config.Zones).
	Zones []string
	// WorkerJar is the Java worker jar for java clients; LogDir receives
	// their logs ("" for none).
	WorkerJar, LogDir string
	// KIP1269Retain, when positive, starts embedded brokers with prodlab's
	// agent retaining that many batches per producer and partition.
	KIP1269Retain int
	// Fleets run the trials of scenarios on Trogdor fleets (trogdor.go).
	Fleets Fleets
	// Drivers, if not nil, is a driver cache shared with other targets
	// (and closed by its owner); otherwise the Target keeps its own and
	// closes it in Close.
	Drivers Drivers
	// Logf receives progress lines (nil: none).
	Logf func(format string, args ...any)
	// KeepData keeps an embedded cluster's data directories when Close
	// stops it; by default they are removed (the broker logs stay), since
	// the lab deletes every trial's topic and the rest is of no use.
	KeepData bool
}

// Target is a cluster that trials run against, started or reached once and
// shared by `run` (one per cluster shape), `perf` and `bench`: the cluster,
// the netem proxies in front of it, one admin client, and the drivers that
// produce to it. Close releases all of it.
type Target struct {
	cfg TargetConfig
	c   *cluster.Cluster // nil with SkipConnect
	// version is the broker release ("" when unknown).
	version string
	// bootstrap is where clients connect: the brokers, or their proxies.
	bootstrap []string
	// direct, for a cluster behind proxies, reaches the brokers themselves
	// (an external cluster's own addresses, an embedded one's DIRECT
	// listeners): scenarios that need no proxy use it, so a no-fault trial
	// beside a connection-cut one measures Kafka, not the proxy as well.
	direct []string
	// stored is the most a trial's topic has taken in the brokers' log
	// directories, all replicas (noteStored, for roomInMemory).
	stored int64
	// net holds the proxies in front of the brokers, if any.
	net     *netem.Set
	rewrite netem.RewriteFunc
	// links holds the proxies on the paths between nodes, when a scenario
	// delays replication or the cluster is in zones.
	links *zoneLinks
	// conn is how clients reach the brokers: TLS, SASL (security.go).
	conn connection
	// adm is the one admin client, on bootstrap.
	adm *cluster.Admin
	// drivers caches one driver per driver.Key; ownDrivers: Close closes them.
	drivers    Drivers
	ownDrivers bool
	// tmpDir is the embedded cluster's temporary directory, removed by Close.
	tmpDir string
	// watched wraps each cached driver, by key, so that its trials run
	// under this target's watch (watch.go).
	watched map[string]driver.Driver
	// noTopicWait is set once a deleted topic's files outlived
	// topicGoneWait: the brokers keep them longer than prodlab asks.
	noTopicWait bool
	// restarted: Recover already brought exited brokers back once; lost:
	// why the cluster was then given up (guarded by lostMu: a fault timer
	// may give it up while the trial runs); giveUp stops the group that
	// Supervise serves.
	restarted bool
	lostMu    sync.Mutex
	lost      error
	giveUp    context.CancelCauseFunc
}

// Drivers caches drivers by driver.Key, so a Java worker JVM serves every
// trial of its kafka-clients release.
type Drivers map[string]driver.Driver

// Close closes every driver in the cache and empties it.
func (ds Drivers) Close() {
	for k, d := range ds {
		_ = d.Close()
		delete(ds, k)
	}
}

// StartTarget starts (or reaches) the configured cluster, with a netem
// proxy in front of each broker when cfg.Proxies is set, and opens its
// admin client. On error nothing is left running.
func StartTarget(ctx context.Context, cfg TargetConfig) (*Target, error) {
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	t := &Target{cfg: cfg, drivers: cfg.Drivers, watched: map[string]driver.Driver{}}
	if t.drivers == nil {
		t.drivers, t.ownDrivers = Drivers{}, true
	}
	if (cfg.ZoneLinks || len(cfg.Zones) > 1) && len(cfg.Bootstrap) > 0 {
		return nil, errors.New("network.replication.rtt.ms and cluster.zones need an embedded cluster: prodlab cannot reroute an external cluster's replication (its zones are real)")
	}
	if cfg.SkipConnect && (len(cfg.Bootstrap) == 0 || cfg.Proxies) {
		return nil, errors.New("target: SkipConnect needs Bootstrap and no proxies")
	}
	if cfg.Proxies {
		t.net = netem.NewSet()
	}
	if cfg.ZoneLinks || len(cfg.Zones) > 1 {
		t.links = newZoneLinks(cfg.Zones)
	}
	var err error
	if len(cfg.Bootstrap) > 0 {
		if t.conn, err = externalConnection(ctx, cfg.Bootstrap, cfg.ClientProps, cfg.SkipConnect); err != nil {
			return nil, err
		}
	}
	switch {
	case cfg.SkipConnect:
		t.bootstrap = append([]string(nil), cfg.Bootstrap...)
	case len(cfg.Bootstrap) > 0:
		err = t.connect(ctx)
	default:
		err = t.startEmbedded(ctx)
	}
	if err == nil && t.net != nil {
		err = t.checkProxies(ctx)
	}
	if err == nil {
		err = t.secure(ctx)
	}
	if err == nil {
		t.adm, err = cluster.NewAdmin(t.bootstrap, t.conn.opts...)
	}
	if err != nil {
		_ = t.Close()
		return nil, err
	}
	if t.c != nil {
		t.version = t.c.Version()
	}
	return t, nil
}

// checkProxies dials every broker behind a proxy once; for an embedded
// cluster a failure carries each broker's state and log tail.
func (t *Target) checkProxies(ctx context.Context) error {
	err := t.net.Check(ctx)
	if err == nil || t.c == nil || !t.c.Embedded() {
		return err
	}
	states := make([]string, 0, len(t.c.BrokerIDs()))
	for _, id := range t.c.BrokerIDs() {
		states = append(states, t.c.Describe(id))
	}
	return fmt.Errorf("%w\n%s", err, strings.Join(states, "\n"))
}

// connect reaches an external cluster; with proxies, clients bootstrap
// through them and the proxies rewrite broker addresses in metadata.
func (t *Target) connect(ctx context.Context) error {
	c, err := cluster.Connect(ctx, t.cfg.Bootstrap, t.conn.opts...)
	if err != nil {
		return err
	}
	t.c, t.bootstrap = c, c.Bootstrap()
	if t.net == nil {
		return nil
	}
	t.direct, t.bootstrap = t.bootstrap, nil
	for _, b := range c.Brokers() {
		addr, err := t.net.Add(int32(b.ID), b.Advertised)
		if err != nil {
			return fmt.Errorf("proxy for broker %d: %w", b.ID, err)
		}
		t.bootstrap = append(t.bootstrap, addr)
	}
	t.rewrite = t.net.Rewriter()
	return nil
}

// startEmbedded starts cfg.Brokers embedded brokers; with proxies they
// advertise them, while replication keeps its own listener (direct, or
// through the replication proxies).
func (t *Target) startEmbedded(ctx context.Context) error {
	dir := t.cfg.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "prodlab-cluster-")
		if err != nil {
			return fmt.Errorf("embedded cluster: %w", err)
		}
		dir, t.tmpDir = d, d
	}
	brokers := max(t.cfg.Brokers, 1)
	t.cfg.Logf("starting %d-broker Kafka %s cluster (logs in %s)", brokers, orDefault(t.cfg.Kafka, cluster.DefaultKafka), dir)
	t0 := time.Now()
	cfg := cluster.Config{Brokers: brokers, Controllers: t.cfg.Controllers, Kafka: t.cfg.Kafka, Dir: dir, ExtraProps: t.cfg.BrokerConfigs, Security: t.cfg.Security,
		KIP1269Retain: t.cfg.KIP1269Retain, Agent: driver.AgentJar(t.cfg.WorkerJar), Features: t.cfg.Features}
	if t.cfg.Storage == expfile.StorageMemory {
		cfg.DataRoot = cluster.MemoryRoot
	}
	var proxyErr error
	if t.net != nil {
		cfg.Advertise = advertiseVia(t.net, "proxy", &proxyErr)
	}
	if t.links != nil {
		cfg.Zones = t.cfg.Zones
		cfg.AdvertiseReplication = t.links.advertise(t.links.repl, "replication proxy", &proxyErr)
		cfg.AdvertiseController = t.links.advertise(t.links.ctl, "controller proxy", &proxyErr)
	}
	c, err := cluster.Start(ctx, cfg)
	if err == nil {
		err = proxyErr
	}
	if err != nil {
		if c != nil {
			_ = c.Stop()
		}
		return err
	}
	t.c, t.bootstrap = c, c.Bootstrap()
	if t.net != nil {
		t.direct = c.DirectBootstrap()
	}
	if t.links != nil {
		t.links.started(c)
	}
	if note := c.ArchiveNote(); note != "" {
		t.cfg.Logf("%s", note)
	}
	t.cfg.Logf("cluster ready in %.1fs: %s", time.Since(t0).Seconds(), strings.Join(c.Bootstrap(), ","))
	return nil
}

// advertiseVia is a cluster.Config.Advertise function that puts a proxy of
// set in front of each broker's address and advertises the proxy; the
// first failure is kept in *failed (the broker then advertises itself).
func advertiseVia(set *netem.Set, what string, failed *error) func(id int, addr string) string {
	return func(id int, addr string) string {
		p, err := set.Put(int32(id), addr)
		if err != nil {
			if *failed == nil {
				*failed = fmt.Errorf("%s for broker %d: %w", what, id, err)
			}
			return addr
		}
		return p
	}
}

// zoneOf is a node's zone ("" without zones or an embedded cluster).
func (t *Target) zoneOf(id int) string {
	if t.c == nil {
		return ""
	}
	return t.c.Zone(id)
}

// Bootstrap is where clients connect: the brokers, or their proxies.
func (t *Target) Bootstrap() []string { return t.bootstrap }

// Version is the broker release ("" when unknown).
func (t *Target) Version() string { return t.version }

// Embedded reports whether prodlab started the brokers.
func (t *Target) Embedded() bool { return t.c != nil && t.c.Embedded() }

// Admin is the target's admin client (cluster.Admin's readiness rule).
func (t *Target) Admin() *cluster.Admin { return t.adm }

// EnsureTopic creates topic with the given partitions, replication factor
// (-1: the broker's default) and configs unless it exists, and returns once
// every partition is served by its leader (cluster.WaitTopicServed), so a
// clock started afterwards does not include topic creation. created tells
// whether this call created the topic. A topic that is not served in time
// gives a *cluster.NotServedError (whether or not it was created here); any
// other error means the topic could not be created.
func (t *Target) EnsureTopic(ctx context.Context, topic string, partitions, rf int, configs map[string]string) (created bool, err error) {
	err = t.adm.CreateTopic(ctx, topic, partitions, rf, configs)
	var notServed *cluster.NotServedError
	switch {
	case errors.Is(err, kerr.TopicAlreadyExists):
		return false, t.adm.WaitServed(ctx, topic, 0)
	case err == nil, errors.As(err, &notServed):
		return true, err
	default:
		return false, err
	}
}

// DeleteTopic deletes topic.
func (t *Target) DeleteTopic(ctx context.Context, topic string) error {
	return t.adm.DeleteTopic(ctx, topic)
}

// topicGoneWait bounds how long a trial waits for its deleted topic's
// files to leave an embedded broker's log directories.
const topicGoneWait = 5 * time.Second

// awaitTopicGone waits, on an embedded cluster, until no broker's log
// directory holds a partition of the deleted topic (its "topic-N" and
// "topic-N.<id>-delete" directories), at most topicGoneWait: freeing a
// trial's hundreds of MB is work the brokers would otherwise do during
// the next trial's window. It reports what is left when the wait runs out.
func (t *Target) awaitTopicGone(ctx context.Context, topic string) error {
	if t.c == nil || t.noTopicWait {
		return nil
	}
	dirs := t.c.LogDirs()
	deadline := time.Now().Add(topicGoneWait)
	for {
		left := topicFiles(dirs, topic)
		if len(left) == 0 {
			return nil
		}
		if ctx.Err() != nil {
			return nil // interrupted: no next trial to protect
		}
		if time.Now().After(deadline) {
			// A broker that keeps files longer (cluster.configs, a release
			// before 3.7 in its first 30 s) would cost every trial the
			// whole wait: wait no more in this run.
			t.noTopicWait = true
			return fmt.Errorf("topic %s deleted, but after %s its files are still there: %s; not waiting for deleted topics' files again in this run (the brokers keep them longer than prodlab's log.segment.delete.delay.ms of 100 ms: a cluster.configs entry for it or for log.dirs, or a Kafka release before 3.7, whose deleter starts 30 s after the broker; the next trials may share the CPU with the deletion)", topic, topicGoneWait, strings.Join(left, ", "))
		}
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// topicFiles lists the partition directories of topic in dirs.
func topicFiles(dirs []string, topic string) []string {
	var out []string
	for _, d := range dirs {
		entries, _ := os.ReadDir(d) // a directory not made yet holds nothing
		for _, en := range entries {
			if strings.HasPrefix(en.Name(), topic+"-") {
				out = append(out, filepath.Join(d, en.Name()))
			}
		}
	}
	return out
}

// Driver returns the driver for a client name (java, java@VERSION,
// franz-go), starting it on first use; a Java client follows the broker's
// release unless it names its own. Every trial starts here, so it first
// brings back brokers that exited unexpectedly (Recover), and the driver's
// trials run under the cluster's watch (Watch).
func (t *Target) Driver(ctx context.Context, client string) (driver.Driver, error) {
	return t.driverOf(ctx, client, "")
}

// driverOf is Driver for the trials of one worker class (workerClasses):
// each class gets its own client process.
func (t *Target) driverOf(ctx context.Context, client, class string) (driver.Driver, error) {
	if err := t.Recover(ctx); err != nil {
		return nil, err
	}
	release := cluster.ReleaseOrDefault(t.version)
	key := driver.Key(client, release) + classSuffix(class)
	if w, ok := t.watched[key]; ok {
		if !driverGone(w) {
			return w, nil
		}
		delete(t.watched, key) // cachedDriver replaces what it wraps
	}
	d, err := t.cachedDriver(ctx, client, release, key)
	if err != nil {
		return nil, err
	}
	return t.watch(key, d), nil
}

// driverGone reports whether d (or the driver it wraps) says its client
// process is gone (driver.Java.Gone: it crashed, or was killed after a
// trial it would not end): the run goes on with another.
func driverGone(d driver.Driver) bool {
	if w, ok := d.(*watchedDriver); ok {
		d = w.Driver
	}
	g, ok := d.(interface{ Gone() bool })
	return ok && g.Gone()
}

// classSuffix tells a worker class's drivers apart in the driver caches.
func classSuffix(class string) string {
	if class == "" {
		return ""
	}
	return " [" + class + "]"
}

// watch wraps d so that its trials run under the cluster's watch, once per
// key.
func (t *Target) watch(key string, d driver.Driver) driver.Driver {
	if w, ok := t.watched[key]; ok {
		return w
	}
	w := &watchedDriver{Driver: d, t: t}
	t.watched[key] = w
	return w
}

// cachedDriver returns the driver of key from the (possibly shared) cache,
// starting it on first use, and again when the cached one's worker is
// gone (driverGone): the run goes on with another.
func (t *Target) cachedDriver(ctx context.Context, client, release, key string) (driver.Driver, error) {
	if d, ok := t.drivers[key]; ok {
		if !driverGone(d) {
			return d, nil
		}
		t.cfg.Logf("%s: its worker stopped; starting another for the next trial", d.Name())
		_ = d.Close()
		delete(t.drivers, key)
	}
	if driver.NeedsWorker(client) {
		t.cfg.Logf("starting Java worker with kafka-clients %s", driver.Release(client, release))
	}
	d, err := driver.New(ctx, client, release, t.cfg.WorkerJar, t.cfg.LogDir)
	if err != nil {
		return nil, err
	}
	t.drivers[key] = d
	return d, nil
}

// Close closes the target's own drivers and its admin client, the proxies,
// and stops an embedded cluster (removing its temporary directory). It
// returns the last error.
func (t *Target) Close() error {
	var err error
	if t.ownDrivers {
		t.drivers.Close()
	}
	if t.adm != nil {
		t.adm.Close()
	}
	if t.net != nil {
		err = t.net.Close()
	}
	if t.c != nil {
		if e := t.c.Stop(); e != nil {
			err = e
		} else if !t.cfg.KeepData {
			if e := t.c.RemoveData(); e != nil {
				err = e
			}
		}
	}
	// After the brokers: a broker's controlled shutdown talks to the
	// controllers through these links.
	if t.links != nil {
		if e := t.links.Close(); e != nil {
			err = e
		}
	}
	if t.tmpDir != "" {
		_ = os.RemoveAll(t.tmpDir)
	}
	return err
}

// startCluster starts (or connects to) the group's cluster, with a netem
// proxy in front of each broker when the group's scenarios need one. Its
// drivers are the run's, shared between groups.
func (r *runner) startCluster(ctx context.Context, g *clusterGroup) (*Target, error) {
	configs, retain, err := r.kip1269Cluster(ctx, g)
	if err != nil {
		return nil, err
	}
	return StartTarget(ctx, TargetConfig{
		Bootstrap:     r.opts.Bootstrap,
		Brokers:       g.brokers,
		Controllers:   g.cluster.Controllers,
		Kafka:         g.kafka,
		BrokerConfigs: configs,
		Security:      g.cluster.Security,
		Storage:       g.cluster.Storage,
		Features:      g.cluster.Features(),
		KIP1269Retain: retain,
		Fleets:        r.opts.Fleets,
		ClientProps:   g.scs[0].Exp.Producer,
		Dir:           filepath.Join(r.opts.Dir, clusterDirName(g)),
		Proxies:       needsProxies(g.scs),
		ZoneLinks:     needsZoneLinks(g.scs),
		Zones:         zoneNames(g.cluster),
		WorkerJar:     r.opts.WorkerJar,
		LogDir:        r.workerLogDir(g),
		Drivers:       r.groupDrivers(g),
		Logf:          r.groupLogf(g),
		KeepData:      r.opts.KeepTopics,
	})
}

// groupLogf is where g's target logs: the group's own log, or the run's.
func (r *runner) groupLogf(g *clusterGroup) func(format string, args ...any) {
	if g.logf != nil {
		return g.logf
	}
	return r.logf
}

// groupDrivers is the driver cache g's cluster uses: the run's, or nil
// (the target's own) when the group keeps its own.
func (r *runner) groupDrivers(g *clusterGroup) Drivers {
	if g.ownDrivers {
		return nil
	}
	return r.drivers
}

// workerLogDir is where g's Java workers log: the run directory, or the
// cluster's own directory when the group keeps its own drivers (a duet's
// two workers of one release would share one file).
func (r *runner) workerLogDir(g *clusterGroup) string {
	if g.ownDrivers {
		return filepath.Join(r.opts.Dir, clusterDirName(g))
	}
	return r.opts.Dir
}

// clusterDirName names a group's cluster directory in the run directory:
// cluster-<brokers> for the first group, as before, and
// cluster-<brokers>-<n> for the others, so that clusters that differ in
// release or broker settings keep their own logs.
func clusterDirName(g *clusterGroup) string {
	if g.n <= 1 {
		return fmt.Sprintf("cluster-%d", g.brokers)
	}
	return fmt.Sprintf("cluster-%d-%d", g.brokers, g.n)
}
