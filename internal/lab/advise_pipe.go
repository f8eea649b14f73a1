package lab

import (
	"math"

	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/model"
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
func pipeBound(sc expfile.Scenario) float64 {
	e := sc.Exp
	if e.Network.RTTMs <= 0 || e.Workload.RecordSize <= 0 {
		return math.NaN()
	}
	cl, err := clients.Parse(e.Client)
	if err != nil || cl.Kind.Defaults == nil {
		return math.NaN()
	}
	prod := e.Settings()
	if prod.Acks.Set && prod.Acks.V == "0" { // no response to wait for: a slot frees when the request is sent
		return math.NaN()
	}
	def := cl.Kind.Defaults(cl.Version)
	if prod.CompressionType.Or(def.CompressionType) != "none" { // franz-go's own default compresses
		return math.NaN()
	}
	idempotent := prod.Idempotent(cl.Kind.IdempotentByDefault)
	parts := max(e.Topic.Partitions, 1)
	conns := min(max(e.Cluster.Brokers, 1), parts)
	batch := float64(prod.BatchSize.Or(def.BatchSize))
	if n := prod.BatchNumMessages; n.Set { // librdkafka also bounds a batch in records
		batch = math.Min(batch, float64(n.V)*float64(e.Workload.RecordSize))
	}
	request := batch * float64(parts) / float64(conns) // each connection's request
	if limit := prod.MaxRequestSize.Or(def.MaxRequestSize); limit > 0 {
		request = math.Min(request, float64(limit))
	}
	// The one pipe model (model.Pipe) per connection; each producer
	// instance has connections and in-flight slots of its own.
	mbps := model.Pipe{}.MBPerS(model.Path{RTTMs: e.Network.RTTMs, BandwidthMbit: e.Network.BandwidthMbit,
		InFlight: def.InFlight(prod, idempotent), MeanRequestBytes: request})
	return float64(max(e.Workload.Producers, 1)) * float64(conns) * mbps * (1 << 20) / float64(e.Workload.RecordSize)
}
