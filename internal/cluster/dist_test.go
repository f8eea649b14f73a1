package cluster

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/maven"
	"github.com/prodlab/prodlab/internal/testtier"
)

// TestLocalDistribution starts a broker from a local Kafka distribution
// directory (cluster.kafka: /path), as a user would with a build of a branch
// under review: here a libs/ directory made of the release's own jars.
func TestLocalDistribution(t *testing.T) {
	testtier.Shared(t)
	if testing.Short() {
		t.Skip("starts a real Kafka broker")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	jars, err := maven.Resolve(ctx, "kafka-"+DefaultKafka, "org.apache.kafka:kafka_2.13:"+DefaultKafka, slf4jSimple)
	if err != nil {
		t.Fatal(err)
	}
	dist := t.TempDir()
	libs := filepath.Join(dist, "libs")
	if err := os.Mkdir(libs, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, j := range jars {
		if err := os.Symlink(j, filepath.Join(libs, filepath.Base(j))); err != nil {
			t.Fatal(err)
		}
	}
	c := startCluster(t, Config{Brokers: 1, Kafka: dist, Dir: t.TempDir()})
	if got := c.Version(); got != DefaultKafka {
		t.Errorf("Version() = %q, want %q read from the distribution's jars", got, DefaultKafka)
	}
	if log, err := os.ReadFile(filepath.Join(c.Dir(), "broker-1.log")); err != nil || len(log) == 0 {
		t.Errorf("broker log missing or empty: %v", err)
	}
}
