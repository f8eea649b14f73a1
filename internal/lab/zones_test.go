package lab

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/netem"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/testjar"
	"github.com/prodlab/prodlab/internal/testtier"
)

// TestZoneOutage runs a cluster in three zones, 2 ms apart, and cuts zone
// b off for 5 s under acks=all with idempotence (the controllers fence a
// silent broker after 2 s and elect a new quorum leader after 1 s, so
// the outage moves leaders even when zone b held the active controller): the brokers' own
// metadata puts every partition's replicas in three racks, the links
// between zones carry the fetches at no less than their round trip, the
// isolated broker's partition moves to another zone (the outage took
// effect), and the audit finds nothing lost or duplicated.
func TestZoneOutage(t *testing.T) {
	testtier.Quiet(t)
	testjar.LibrdkafkaWorker(t)
	recs, err := runYAML(t, `
name: zone-outage
cluster:
  brokers: 3
  zones: 3
  configs: {broker.heartbeat.interval.ms: 500, broker.session.timeout.ms: 2000, controller.quorum.fetch.timeout.ms: 1000}
topic: {partitions: 3, replication.factor: 3, configs: {min.insync.replicas: 2}}
network: {zones: {rtt.ms: 2}}
workload: {rate: 1000, duration.s: 8, record.size: 200, payload: random}
producer: {acks: all, enable.idempotence: true, linger.ms: 5}
faults: [{type: zone.isolate, zone: b, at.ms: 2500, delay.ms: 5000}]
matrix:
  client: [franz-go, librdkafka]
`, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	for _, r := range recs {
		t.Run(r.ScenarioID, func(t *testing.T) { checkZoneOutage(t, r) })
	}
}

// checkZoneOutage checks one client's record of TestZoneOutage.
func checkZoneOutage(t *testing.T, r results.Record) {
	if r.Status != results.StatusOK {
		t.Fatalf("status %s: %s", r.Status, r.Error)
	}
	z := r.Zones
	if z == nil {
		t.Fatal("no zones in the record")
	}
	if z.RackSpread != 3 || z.Brokers[1] != "a" || z.Brokers[2] != "b" || z.Brokers[3] != "c" || z.Client != "a" {
		t.Errorf("layout %+v: want brokers 1, 2, 3 in zones a, b, c, the client in a, replicas in 3 racks", z)
	}
	cross := 0
	for _, l := range z.Links {
		if l.From != l.To {
			cross++
			// The applied round trip includes the proxy's timer waking
			// late, by as much as the machine's load makes it (4.4 ms of
			// 2 once, three brokers and the client on 2 cores), so only
			// the floor is a measurement: a delay line is never early.
			// 200 ms still catches the wrong unit (2 s); the delay asked
			// of each link, once, is TestZoneLinkConfig's.
			if l.FetchRTTMinMs < 2 || l.RTTMs < 2 || l.RTTMs > 200 {
				t.Errorf("link %s→%s: applied round trip %.3f ms, least fetch %.3f ms: want at least 2 ms (and under 200)", l.From, l.To, l.RTTMs, l.FetchRTTMinMs)
			}
		}
	}
	if cross == 0 || z.ReplicationMs < 2 {
		t.Errorf("links %+v, replication %.3f ms: no fetch crossed zones", z.Links, z.ReplicationMs)
	}
	kinds := eventKinds(r)
	if !strings.Contains(kinds, "zone.isolate") || !strings.Contains(kinds, "recovered") || !strings.Contains(kinds, "leader") {
		t.Errorf("events %s: want the outage, a leader move away from zone b and the healing", kinds)
	}
	for _, e := range r.Events {
		if e.Kind == "leader" && !strings.Contains(e.Detail, "broker 2 →") && !strings.Contains(e.Detail, "→ broker 2") && !strings.Contains(e.Detail, "none") {
			t.Errorf("leader move %q does not involve zone b's broker 2", e.Detail)
		}
	}
	if a := r.Audit; a == nil || a.Lost != 0 || a.Duplicates != 0 || a.Acked == 0 {
		t.Errorf("audit %+v: want every acknowledged record once", a)
	}
}

// TestZonePlacement: every preferred leader in the leader zone, the other
// replicas in distinct other zones first, nobody twice, load rotated.
// TestZoneLinkConfig: each path that crosses zones gets network.zones'
// round trip once, beside what the run adds (replication.rtt.ms, the
// client's own network); a path within a zone gets none of it. The
// measured side (floors only) is TestZoneOutage's.
func TestZoneLinkConfig(t *testing.T) {
	var e expfile.Experiment
	e.Cluster.Zones = 3
	e.Network.Zones = expfile.ZoneLink{RTTMs: 2, JitterMs: 0.5, BandwidthMbit: 100}
	e.Network.ReplicationRTTMs = 10
	zoneOf := func(id int) string { return string(rune('a' + id - 1)) }
	cases := []struct {
		name string
		got  netem.Config
		want netem.Config
	}{
		// a link inside one zone carries only what the run adds to every fetch
		{"replication within a zone", linkConfig(e, "a", "a", 10*time.Millisecond), netem.Config{RTT: 10 * time.Millisecond}},
		// a link across zones adds the zones' round trip once, with its jitter and bandwidth
		{"replication across zones", linkConfig(e, "a", "b", 10*time.Millisecond), netem.Config{RTT: 12 * time.Millisecond, Jitter: 500 * time.Microsecond, Bandwidth: 100}},
		{"controller across zones", linkConfig(e, "a", "c", 0), netem.Config{RTT: 2 * time.Millisecond, Jitter: 500 * time.Microsecond, Bandwidth: 100}},
		// the client (zone a) to a broker in zone a: the scenario's own network only
		{"client within its zone", clientConfig(e, netem.Config{RTT: 5 * time.Millisecond}, zoneOf)(1), netem.Config{RTT: 5 * time.Millisecond}},
		// to zone b: the zones' round trip added once, the narrower bandwidth kept
		{"client across zones", clientConfig(e, netem.Config{RTT: 5 * time.Millisecond, Bandwidth: 50}, zoneOf)(2), netem.Config{RTT: 7 * time.Millisecond, Jitter: 500 * time.Microsecond, Bandwidth: 50}},
	}
	for _, tc := range cases {
		if tc.got.RTT != tc.want.RTT || tc.got.Jitter != tc.want.Jitter || tc.got.Bandwidth != tc.want.Bandwidth {
			t.Errorf("%s: %+v, want %+v", tc.name, tc.got, tc.want)
		}
	}
}

func TestZonePlacement(t *testing.T) {
	zoneOf := func(id int) string { return string(rune('a' + (id-1)%3)) }
	for _, tc := range []struct {
		name           string
		brokers        []int
		zone           string
		partitions, rf int
		want           [][]int
	}{
		{"3 zones RF 3, leaders in a", []int{1, 2, 3}, "a", 2, 3, [][]int{{1, 2, 3}, {1, 2, 3}}},
		{"3 zones RF 2, leaders in b", []int{1, 2, 3}, "b", 1, 2, [][]int{{2, 3}}},
		{"6 brokers RF 3, leaders in c rotate", []int{1, 2, 3, 4, 5, 6}, "c", 2, 3, [][]int{{3, 1, 2}, {6, 4, 5}}},
		{"6 brokers RF 4 fills from the rest", []int{1, 2, 3, 4, 5, 6}, "a", 1, 4, [][]int{{1, 2, 3, 4}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := zonePlacement(tc.brokers, zoneOf, tc.zone, tc.partitions, tc.rf)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("placement %v, want %v", got, tc.want)
			}
		})
	}
	if _, err := zonePlacement([]int{1, 2}, zoneOf, "c", 1, 1); err == nil {
		t.Error("a leader zone without brokers was placed")
	}
}
