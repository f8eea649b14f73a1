package results

import (
	"maps"
	"math"
	"testing"
)

// TestNetworkRoundTrip: the typed figures and the record's map convert
// both ways, an unmeasured figure stays out of the map, and every figure
// has its own key.
func TestNetworkRoundTrip(t *testing.T) {
	m := map[string]float64{"max_in_flight": 5, "rtt_p50_ms": 20.5, "replication_bytes": 1e6}
	n := NetworkFigures(m)
	if n.MaxInFlight != 5 || n.RTTP50Ms != 20.5 || n.ReplicationBytes != 1e6 || !math.IsNaN(n.ModelMBPerS) {
		t.Errorf("NetworkFigures = %+v", n)
	}
	if back := n.Map(); !maps.Equal(back, m) {
		t.Errorf("Map = %v, want %v", back, m)
	}
	if NoNetwork().Map() != nil {
		t.Error("nothing measured, yet a map")
	}
	keys := map[string]bool{}
	for _, f := range NetworkFigureList() {
		if keys[f.Key] {
			t.Errorf("key %s twice", f.Key)
		}
		keys[f.Key] = true
		if f.Of(n) != n.Map()[f.Key] && !math.IsNaN(f.Of(n)) {
			t.Errorf("%s: Of = %v, map %v", f.Key, f.Of(n), n.Map()[f.Key])
		}
	}
}
