package summary

import (
	"math"

	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/results"
)

// zoneReplicationMs is a trial's results.Zones.ReplicationMs: the round
// trip the proxies applied on the slowest link between zones; NaN without
// zones or without fetches across them.
func zoneReplicationMs(r *results.Record) float64 {
	if r.Zones == nil || r.Zones.ReplicationMs <= 0 {
		return math.NaN()
	}
	return r.Zones.ReplicationMs
}

// zoneShare is how much of an acks=all trial's p50 (hand-off to ack) the
// replication link explains at least: its round trip over the p50. NaN
// for other acks, where the leader answers before any follower fetches,
// and without zones.
func zoneShare(r *results.Record) float64 {
	rtt := zoneReplicationMs(r)
	if math.IsNaN(rtt) || r.LatencyMs.P50 <= 0 || !kafkaconf.Effective(r.EffectiveConfig).AcksAll() {
		return math.NaN()
	}
	return rtt / r.LatencyMs.P50
}
