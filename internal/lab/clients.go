package lab

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/spec"
)

// checkClient validates producer properties for a client before anything runs.
func checkClient(client string, props map[string]string) error {
	switch {
	case client == "franz-go":
		return driver.NewFranz().Check(props)
	case spec.IsJava(client):
		return driver.CheckJava(client, props)
	default:
		return fmt.Errorf("unknown client %q (want franz-go, java or java@VERSION)", client)
	}
}

// javaVersion picks the kafka-clients release for a java client name:
// java@V is V; plain java matches the broker's release.
func javaVersion(client, kafka string) string {
	if v, ok := strings.CutPrefix(client, "java@"); ok {
		return v
	}
	if cluster.IsRelease(kafka) {
		return kafka
	}
	return cluster.DefaultKafka
}

// driverFor returns the driver for a client name, starting it on first use;
// a Java worker JVM then serves every trial of its client version.
func (r *runner) driverFor(ctx context.Context, client, kafka string) (driver.Driver, error) {
	key := client
	if spec.IsJava(client) {
		key = "java@" + javaVersion(client, kafka)
	}
	if d, ok := r.drivers[key]; ok {
		return d, nil
	}
	var d driver.Driver
	switch {
	case client == "franz-go":
		d = driver.NewFranz()
	case spec.IsJava(client):
		v := javaVersion(client, kafka)
		r.logf("starting Java worker with kafka-clients %s", v)
		j, err := driver.NewJava(ctx, v, r.opts.WorkerJar, r.opts.Dir)
		if err != nil {
			return nil, fmt.Errorf("start java worker for kafka-clients %s (jar %s): %w", v, filepath.Base(r.opts.WorkerJar), err)
		}
		d = j
	default:
		return nil, fmt.Errorf("unknown client %q", client)
	}
	r.drivers[key] = d
	return d, nil
}
