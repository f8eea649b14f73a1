package model

import (
	"math"
	"testing"
)

// TestPipe predicts in-flight × request / RTT, capped by the bandwidth,
// and nothing without a round trip, a request size or a request in flight.
func TestPipe(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		name string
		p    Path
		want float64 // NaN: no prediction
	}{
		{"5 in flight, 1 MiB, 100 ms", Path{RTTMs: 100, InFlight: 5, MeanRequestBytes: mb}, 50},
		{"capped by 80 Mbit/s", Path{RTTMs: 100, InFlight: 5, MeanRequestBytes: mb, BandwidthMbit: 80}, 80e6 / 8 / mb},
		{"no round trip", Path{InFlight: 5, MeanRequestBytes: mb}, math.NaN()},
		{"no requests seen", Path{RTTMs: 100, InFlight: 5}, math.NaN()},
		{"in flight unknown", Path{RTTMs: 100, MeanRequestBytes: mb}, math.NaN()},
	}
	var m Model = Pipe{}
	for _, tt := range tests {
		got := m.MBPerS(tt.p)
		if math.IsNaN(tt.want) != math.IsNaN(got) || (!math.IsNaN(got) && math.Abs(got-tt.want) > 1e-9) {
			t.Errorf("%s: %g MB/s, want %g", tt.name, got, tt.want)
		}
	}
}
