package results

import "math"

// Network is a record's "network" object, typed: what the client proxies
// observed (netem.Stats), the pipe model's prediction and the replication
// proxies' traffic. A figure that was not measured is NaN and is absent
// from the record. Record.Network keeps the map form, which is the
// contract; Map and NetworkFigures are the only conversions between the
// two, and figures below the only place the keys are written.
type Network struct {
	// ProduceRequests counts the produce requests clients sent.
	ProduceRequests float64
	// MaxInFlight is the most produce requests outstanding on one
	// connection; MeanInFlight the per-send mean.
	MaxInFlight, MeanInFlight float64
	// MeanRequestBytes is the mean produce frame size.
	MeanRequestBytes float64
	// RTTP50Ms and RTTP99Ms are produce round-trip quantiles as the client
	// sees them, emulated delay included.
	RTTP50Ms, RTTP99Ms float64
	// Connections counts client connections accepted.
	Connections float64
	// BytesUp and BytesDown count bytes delivered to brokers and clients.
	BytesUp, BytesDown float64
	// ModelMBPerS is the pipe model's throughput (min of bandwidth and
	// in-flight × request bytes / RTT, summed over the connections written
	// to), MB/s.
	ModelMBPerS float64
	// ReplicationBytes counts the bytes the replication proxies carried.
	ReplicationBytes float64
}

// figures pairs each results.jsonl key with its field.
func (n *Network) figures() []struct {
	key string
	v   *float64
} {
	return []struct {
		key string
		v   *float64
	}{
		{"produce_requests", &n.ProduceRequests},
		{"max_in_flight", &n.MaxInFlight},
		{"mean_in_flight", &n.MeanInFlight},
		{"mean_request_bytes", &n.MeanRequestBytes},
		{"rtt_p50_ms", &n.RTTP50Ms},
		{"rtt_p99_ms", &n.RTTP99Ms},
		{"connections", &n.Connections},
		{"bytes_up", &n.BytesUp},
		{"bytes_down", &n.BytesDown},
		{"model_mb_per_s", &n.ModelMBPerS},
		{"replication_bytes", &n.ReplicationBytes},
	}
}

// NoNetwork returns a Network with no figure measured (every one NaN).
func NoNetwork() Network {
	var n Network
	for _, f := range n.figures() {
		*f.v = math.NaN()
	}
	return n
}

// NetworkFigures reads a record's "network" map; keys it lacks are NaN.
func NetworkFigures(m map[string]float64) Network {
	n := NoNetwork()
	for _, f := range n.figures() {
		if v, ok := m[f.key]; ok {
			*f.v = v
		}
	}
	return n
}

// Map is the record form: the measured figures under their keys, nil when
// none was measured.
func (n Network) Map() map[string]float64 {
	var m map[string]float64
	for _, f := range n.figures() {
		if math.IsNaN(*f.v) {
			continue
		}
		if m == nil {
			m = map[string]float64{}
		}
		m[f.key] = *f.v
	}
	return m
}

// NetworkFigure is one figure of Network: its results.jsonl key and how to
// read it.
type NetworkFigure struct {
	Key string
	Of  func(Network) float64
}

// NetworkFigureList returns every figure, in the order of Network's fields.
func NetworkFigureList() []NetworkFigure {
	var n Network
	fs := n.figures()
	out := make([]NetworkFigure, len(fs))
	for i, f := range fs {
		i := i
		out[i] = NetworkFigure{Key: f.key, Of: func(n Network) float64 { return *n.figures()[i].v }}
	}
	return out
}
