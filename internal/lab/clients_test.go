package lab

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/testjar"
	"github.com/prodlab/prodlab/internal/testtier"
)

// runYAML plans and runs an experiment against the shared broker (or an
// embedded cluster of its own when bootstrap is false) and returns its
// records and the run's error.
func runYAML(t *testing.T, src string, bootstrap bool) ([]results.Record, error) {
	t.Helper()
	c := needCluster(t)
	exp, scs := planYAML(t, t.Name()+".yaml", src)
	dir := t.TempDir()
	opts := Options{Dir: dir, WorkerJar: workerJarForTest(t)}
	if bootstrap {
		opts.Bootstrap = c.Bootstrap()
	}
	var log strings.Builder
	opts.Log = &log
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	_, runErr := Run(ctx, exp, scs, opts)
	recs, err := results.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("run log:\n%s", log.String())
	return recs, runErr
}

// TestEveryClientComparable runs the same small audited experiment with
// every client kind (the official Java client, franz-go and librdkafka):
// each must deliver every record once, with latency, a timeline and CPU
// per MB, and write logs of the same size.
func TestEveryClientComparable(t *testing.T) {
	testtier.Shared(t)
	testjar.LibrdkafkaWorker(t)
	recs, err := runYAML(t, `
name: clients
topic: {partitions: 2}
workload: {records: 20000, record.size: 512, payload: random}
timeline: {interval.ms: 250}
producer: {acks: all, linger.ms: 5, batch.size: 65536, compression.type: none}
audit: true
warmup: 1
matrix:
  client: [java, franz-go, librdkafka]
`, true)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]results.Record{}
	for _, r := range recs {
		if r.Warmup {
			continue
		}
		by[r.Scenario["client"].(string)] = r
		checkCPUSets(t, r, false) // cluster.cpus: auto leaves an existing cluster's alone
		if r.Status != results.StatusOK || r.Records.Acked != 20000 {
			t.Errorf("%s: status %s, %+v", r.ScenarioID, r.Status, r.Records)
		}
		checkAudit(t, r, 20000)
		if r.LatencyMs.P50 <= 0 || r.Throughput.RecordsPerS <= 0 || r.DiskBytes <= 0 || r.ProduceRequests <= 0 {
			t.Errorf("%s: implausible figures: latency %+v, %.0f msg/s, disk %d, requests %d",
				r.ScenarioID, r.LatencyMs, r.Throughput.RecordsPerS, r.DiskBytes, r.ProduceRequests)
		}
		if r.Timeline == nil || len(r.Timeline.Points) == 0 {
			t.Errorf("%s: no timeline", r.ScenarioID)
		}
		if r.CPU == nil || r.CPU.ClientMsPerMB <= 0 {
			t.Errorf("%s: no client CPU per MB: %+v", r.ScenarioID, r.CPU)
		}
	}
	j, f, l := by["java"], by["franz-go"], by["librdkafka"]
	if !strings.HasPrefix(j.Client, "kafka-clients ") || !strings.HasPrefix(f.Client, "franz-go ") || !strings.HasPrefix(l.Client, "librdkafka 2.") {
		t.Errorf("clients = %q, %q, %q", j.Client, f.Client, l.Client)
	}
	for _, o := range []results.Record{f, l} {
		// Same records, no compression: the logs differ only by batch overhead.
		if ratio := float64(j.DiskBytes) / float64(o.DiskBytes); ratio < 0.9 || ratio > 1.1 {
			t.Errorf("disk java %d vs %s %d: ratio %.2f, want within 10%%", j.DiskBytes, o.Client, o.DiskBytes, ratio)
		}
		// Their throughputs are the machine's to decide (a cold C1 JVM
		// beside CPU hogs): the clients' rates are the benchmarks'
		// (bench/RESULTS.md, clients-capacity).
	}
	// Each client's own read-back of the setting, in its own words:
	// librdkafka's canonical name for linger.ms is queue.buffering.max.ms.
	if j.EffectiveConfig["linger.ms"] != "5" || f.EffectiveConfig["linger.ms"] != "5" || l.EffectiveConfig["queue.buffering.max.ms"] != "5" {
		t.Errorf("effective linger java %q franz-go %q librdkafka %q, want 5", j.EffectiveConfig["linger.ms"], f.EffectiveConfig["linger.ms"], l.EffectiveConfig["queue.buffering.max.ms"])
	}
}

// TestJavaRejectionIsAFailedScenario: the Java client rejects idempotence
// with acks=1; that scenario is recorded as failed in the client's own
// words and the rest of the matrix runs.
func TestJavaRejectionIsAFailedScenario(t *testing.T) {
	testtier.Shared(t)
	recs, err := runYAML(t, `
name: rejected
workload: {records: 2000, record.size: 200, payload: random}
client: java
producer: {enable.idempotence: true}
matrix:
  acks: ["1", all]
`, true)
	if !errors.Is(err, ErrTrialsFailed) {
		t.Fatalf("err = %v, want ErrTrialsFailed", err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	bad, good := recs[0], recs[1]
	if bad.Status != results.StatusFailed || !strings.Contains(bad.Error, "acks") || !strings.Contains(bad.Error, "hint") {
		t.Errorf("acks=1: status %s error %q, want failed with the client's message and a hint", bad.Status, bad.Error)
	}
	if good.Status != results.StatusOK || good.Records.Acked != 2000 {
		t.Errorf("acks=all: status %s %+v, want ok", good.Status, good.Records)
	}
}

// TestJavaTransactions: with transactional.id the worker commits every
// transaction.duration.ms; the commits are counted and every record of the
// committed transactions is in the topic exactly once.
func TestJavaTransactions(t *testing.T) {
	testtier.Shared(t)
	recs, err := runYAML(t, `
name: txn
workload: {records: 3000, record.size: 200, payload: random, rate: 3000}
client: java
producer: {acks: all, transactional.id: prodlab-test-txn, transaction.duration.ms: 200}
audit: true
`, true)
	if err != nil {
		t.Fatal(err)
	}
	r := recs[0]
	if n := r.ClientMetrics["transactions-committed"]; n < 3 {
		t.Errorf("transactions-committed = %v, want several commits in ~1 s at 200 ms", n)
	}
	if r.ClientMetrics["transactions-aborted"] != 0 {
		t.Errorf("transactions-aborted = %v", r.ClientMetrics["transactions-aborted"])
	}
	// Transaction markers are not records: the audit must not count them.
	checkAudit(t, r, 3000)
}

// TestTransactionalProducers: three transactional producers in one trial,
// with the Java client and with franz-go, each with its own
// transactional.id (the user's, the trial's topic, p<i>): none fences
// another, every record is acknowledged and in the topic exactly once.
// With one id shared, each producer's initTransactions would abort the
// others' open transactions.
func TestTransactionalProducers(t *testing.T) {
	testtier.Shared(t)
	recs, err := runYAML(t, `
name: txn-producers
topic: {partitions: 3}
workload: {records: 3000, record.size: 200, payload: random, rate: 3000, producers: 3}
producer: {acks: all, transactional.id: prodlab-test-txn, transaction.duration.ms: 200}
audit: true
matrix: {client: [java, franz-go]}
`, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want one per client", len(recs))
	}
	for _, r := range recs {
		t.Run(r.ScenarioID, func(t *testing.T) {
			if r.Status != results.StatusOK || len(r.Producers) != 3 {
				t.Fatalf("status %s, %d producers: %s", r.Status, len(r.Producers), r.Error)
			}
			id := r.EffectiveConfig["transactional.id"]
			if !strings.HasPrefix(id, "prodlab-test-txn-") {
				t.Errorf("effective transactional.id %q, want the user's id as its prefix", id)
			}
			checkAudit(t, r, 3000)
		})
	}
}
