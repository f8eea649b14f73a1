package lab

import (
	"context"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
)

// driverFor returns the driver for a client name, starting it on first use;
// a Java worker JVM then serves every trial of its client version.
func (r *runner) driverFor(ctx context.Context, client, kafka string) (driver.Driver, error) {
	release := cluster.ReleaseOrDefault(kafka)
	key := driver.Key(client, release)
	if d, ok := r.drivers[key]; ok {
		return d, nil
	}
	if driver.IsJava(client) {
		r.logf("starting Java worker with kafka-clients %s", driver.JavaRelease(client, release))
	}
	d, err := driver.New(ctx, client, release, r.opts.WorkerJar, r.opts.Dir)
	if err != nil {
		return nil, err
	}
	r.drivers[key] = d
	return d, nil
}
