package lab

import (
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/testjar"
	"github.com/prodlab/prodlab/internal/testtier"
)

// TestNetworkThroughProxies runs against an existing cluster (--bootstrap)
// behind delaying proxies: the proxies must rewrite metadata so that every
// produce request crosses them, and see the round trip they add.
func TestNetworkThroughProxies(t *testing.T) {
	testtier.Shared(t)
	recs, err := runYAML(t, `
name: rtt
workload: {records: 3000, record.size: 1000, payload: random}
client: franz-go
producer: {acks: all, linger.ms: 5, batch.size: 65536}
network: {rtt.ms: 40}
`, true)
	if err != nil {
		t.Fatal(err)
	}
	r := recs[0]
	n := r.Network
	if r.Records.Acked != 3000 {
		t.Errorf("acked %d, want 3000", r.Records.Acked)
	}
	if n["produce_requests"] < 1 || n["produce_requests"] != float64(r.ProduceRequests) {
		t.Errorf("proxies saw %v produce requests, client sent %d: traffic bypassed the proxies", n["produce_requests"], r.ProduceRequests)
	}
	// The proxy's round trip includes the broker's time, so only a floor.
	if n["rtt_p50_ms"] < 40*0.97-1 {
		t.Errorf("rtt p50 %.1f ms, want at least the configured 40 ms", n["rtt_p50_ms"])
	}
	if n["max_in_flight"] < 1 || n["max_in_flight"] > 5 {
		t.Errorf("max in flight %v, want 1..5 (idempotent franz-go)", n["max_in_flight"])
	}
	if n["model_mb_per_s"] <= 0 {
		t.Errorf("no pipe model: %v", n)
	}
}

// TestBrokerFaultsAudited pauses and kills the broker of an embedded
// cluster during a trial, with the Java client and with librdkafka: every
// fault is logged, every broker comes back, and the audit shows an
// idempotent producer lost and duplicated nothing.
func TestBrokerFaultsAudited(t *testing.T) {
	testtier.Quiet(t) // cluster.cpus: auto pins prodlab's own process: a test beside it would take its split
	recs, err := runYAML(t, `
name: faults
workload: {records: 16000, record.size: 200, payload: random, rate: 4000}
matrix: {client: [java, librdkafka]}
producer: {acks: all, enable.idempotence: true, linger.ms: 5}
faults:
  - {type: broker.pause, broker: 1, at.ms: 300, delay.ms: 700}
  - {type: broker.kill, at.ms: 1500, delay.ms: 500}
`, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want one per client", len(recs))
	}
	for _, r := range recs {
		t.Run(r.ScenarioID, func(t *testing.T) {
			checkAudit(t, r, 16000)
			checkIntended(t, r)
			checkCPUSets(t, r, true) // cluster.cpus: auto splits an embedded cluster's
			checkRepinned(t, r)
			kinds := eventKinds(r)
			for _, want := range []string{"broker.pause", "broker.kill", "recovered"} {
				if !strings.Contains(kinds, want) {
					t.Errorf("events %s lack %s", kinds, want)
				}
			}
			checkKillGap(t, r)
		})
	}
}

// checkRepinned: the broker broker.kill restarted runs on the brokers'
// CPUs of the trial, as the kernel reported them after the restart, not on
// the mask it inherited from prodlab.
func checkRepinned(t *testing.T, r results.Record) {
	t.Helper()
	sets, err := planCPUSets()
	if err != nil {
		return // one CPU: nothing was split
	}
	want := "after broker.kill, on CPUs " + cpuList(setIDs(&sets.brokers))
	for _, e := range r.Events {
		if e.Kind == "recovered" && strings.HasSuffix(e.Detail, want) {
			return
		}
	}
	t.Errorf("no recovered event ending %q: %+v", want, r.Events)
}

// checkKillGap: the timeline of a trial whose only broker was killed shows
// the gap — intervals after the kill with nothing acknowledged — and acks
// again after the broker is back; the kill is on the timeline's axis.
func checkKillGap(t *testing.T, r results.Record) {
	t.Helper()
	if r.Timeline == nil {
		t.Fatal("no timeline")
	}
	killAt := -1.0
	for _, e := range r.Events {
		if e.Kind == "broker.kill" && e.TMs != nil {
			killAt = *e.TMs
		}
	}
	if killAt < 0 {
		t.Fatalf("no broker.kill event on the timeline axis: %+v", r.Events)
	}
	gap, after := false, false
	for _, p := range r.Timeline.Points {
		switch {
		case p.TMs >= killAt && p.Acked == 0:
			gap = true
		case gap && p.Acked > 0:
			after = true
		}
	}
	if !gap || !after {
		t.Errorf("timeline around the kill at %.0f ms: gap %v, acks after it %v; points %+v", killAt, gap, after, r.Timeline.Points)
	}
}

// TestLeaderShutdownAndCutsAudited shuts the partition leader down cleanly
// and cuts the client's connections through the proxies, with the Java
// client and with librdkafka (idempotent: every record once, in order).
// A cut every 3 produce requests fires whatever the timing: 12,000
// records of 200 bytes need at least 3 requests of at most 1 MB. Every 7
// did not, beside two CPU hogs: librdkafka sent nothing before the
// shutdown at 500 ms, and the 12,000 records waiting for the broker went
// out in fewer than 7 requests.
func TestLeaderShutdownAndCutsAudited(t *testing.T) {
	testtier.Shared(t)
	testjar.LibrdkafkaWorker(t)
	recs, err := runYAML(t, `
name: shutdown
workload: {records: 12000, record.size: 200, payload: random, rate: 4000}
producer: {acks: all, enable.idempotence: true, linger.ms: 5}
faults:
  - {type: leader.shutdown, at.ms: 500, delay.ms: 300}
  - {type: connection.cut, every: 3}
matrix:
  client: [java, librdkafka]
`, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	for _, r := range recs {
		checkAudit(t, r, 12000)
		kinds := eventKinds(r)
		for _, want := range []string{"leader.shutdown", "cut", "recovered"} {
			if !strings.Contains(kinds, want) {
				t.Errorf("%s: events %s lack %s", r.ScenarioID, kinds, want)
			}
		}
	}
}

func checkAudit(t *testing.T, r results.Record, n int64) {
	t.Helper()
	if r.Status != results.StatusOK {
		t.Fatalf("status %s: %s", r.Status, r.Error)
	}
	a := r.Audit
	if a == nil {
		t.Fatal("no audit although the experiment has faults")
	}
	if a.Acked != n || a.Lost != 0 || a.Duplicates != 0 || a.Reordered != 0 || a.Phantom != 0 || a.Foreign != 0 {
		t.Errorf("audit %+v, want %d acked and nothing lost, duplicated or reordered", *a, n)
	}
}

func eventKinds(r results.Record) string {
	var ks []string
	for _, e := range r.Events {
		ks = append(ks, e.Kind)
	}
	return strings.Join(ks, ",")
}

// TestReplicationRTT delays only the traffic between two embedded brokers:
// with acks=all every acknowledgement waits for a follower's fetch, so the
// added replication round trip shows in the producer's latency.
func TestReplicationRTT(t *testing.T) {
	testtier.Quiet(t)
	recs, err := runYAML(t, `
name: replication-rtt
cluster: {brokers: 2}
topic: {partitions: 1, replication.factor: 2, configs: {min.insync.replicas: 2}}
workload: {records: 300, record.size: 100, payload: random, rate: 100}
client: franz-go
producer: {acks: all, linger.ms: 0}
matrix:
  replication.rtt.ms: [0, 100]
`, false)
	if err != nil {
		t.Fatal(err)
	}
	p50 := map[string]float64{}
	for _, r := range recs {
		if r.Status != results.StatusOK {
			t.Errorf("%s: %s", r.ScenarioID, r.Error)
		}
		p50[r.ScenarioID] = r.LatencyMs.P50
		checkIntended(t, r)
		if r.Network["replication_bytes"] <= 0 {
			t.Errorf("%s: replication bytes %v: replication bypassed its proxies", r.ScenarioID, r.Network["replication_bytes"])
		}
	}
	fast, slow := p50["replication.rtt.ms=0"], p50["replication.rtt.ms=100"]
	t.Logf("p50 latency: %.1f ms at replication rtt 0, %.1f ms at 100", fast, slow)
	if slow < 100*0.97-1 || slow < fast+50 {
		t.Errorf("p50 latency %.1f ms at replication rtt 100 ms vs %.1f ms at 0: the delay did not reach replication", slow, fast)
	}
}

// TestProxiedAndDirectInOneRun: on an external cluster, a scenario with
// network.proxy=false connects straight to the brokers while its neighbour
// goes through the proxies, so one interleaved run compares the two paths.
func TestProxiedAndDirectInOneRun(t *testing.T) {
	testtier.Shared(t)
	recs, err := runYAML(t, `
name: paths
workload: {records: 20000, record.size: 500, payload: random}
client: franz-go
audit: true
matrix:
  network.proxy: [true, false]
`, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		// franz-go recycles records and their header buffers: the audit
		// proves every record kept its own header.
		checkAudit(t, r, 20000)
		proxied := r.Scenario["network.proxy"] == "true"
		if got := r.Network["produce_requests"] > 0; got != proxied {
			t.Errorf("%s: proxies saw %v produce requests; want traffic through them: %v", r.ScenarioID, r.Network["produce_requests"], proxied)
		}
	}
}

// checkIntended: a rate-limited trial also measures from each record's
// intended send time, which is never later than its hand-off, so every
// percentile is at least the hand-off one (within the histogram's 0.1 %).
func checkIntended(t *testing.T, r results.Record) {
	t.Helper()
	in := r.LatencyIntendedMs
	if in == nil {
		t.Fatalf("%s: no latency_intended_ms in a rate-limited trial", r.ScenarioID)
	}
	if in.P50 < r.LatencyMs.P50*0.999 || in.P99 < r.LatencyMs.P99*0.999 || in.Max < r.LatencyMs.Max*0.999 {
		t.Errorf("%s: intended-time latency %+v below hand-off latency %+v", r.ScenarioID, *in, r.LatencyMs)
	}
}
