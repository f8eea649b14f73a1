package report

import (
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
