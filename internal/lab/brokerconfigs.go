package lab

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/expfile"
)

// checkClusters refuses, before anything starts, embedded clusters that
// cannot run as asked: more nodes than fit in memory, and broker properties
// (cluster.configs) that the broker of the scenario's release or local
// build does not define, each placed where it was set and with the closest
// name the broker knows. Each release's definitions are read once.
func checkClusters(ctx context.Context, scs []expfile.Scenario, workerJar string) error {
	var errs []error
	defs := map[string]map[string]string{}
	reported := map[string]bool{}
	for _, sc := range scs {
		c := sc.Exp.Cluster
		if err := cluster.CheckMemory(c.Brokers, c.Controllers); err != nil && !reported[err.Error()] {
			reported[err.Error()] = true
			errs = append(errs, err)
		}
		names := sc.Exp.BrokerConfigNames()
		if len(names) == 0 {
			continue
		}
		def, ok := defs[c.Kafka]
		if !ok {
			var err error
			if def, err = cluster.BrokerConfigDef(ctx, c.Kafka, workerJar); err != nil {
				return errors.Join(append(errs, err)...)
			}
			defs[c.Kafka] = def
		}
		known := slices.Collect(maps.Keys(def))
		for _, n := range cluster.UnknownBrokerConfigs(def, names) {
			// Once per property and release, where it is first set: a
			// matrix axis would otherwise repeat it for every value.
			if key := n + "@" + c.Kafka; !reported[key] {
				reported[key] = true
				errs = append(errs, sc.Exp.UnknownBrokerConfig(n, orDefault(c.Kafka, cluster.DefaultKafka), known))
			}
		}
	}
	return errors.Join(errs...)
}
