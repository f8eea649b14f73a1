package cli

import (
	"bytes"
	"context"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
)

// TestPerfFranzIntegration runs `prodlab perf` with franz-go against an
// embedded broker it starts itself and checks the final line.
func TestPerfFranzIntegration(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Kafka broker")
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"perf", "--client", "franz-go", "--topic", "perf-it", "--num-records", "20000",
		"--record-size", "1024", "--throughput", "-1", "--partitions", "2",
		"--producer-props", "acks=all", "linger.ms=5", "batch.size=65536", "compression.type=none",
		"--print-metrics"}, &stdout, &stderr)
	t.Logf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	final := regexp.MustCompile(`(?m)^(\d+) records sent, (\d+\.\d{6}) records/sec \((\d+\.\d{2}) MB/sec\), (\d+\.\d{2}) ms avg latency, (\d+\.\d{2}) ms max latency, (\d+) ms 50th, (\d+) ms 95th, (\d+) ms 99th, (\d+) ms 99\.9th\.$`)
	m := final.FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatal("no kafka-producer-perf-test final line in the output")
	}
	if m[1] != "20000" {
		t.Errorf("final line reports %s records, want 20000", m[1])
	}
	rps, _ := strconv.ParseFloat(m[2], 64)
	mbps, _ := strconv.ParseFloat(m[3], 64)
	// Both come from the same count and clock: MB/s is records/s × 1024 /
	// 2^20, up to its printed two decimals (0.005) and rounding.
	if rps <= 0 || mbps <= 0 || math.Abs(mbps-rps*1024/(1<<20)) > 0.005+1e-6*rps {
		t.Errorf("throughput %v records/s, %v MB/s do not agree for 1024-byte records", rps, mbps)
	}
	if !bytes.Contains(stdout.Bytes(), []byte("batch-size-avg")) {
		t.Error("--print-metrics printed no metrics")
	}
}

// TestPerfBootstrapWarmup runs `prodlab perf` twice against an existing
// cluster (--bootstrap-server): the first run creates the topic, the
// second finds it; with --warmup-records the output ends in perf-test's
// overall line (every record) and its steady-state line (the rest).
func TestPerfBootstrapWarmup(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Kafka broker")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// Detached: run() kills every child process it registered when it
	// returns, and this cluster must outlive the first run.
	c, err := cluster.Start(ctx, cluster.Config{Brokers: 1, Dir: t.TempDir(), Detached: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Stop() }()
	args := []string{"perf", "--client", "franz-go", "--bootstrap-server", strings.Join(c.Bootstrap(), ","),
		"--topic", "perf-bootstrap", "--num-records", "3000", "--warmup-records", "1000",
		"--record-size", "100", "--throughput", "-1", "--producer-props", "acks=all", "linger.ms=1"}
	overall := regexp.MustCompile(`(?m)^3000 records sent, \d+\.\d{6} records/sec .* ms 99\.9th\.\n2000 steady state records sent, \d+\.\d{6} records/sec .* ms 99\.9th\.\n\z`)
	for i, wantCreated := range []bool{true, false} {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		t.Logf("run %d stdout:\n%s\nstderr:\n%s", i, stdout.String(), stderr.String())
		if code != ExitOK {
			t.Fatalf("run %d: exit %d", i, code)
		}
		if !overall.Match(stdout.Bytes()) {
			t.Errorf("run %d: output does not end in the overall and steady-state lines", i)
		}
		if !strings.HasPrefix(stdout.String(), "Warmup first 1000 records. Steady state results will print after the complete test summary.\nIn steady state.\n") {
			t.Errorf("run %d: no warm-up announcement", i)
		}
		if got := strings.Contains(stderr.String(), "created topic perf-bootstrap"); got != wantCreated {
			t.Errorf("run %d: created the topic: %v, want %v", i, got, wantCreated)
		}
		if strings.Contains(stderr.String(), "started Kafka") {
			t.Errorf("run %d: started a cluster despite --bootstrap-server", i)
		}
	}
}
