// Package model predicts what a network path allows a producer, so a
// measured figure can be shown beside what the pipe would give. The pipe
// model is the one implementation today; a calibrated model can replace it
// behind Model.
package model

import "math"

// Path is what a prediction knows of one pipelined producer connection.
type Path struct {
	// RTTMs is the round trip, BandwidthMbit the link's rate (0: none).
	RTTMs, BandwidthMbit float64
	// InFlight is max.in.flight.requests.per.connection as the client used
	// it; MeanRequestBytes the mean produce request the proxies saw.
	InFlight         int
	MeanRequestBytes float64
}

// Model predicts a connection's throughput in MB/s (2^20 bytes), NaN when
// it cannot.
type Model interface {
	MBPerS(p Path) float64
}

// Pipe is the pipe model: min(bandwidth, in-flight × mean request bytes /
// RTT). It cannot predict without a round trip, a request size and at
// least one request in flight.
type Pipe struct{}

// MBPerS implements Model.
func (Pipe) MBPerS(p Path) float64 {
	rtt := p.RTTMs / 1000
	if rtt <= 0 || p.MeanRequestBytes <= 0 || p.InFlight <= 0 {
		return math.NaN()
	}
	m := float64(p.InFlight) * p.MeanRequestBytes / rtt / (1 << 20)
	if bw := p.BandwidthMbit; bw > 0 {
		m = math.Min(m, bw*1e6/8/(1<<20))
	}
	return m
}
