package lab

import (
	"context"
	"flag"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/proc"
	"github.com/prodlab/prodlab/internal/testjar"
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

// workerJarForTest returns the Java worker jar (see package testjar).
func workerJarForTest(t *testing.T) string { return testjar.WorkerJar(t) }

// planYAML parses the experiment src (named name in messages) and plans
// it, failing the test on any error.
func planYAML(t *testing.T, name, src string) (*expfile.Experiment, []expfile.Scenario) {
	t.Helper()
	exp, err := expfile.Parse(name, []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	scs, err := Plan(exp)
	if err != nil {
		t.Fatal(err)
	}
	return exp, scs
}
