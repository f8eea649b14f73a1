package lab

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/proc"
)

// shared is one embedded broker used by every integration test of this
// package, so the suite pays for a cluster start once.
var shared *cluster.Cluster

func TestMain(m *testing.M) {
	flag.Parse()
	code := func() int {
		defer proc.KillAll()
		if !testing.Short() {
			dir, err := os.MkdirTemp("", "prodlab-lab-test-")
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			defer os.RemoveAll(dir)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			shared, err = cluster.Start(ctx, cluster.Config{Brokers: 1, Dir: dir})
			if err != nil {
				fmt.Fprintln(os.Stderr, "start shared test cluster:", err)
				return 1
			}
			defer func() { _ = shared.Stop() }()
		}
		return m.Run()
	}()
	os.Exit(code)
}

func needCluster(t *testing.T) *cluster.Cluster {
	t.Helper()
	if shared == nil {
		t.Skip("integration test: needs an embedded cluster (not in -short mode)")
	}
	return shared
}

// workerJarForTest returns the Java worker jar: $PRODLAB_WORKER_JAR (set by
// make test), else the module's build output, built with Maven if missing.
func workerJarForTest(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("PRODLAB_WORKER_JAR"); p != "" {
		return p
	}
	pom, err := filepath.Abs(filepath.Join("..", "..", "java", "worker", "pom.xml"))
	if err != nil {
		t.Fatal(err)
	}
	jar := filepath.Join(filepath.Dir(pom), "target", "prodlab-worker.jar")
	if _, err := os.Stat(jar); err != nil {
		out, err := exec.Command("mvn", "-B", "-q", "-DskipTests", "-f", pom, "package").CombinedOutput()
		if err != nil {
			t.Fatalf("build the Java worker: %v\n%s", err, out)
		}
	}
	return jar
}
