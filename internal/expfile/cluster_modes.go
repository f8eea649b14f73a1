package expfile

import (
	"fmt"
	"strings"
)

// Where brokers keep their logs (cluster.storage).
const (
	// StorageDisk keeps them under the run directory: the page cache and
	// its writeback are on the measured path, as on a real broker.
	StorageDisk = "disk"
	// StorageMemory keeps them on a tmpfs (cluster.MemoryRoot): no device
	// and no writeback throttling, so the figures say what the client and
	// the brokers' CPUs do, not what the disk does.
	StorageMemory = "memory"
)

// storageModes lists the cluster.storage values, in the order messages
// give them.
var storageModes = []string{StorageDisk, StorageMemory}

// checkStorage accepts the cluster.storage values.
var checkStorage = oneOf("cluster.storage", storageModes)

// How the brokers and the client share the machine's CPUs (cluster.cpus).
const (
	// CPUsAuto, the default ("" too), splits them where prodlab runs both
	// and the brokers' half has a CPU for each node; elsewhere they share.
	// Split narrowed a 1-broker A/A pair's rounds at saturation; three
	// brokers on one CPU widened them (bench/RESULTS.md §25).
	CPUsAuto = "auto"
	// CPUsShared lets them all run on every CPU, as on a laptop.
	CPUsShared = "shared"
	// CPUsSplit pins the brokers to one half of the CPUs and the client
	// (with prodlab's proxies) to the other, so that neither takes the
	// other's cores in the measured window; refused where it cannot.
	CPUsSplit = "split"
)

// checkCPUs accepts the cluster.cpus values.
var checkCPUs = oneOf("cluster.cpus", []string{CPUsAuto, CPUsShared, CPUsSplit})

// oneOf is the check of a key that takes one of modes, case-insensitive,
// refusing anything else with the list and the closest mode.
func oneOf(key string, modes []string) func(raw, dir string) (string, error) {
	return func(raw, _ string) (string, error) {
		v := strings.ToLower(strings.TrimSpace(raw))
		for _, m := range modes {
			if v == m {
				return m, nil
			}
		}
		return "", fmt.Errorf("%s must be one of %s, got %q%s",
			key, strings.Join(modes, ", "), raw, didYouMean(v, modes))
	}
}
