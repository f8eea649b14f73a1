package lab

import (
	"math"

	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/spec"
)

// pipeBound is the pipe model's upper bound on a candidate's rate in
// records/s, before any probe: behind an emulated round trip (network.rtt.ms)
// each connection carries at most max.in.flight.requests.per.connection
// requests per round trip, each at most one batch.size batch per partition
// (and at most max.request.size), so the rate cannot pass in flight ×
// request bytes ÷ round trip ÷ record bytes, summed over the connections
// (one per broker that leads a partition). NaN where the model does not
// bound the rate: no emulated round trip, or compressed batches (batch.size
// then bounds compressed bytes, and a batch holds more records than its
// size in records).
func pipeBound(sc spec.Scenario) float64 {
	e := sc.Exp
	rtt := e.Network.RTTMs / 1000
	if rtt <= 0 || e.Workload.RecordSize <= 0 {
		return math.NaN()
	}
	cl, err := clients.Parse(e.Client)
	if err != nil || cl.Kind.Defaults == nil {
		return math.NaN()
	}
	prod, _ := kafkaconf.Parse(e.Producer)
	if prod.Acks.Set && prod.Acks.V == "0" { // no response to wait for: a slot frees when the request is sent
		return math.NaN()
	}
	codec := prod.CompressionType.Or("")
	if codec != "none" && (codec != "" || cl.Kind.Name != clients.Java) { // franz-go's own default compresses
		return math.NaN()
	}
	def := cl.Kind.Defaults(cl.Version)
	inFlight := float64(prod.MaxInFlight.Or(def.MaxInFlight))
	parts := max(e.Topic.Partitions, 1)
	conns := min(max(e.Cluster.Brokers, 1), parts)
	request := float64(prod.BatchSize.Or(def.BatchSize)) * float64(parts)
	if limit := prod.MaxRequestSize.Or(def.MaxRequestSize); limit > 0 {
		request = math.Min(request, float64(limit)*float64(conns))
	}
	// Each producer instance has connections and in-flight slots of its own.
	return float64(max(e.Workload.Producers, 1)) * inFlight * request / rtt / float64(e.Workload.RecordSize)
}
