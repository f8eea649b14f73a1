package report

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/golden"
	"github.com/prodlab/prodlab/internal/results"
)

// zonesRun is acks=1 and acks=all on three brokers in three zones, two
// trials each, leaders moving between trials, with the links' fetch round
// trips: the zone columns and the zone table.
func zonesRun(t *testing.T) []results.Record {
	rng := rand.New(rand.NewPCG(25, 3))
	var out []results.Record
	for trial := range 2 {
		for _, acks := range []string{"1", "all"} {
			p50 := map[string]float64{"1": 6, "all": 11}[acks]
			r := synth(t, rng, []string{"acks"}, []any{acks}, trial, 500, p50, 1)
			r.EffectiveConfig = map[string]string{"acks": acks}
			r.Zones = &results.Zones{
				Client:  "a",
				Brokers: map[int]string{1: "a", 2: "b", 3: "c"},
				Partitions: []results.ZonePartition{
					{Partition: 0, Leader: 1 + trial, Replicas: []int{1 + trial, 2 - trial, 3}},
				},
				RackSpread: 3,
				Links: []results.ZoneLink{
					{From: "b", To: "a", RTTMs: 5.1, Fetches: 300, FetchRTTMinMs: 5.2 + 0.1*float64(trial), FetchRTTp50Ms: 9.8, Bytes: 1e6},
					{From: "c", To: "a", RTTMs: 5.3, Fetches: 290, FetchRTTMinMs: 5.4, FetchRTTp50Ms: 10.2, Bytes: 1e6},
				},
				ReplicationMs: 5.4,
			}
			out = append(out, r)
		}
	}
	return out
}

// TestZonesTable: a run in zones gains ZONE RTT and ZONE SHARE (acks=all
// only: acks=1 does not wait for the link) and the zone table; a run
// without zones shows neither.
func TestZonesTable(t *testing.T) {
	var b strings.Builder
	if err := Render(&b, "table", zonesRun(t)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "zones-table.golden", []byte(b.String()))
	b.Reset()
	if err := Render(&b, "table", []results.Record{rec(5, "lz4", 1, 1)}); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); strings.Contains(s, "ZONE") || strings.Contains(s, "Zones") {
		t.Errorf("a run without zones shows zone figures:\n%s", s)
	}
}

// TestOutages: a lasting fault is a band from its event to the recovery
// that names its subject, on this host or through a fleet; a fault never
// recovered, or another broker's recovery, draws none.
func TestOutages(t *testing.T) {
	at := func(ms float64) *float64 { return &ms }
	for _, tc := range []struct {
		name   string
		events []results.Event
		want   []float64 // band edges, in s
	}{
		{"zone outage", []results.Event{{Kind: "zone.isolate", Detail: "zone b", TMs: at(2000)}, {Kind: "leader", Detail: "partition 1: leader broker 2 → broker 3", TMs: at(4500)}, {Kind: "recovered", Detail: "zone b after zone.isolate", TMs: at(7000)}}, []float64{2, 7}},
		{"two brokers killed", []results.Event{{Kind: "broker.kill", Detail: "broker 1", TMs: at(1000)}, {Kind: "broker.kill", Detail: "broker 2", TMs: at(1500)}, {Kind: "recovered", Detail: "broker 2 after broker.kill", TMs: at(3000)}, {Kind: "recovered", Detail: "broker 1 after broker.kill", TMs: at(4000)}}, []float64{1, 4, 1.5, 3}},
		{"pinned when back", []results.Event{{Kind: "broker.kill", Detail: "broker 1", TMs: at(1000)}, {Kind: "recovered", Detail: "broker 1 after broker.kill, on CPUs 0", TMs: at(2500)}}, []float64{1, 2.5}},
		{"through a fleet", []results.Event{{Kind: "broker.pause", Detail: "broker 3, by Trogdor's ProcessStopFault on agent a1", TMs: at(500)}, {Kind: "recovered", Detail: "broker 3 after broker.pause (Trogdor task done)", TMs: at(1500)}}, []float64{0.5, 1.5}},
		{"never recovered", []results.Event{{Kind: "broker.kill", Detail: "broker 1", TMs: at(1000)}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []float64
			for _, b := range outages(tc.events, "trial 0") {
				got = append(got, b.X0, b.X1)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("bands %v, want %v", got, tc.want)
			}
		})
	}
}
