package cluster

import "context"

// Planned is what Start would start for a config, worked out without
// starting it: for `prodlab cluster up --dry-run`.
type Planned struct {
	// Config is the config as Start would run it: the release, or the
	// distribution's absolute directory, and an absolute Dir.
	Config
	// Version is the Kafka version, "" when a distribution's jars do not
	// say.
	Version string
	// Heap is each node's heap, sized from the memory available now.
	Heap int64
	// PortsPerNode is how many loopback ports each node listens on; Start
	// picks them free when it starts.
	PortsPerNode int
}

// Plan checks cfg as Start does and works out what Start would start,
// without starting anything or writing anything but the cache: a release
// is resolved like Start resolves it (from the cache once CheckKafka has
// put it there; otherwise mvn downloads it), a distribution is read.
func Plan(ctx context.Context, cfg Config) (Planned, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return Planned{}, err
	}
	d, err := resolveDist(ctx, cfg.Kafka)
	if err != nil {
		return Planned{}, err
	}
	heap, err := HeapFor(cfg.Brokers + cfg.Controllers)
	if err != nil {
		return Planned{}, err
	}
	if _, err := newSecurity(cfg.Security); err != nil {
		return Planned{}, err
	}
	return Planned{Config: cfg, Version: d.version, Heap: heap, PortsPerNode: cfg.portsPerNode()}, nil
}

// portsPerNode is how many ports each node listens on: client,
// controller, an inter-broker listener per zone (one without zones), and
// DIRECT when clients are proxied (Advertise).
func (cfg Config) portsPerNode() int {
	per := 2 + max(len(cfg.Zones), 1)
	if cfg.Advertise != nil {
		per++
	}
	return per
}
