package lab

import (
	"context"
	"errors"
	"slices"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/expfile"
)

// Preflight resolves, before anything starts, what the scenarios will
// run: every distinct Kafka release or distribution of an embedded cluster
// (none with external, a --bootstrap cluster), and every distinct client
// version. Each distinct problem is reported once, however many scenarios
// share it. Resolved artifacts stay in the Maven cache for the run.
// workerJar runs the broker's config definitions (cluster.configs checks).
func Preflight(ctx context.Context, scs []expfile.Scenario, external bool, workerJar string) error {
	var kafkas, clients []string
	for _, sc := range scs {
		if k := sc.Exp.Cluster.Kafka; !slices.Contains(kafkas, k) {
			kafkas = append(kafkas, k)
		}
		if c := sc.Exp.Client; !slices.Contains(clients, c) {
			clients = append(clients, c)
		}
	}
	var errs []error
	if !external {
		if err := cluster.CheckKafkas(ctx, kafkas...); err != nil {
			errs = append(errs, err)
		} else if err := checkClusters(ctx, scs, workerJar); err != nil {
			errs = append(errs, err)
		} else if err := checkKIP1269Agents(ctx, scs, workerJar); err != nil {
			errs = append(errs, err)
		}
		if err := checkTransactionMax(scs); err != nil {
			errs = append(errs, err)
		}
		if slices.ContainsFunc(scs, func(sc expfile.Scenario) bool { return sc.Exp.Cluster.CPUs == expfile.CPUsSplit }) {
			if _, err := planCPUSets(); err != nil {
				errs = append(errs, err)
			}
		}
		if len(scs) > 0 {
			if check := modeOf(&scs[0].Exp).preflight; check != nil { // every scenario shares the run's mode
				errs = append(errs, check(scs)...)
			}
		}
		if slices.ContainsFunc(scs, func(sc expfile.Scenario) bool { return sc.Exp.Cluster.Storage == expfile.StorageMemory }) {
			if err := cluster.CheckDataRoot(cluster.MemoryRoot); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if err := driver.ResolveAll(ctx, clients); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
