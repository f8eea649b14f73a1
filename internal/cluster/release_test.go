package cluster

import (
	"testing"

	"github.com/prodlab/prodlab/internal/testtier"
)

// TestReleases starts one broker of each older release line prodlab keeps
// working with (the default, DefaultKafka, runs in every other test), and
// creates, sizes and deletes topics on it.
func TestReleases(t *testing.T) {
	testtier.Shared(t)
	for _, release := range []string{"4.3.0", "3.9.1"} {
		t.Run(release, func(t *testing.T) {
			c := startCluster(t, Config{Brokers: 1, Kafka: release})
			if c.Version() != release {
				t.Errorf("Version() = %q, want %q", c.Version(), release)
			}
			adminRounds(t, c.Bootstrap(), 3, 2, 1)
		})
	}
}
