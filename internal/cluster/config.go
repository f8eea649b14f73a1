package cluster

import (
	"fmt"
	"path/filepath"
	"time"
)

// MaxBrokers is the largest embedded cluster prodlab starts: nine brokers
// cover replication factor 3 with leaders spread like a small production
// cluster. Whether that many fit is a matter of memory, checked when the
// cluster starts (and before the run, see CheckMemory): each node's heap is
// sized from MemAvailable (memory.go).
const MaxBrokers = 9

// MaxControllers bounds the separate KRaft controller nodes.
const MaxControllers = 5

// MaxZones bounds Config.Zones: three availability zones, as in most cloud
// regions.
const MaxZones = 3

// Defaults for Config fields left zero.
const (
	defaultReadyTimeout = 90 * time.Second
	defaultStopGrace    = 10 * time.Second
)

// Config describes an embedded cluster.
type Config struct {
	// Brokers is the number of brokers, 1 to MaxBrokers. Without
	// Controllers each is both broker and controller (KRaft combined mode).
	Brokers int
	// Controllers, when positive (up to MaxControllers), adds that many
	// separate controller nodes (process.roles=controller, ids after the
	// brokers'), and the brokers are brokers only, as production KRaft
	// clusters run.
	Controllers int
	// Kafka is a release version such as "4.3.0" (resolved from Maven
	// Central; default DefaultKafka) or the directory of a local Kafka
	// distribution, whose libs/*.jar and logging configuration are used.
	Kafka string
	// Dir is where node configurations, data and logs go, typically the run
	// directory. Each node logs to Dir/broker-<id>.log.
	Dir string
	// Advertise, if set, maps a node id and its real listener address to the
	// address advertised to clients, e.g. a network-emulation proxy in front
	// of the broker. The default advertises the real address. With it,
	// each broker also gets a DIRECT listener, secured like the client
	// listener and advertised at its own address, so that clients of
	// scenarios that need no proxy reach the broker without one
	// (Cluster.DirectBootstrap).
	Advertise func(id int, addr string) string
	// AdvertiseReplication, if set, does the same for the inter-broker
	// listener the followers of zone from ("" without zones) fetch from
	// broker id through, e.g. a proxy that delays replication.
	AdvertiseReplication func(from string, id int, addr string) string
	// Zones names the availability zones; nodes are spread over them
	// round-robin by id (brokers, then separate controllers) and each
	// broker's broker.rack is its zone, so Kafka places replicas in
	// distinct zones. Each broker gets an inter-broker listener per zone.
	// Empty or one name: no zones, no racks.
	Zones []string
	// AdvertiseController, if set with zones, maps controller id's real
	// CONTROLLER address to the one nodes of zone from reach it at (in
	// controller.quorum.voters), e.g. a proxy that delays controller
	// traffic between zones. A node reaches itself directly.
	AdvertiseController func(from string, id int, addr string) string
	// Detached starts processes that outlive the caller (for
	// `prodlab cluster up`): own session, no parent-death signal, not in
	// the proc registry.
	Detached bool
	// Security secures the client listener: SecurityPlaintext ("" too),
	// SecuritySSL, SecuritySASLPlaintext or SecuritySASLSSL (security.go).
	Security string
	// ExtraProps are broker properties applied on top of prodlab's own,
	// overriding them.
	ExtraProps map[string]string
	// Features are KRaft feature levels set when the storage is formatted
	// (kafka-storage format --feature NAME=LEVEL), e.g. transaction.version
	// 1 or 2 (KIP-890); a feature left out takes the release's default.
	Features map[string]int
	// KIP1269Retain, when positive, starts every node with prodlab's agent
	// (Agent) making stock brokers retain that many batches of sequence
	// metadata per producer and partition (KIP-1269 emulation, kip1269.go).
	KIP1269Retain int
	// Agent is the path of prodlab-agent.jar, needed with KIP1269Retain.
	Agent string
	// DataRoot, when set, holds the nodes' data (log.dirs) instead of Dir:
	// MemoryRoot for storage: memory. The cluster makes its own directory
	// there and removes it when it stops, even with its data kept.
	DataRoot string
	// ArchiveDir holds the brokers' class-data archives (cds.go);
	// CacheDir()/cds when empty.
	ArchiveDir string
	// ReadyTimeout bounds how long Start and Restart wait for the brokers to
	// appear in the metadata; default 90s.
	ReadyTimeout time.Duration
	// StopGrace is how long Stop and Shutdown wait after SIGTERM before they
	// SIGKILL; default 10s. Stop gives a node that votes in a quorum of
	// several raftShutdownWait more.
	StopGrace time.Duration
}

// normalize validates cfg and fills in defaults.
func (cfg Config) normalize() (Config, error) {
	if cfg.Brokers < 1 || cfg.Brokers > MaxBrokers {
		return cfg, fmt.Errorf("brokers: %d is out of range, want 1 to %d", cfg.Brokers, MaxBrokers)
	}
	if cfg.Controllers < 0 || cfg.Controllers > MaxControllers {
		return cfg, fmt.Errorf("controllers: %d is out of range, want 0 to %d", cfg.Controllers, MaxControllers)
	}
	if cfg.Kafka == "" {
		cfg.Kafka = DefaultKafka
	}
	if !isRelease(cfg.Kafka) {
		abs, err := filepath.Abs(cfg.Kafka)
		if err != nil {
			return cfg, fmt.Errorf("kafka directory %q: %w", cfg.Kafka, err)
		}
		if !exists(filepath.Join(abs, "libs")) {
			return cfg, fmt.Errorf("kafka: %q is neither a release version like %s nor a Kafka distribution directory with libs/", cfg.Kafka, DefaultKafka)
		}
		cfg.Kafka = abs
	}
	if len(cfg.Zones) > MaxZones {
		return cfg, fmt.Errorf("zones: %d is out of range, want at most %d", len(cfg.Zones), MaxZones)
	}
	if len(cfg.Zones) == 1 {
		cfg.Zones = nil
	}
	if cfg.Dir == "" {
		return cfg, fmt.Errorf("cluster directory: empty, want the directory for broker data and logs")
	}
	abs, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return cfg, fmt.Errorf("cluster directory %q: %w", cfg.Dir, err)
	}
	cfg.Dir = abs
	if cfg.ReadyTimeout <= 0 {
		cfg.ReadyTimeout = defaultReadyTimeout
	}
	if cfg.StopGrace <= 0 {
		cfg.StopGrace = defaultStopGrace
	}
	return cfg, nil
}
