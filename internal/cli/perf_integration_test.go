package cli

import (
	"bytes"
	"regexp"
	"strconv"
	"testing"
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
	if rps <= 0 || mbps <= 0 || mbps*(1<<20) < rps*1024*0.99 || mbps*(1<<20) > rps*1024*1.01 {
		t.Errorf("throughput %v records/s, %v MB/s do not agree for 1024-byte records", rps, mbps)
	}
	if !bytes.Contains(stdout.Bytes(), []byte("batch-size-avg")) {
		t.Error("--print-metrics printed no metrics")
	}
}
