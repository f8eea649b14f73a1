package driver

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/proc"
)

// shared is one embedded broker for every integration test of this
// package, started by the first test that needs it and stopped by
// TestMain, so the suite pays for one broker start.
var shared struct {
	once  sync.Once
	dir   string
	c     *cluster.Cluster
	admin *cluster.Admin
	err   error
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range conformance.drivers {
		_ = d.Close()
	}
	if shared.admin != nil {
		shared.admin.Close()
	}
	if shared.c != nil {
		_ = shared.c.Stop()
	}
	if shared.dir != "" {
		_ = os.RemoveAll(shared.dir)
	}
	proc.KillAll()
	os.Exit(code)
}

// sharedBroker returns the package's broker and its admin client, starting
// them on first use; integration tests skip in -short mode.
func sharedBroker(t *testing.T) (*cluster.Cluster, *cluster.Admin) {
	t.Helper()
	if testing.Short() {
		t.Skip("integration test: starts a broker")
	}
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "prodlab-driver-test-")
		if shared.err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		if shared.c, shared.err = cluster.Start(ctx, cluster.Config{Brokers: 1, Dir: shared.dir}); shared.err != nil {
			shared.err = fmt.Errorf("start the shared test broker: %w", shared.err)
			return
		}
		shared.admin, shared.err = cluster.NewAdmin(shared.c.Bootstrap())
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.c, shared.admin
}

// servedTopic creates a topic of partitions partitions on the shared
// broker, readied by cluster.Admin's rule (every leader serves it).
func servedTopic(ctx context.Context, t *testing.T, name string, partitions int) string {
	t.Helper()
	_, adm := sharedBroker(t)
	if err := adm.CreateTopic(ctx, name, partitions, 1, nil); err != nil {
		t.Fatal(err)
	}
	return name
}
