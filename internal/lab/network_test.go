package lab

import (
	"maps"
	"slices"
	"testing"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/netem"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/testtier"
)

// TestProxyFigures: the proxies' figures land in results.jsonl under the
// keys readers know, and only theirs (no model, no replication).
func TestProxyFigures(t *testing.T) {
	n := results.NoNetwork()
	proxyFigures(&n, netem.Stats{ProduceRequests: 3, MaxInFlight: 2, RTTp50Ms: 20.5, Connections: 1, BytesUp: 10})
	m := n.Map()
	want := []string{"bytes_down", "bytes_up", "connections", "max_in_flight", "mean_in_flight", "mean_request_bytes", "produce_requests", "rtt_p50_ms", "rtt_p99_ms"}
	if got := slices.Sorted(maps.Keys(m)); !slices.Equal(got, want) {
		t.Errorf("keys %v, want %v", got, want)
	}
	if m["produce_requests"] != 3 || m["max_in_flight"] != 2 || m["rtt_p50_ms"] != 20.5 || m["bytes_up"] != 10 {
		t.Errorf("figures %v", m)
	}
}

// TestProxiedScenarios: a scenario goes through the proxies when it needs
// them or a planned comparison pairs it with one that does; the others go
// direct.
func TestProxiedScenarios(t *testing.T) {
	const matrix = `
matrix:
  enable.idempotence: [true, false]
  fault:
    - {label: none, network.cut.every: 0}
    - {label: cuts, network.cut.every: 40}
`
	tests := []struct {
		name    string
		compare string
		want    []string
	}{
		{"compared along idempotence: no-fault arms go direct", "compare: [{axis: enable.idempotence}]\n",
			[]string{"enable.idempotence=false,fault=cuts", "enable.idempotence=true,fault=cuts"}},
		{"compared along the fault: every arm through the proxies", "compare: [{axis: fault, baseline: none}]\n",
			[]string{"enable.idempotence=false,fault=cuts", "enable.idempotence=false,fault=none", "enable.idempotence=true,fault=cuts", "enable.idempotence=true,fault=none"}},
		{"no comparison: only the cut scenarios", "",
			[]string{"enable.idempotence=false,fault=cuts", "enable.idempotence=true,fault=cuts"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := proxiedScenarios(planCompared(t, "name: p\n"+matrix+tt.compare))
			var ids []string
			for id, ok := range got {
				if ok {
					ids = append(ids, id)
				}
			}
			slices.Sort(ids)
			if !slices.Equal(ids, tt.want) {
				t.Errorf("proxied %v, want %v", ids, tt.want)
			}
		})
	}
}

// TestUnimpairedScenarioGoesDirect runs a no-fault and a connection-cut
// scenario on one embedded cluster: the cut trial goes through the proxies
// (their figures are in its record), the no-fault one reaches the brokers'
// DIRECT listeners and has none.
func TestUnimpairedScenarioGoesDirect(t *testing.T) {
	testtier.Shared(t)
	recs, err := runYAML(t, `
name: direct
workload: {records: 3000, record.size: 100, payload: random}
client: franz-go
producer: {acks: all, linger.ms: 5}
matrix:
  fault:
    - {label: none, network.cut.every: 0}
    - {label: cuts, network.cut.every: 20}
`, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	for _, r := range recs {
		if r.Status != results.StatusOK {
			t.Fatalf("%s: %s %s", r.ScenarioID, r.Status, r.Error)
		}
		proxied := r.Network["produce_requests"] > 0
		if want := r.ScenarioID == "fault=cuts"; proxied != want {
			t.Errorf("%s: through the proxies %v (network %v), want %v", r.ScenarioID, proxied, r.Network, want)
		}
	}
}

// TestWorkerClasses: one client process per cluster and per kind of trial
// (faults or none), merged along the planned comparisons.
func TestWorkerClasses(t *testing.T) {
	const matrix = `
matrix:
  enable.idempotence: [true, false]
  layout:
    - {label: one, cluster.brokers: 1}
    - {label: three, cluster.brokers: 3}
  fault:
    - {label: none, network.cut.every: 0}
    - {label: cuts, network.cut.every: 40}
`
	tests := []struct {
		name    string
		compare string
		classes int
		shared  [][2]string // pairs of scenario IDs that must share a process
	}{
		{"along idempotence: per cluster and fault kind", "compare: [{axis: enable.idempotence}]\n", 4,
			[][2]string{{"enable.idempotence=true,layout=one,fault=none", "enable.idempotence=false,layout=one,fault=none"}}},
		{"along the fault: the kinds merge, clusters stay apart", "compare: [{axis: fault, baseline: none}]\n", 2,
			[][2]string{{"enable.idempotence=true,layout=one,fault=none", "enable.idempotence=true,layout=one,fault=cuts"}}},
		{"along the layout: the clusters merge, kinds stay apart", "compare: [{axis: layout, baseline: one}]\n", 2,
			[][2]string{{"enable.idempotence=true,layout=one,fault=cuts", "enable.idempotence=true,layout=three,fault=cuts"}}},
		{"no comparison", "", 4, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := workerClasses(planCompared(t, "name: w\n"+matrix+tt.compare))
			distinct := map[string]bool{}
			for _, c := range got {
				distinct[c] = true
			}
			if len(distinct) != tt.classes {
				t.Errorf("%d classes, want %d: %v", len(distinct), tt.classes, got)
			}
			for _, p := range tt.shared {
				if got[p[0]] == "" || got[p[0]] != got[p[1]] {
					t.Errorf("%s and %s in %q and %q, want one process", p[0], p[1], got[p[0]], got[p[1]])
				}
			}
		})
	}
}

// planCompared plans an experiment's scenarios and its comparisons.
func planCompared(t *testing.T, src string) ([]expfile.Scenario, []expfile.Comparison) {
	t.Helper()
	exp, scs := planYAML(t, "x.yaml", src)
	cmps, err := exp.Comparisons(scs)
	if err != nil {
		t.Fatal(err)
	}
	return scs, cmps
}
