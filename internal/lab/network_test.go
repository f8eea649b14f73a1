package lab

import (
	"maps"
	"slices"
	"testing"

	"github.com/prodlab/prodlab/internal/netem"
	"github.com/prodlab/prodlab/internal/results"
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
