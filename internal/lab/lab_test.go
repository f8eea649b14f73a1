package lab

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/testtier"
)

const twoByTwo = `
name: lab-test
topic: {partitions: 2, replication.factor: 1}
workload: {records: 20000, record.size: 1024, payload: json}
client: franz-go
producer: {acks: all, batch.size: 262144}
matrix:
  linger.ms: [0, 5]
  compression.type: [none, zstd]
`

// TestRunTwoByTwo runs a 2×2 matrix on a real broker and checks the figures
// that must hold whatever the machine's speed.
func TestRunTwoByTwo(t *testing.T) {
	testtier.Shared(t)
	c := needCluster(t)
	exp, scs := planYAML(t, "lab-test.yaml", twoByTwo)
	dir := t.TempDir()
	var log bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := Run(ctx, exp, scs, Options{Dir: dir, Bootstrap: c.Bootstrap(), Log: &log}); err != nil {
		t.Fatalf("run: %v\n%s", err, log.String())
	}
	recs, err := results.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 {
		t.Fatalf("got %d results, want 4", len(recs))
	}
	disk := map[string]int64{}
	for _, r := range recs {
		if r.Status != results.StatusOK {
			t.Errorf("%s: status %s: %s", r.ScenarioID, r.Status, r.Error)
		}
		if r.Records.Sent != 20000 || r.Records.Acked != 20000 || r.Records.Failed != 0 {
			t.Errorf("%s: records %+v, want 20000 sent and acked", r.ScenarioID, r.Records)
		}
		if r.DiskBytes <= 0 {
			t.Errorf("%s: disk_bytes %d, want > 0", r.ScenarioID, r.DiskBytes)
		}
		if r.LatencyMs.P50 <= 0 || r.LatencyMs.P99 < r.LatencyMs.P50 || r.LatencyMs.Max < r.LatencyMs.P99 {
			t.Errorf("%s: implausible latency %+v", r.ScenarioID, r.LatencyMs)
		}
		if r.Throughput.RecordsPerS <= 0 || r.EffectiveConfig["linger.ms"] != fmt.Sprint(r.Scenario["linger.ms"]) {
			t.Errorf("%s: throughput %+v", r.ScenarioID, r.Throughput)
		}
		if r.Histogram == "" {
			t.Errorf("%s: no histogram", r.ScenarioID)
		}
		disk[r.ScenarioID] = r.DiskBytes
	}
	for _, l := range []string{"0", "5"} {
		none, zstd := disk["linger.ms="+l+",compression.type=none"], disk["linger.ms="+l+",compression.type=zstd"]
		if zstd >= none {
			t.Errorf("linger.ms=%s: zstd on disk %d, want smaller than none %d", l, zstd, none)
		}
	}
	// The lab renders nothing: the caller renders what it returns.
	if _, err := os.Stat(filepath.Join(dir, results.TableFile)); !os.IsNotExist(err) {
		t.Errorf("lab wrote %s (err %v); rendering is the caller's", results.TableFile, err)
	}
	for _, f := range []string{results.PlanFile, results.EnvironmentFile, results.ExperimentFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("run directory lacks %s: %v", f, err)
		}
	}
}

// TestRunRecordsFailure checks that a failing scenario is recorded with its
// reason and the run goes on to the next one.
func TestRunRecordsFailure(t *testing.T) {
	testtier.Shared(t)
	c := needCluster(t)
	// Replication factor 3 cannot be created on the one shared broker; the
	// check against brokers is per embedded cluster shape, so declare 3 brokers
	// but run against the 1-broker bootstrap.
	exp, scs := planYAML(t, "fail.yaml", `
name: fail-test
cluster: {brokers: 3}
topic: {partitions: 1, replication.factor: 3}
workload: {records: 1000, record.size: 100, payload: random}
client: franz-go
matrix:
  linger.ms: [0, 1]
`)
	dir := t.TempDir()
	_, err := Run(context.Background(), exp, scs, Options{Dir: dir, Bootstrap: c.Bootstrap()})
	if !errors.Is(err, ErrTrialsFailed) {
		t.Fatalf("err = %v, want ErrTrialsFailed", err)
	}
	recs, err := results.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("got %d records, want both scenarios recorded", len(recs))
	}
	for _, r := range recs {
		if r.Status != results.StatusFailed || !strings.Contains(r.Error, "create topic") {
			t.Errorf("%s: status %s error %q, want failed at topic creation", r.ScenarioID, r.Status, r.Error)
		}
	}
}
