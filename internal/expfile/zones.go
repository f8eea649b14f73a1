package expfile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// MaxZones bounds cluster.zones: three availability zones, as in most
// cloud regions (and the embedded cluster's limit).
const MaxZones = 3

// ZoneNames are the names of n zones: a, b, c. They are the brokers'
// racks, client.zone's and zone faults' values.
func ZoneNames(n int) []string {
	out := make([]string, 0, n)
	for i := range min(max(n, 1), MaxZones) {
		out = append(out, string(rune('a'+i)))
	}
	return out
}

// zoneFields are the zone settings: how many zones, the link between
// them, and where the client runs.
var zoneFields = []field{
	intField("cluster.zones", 1, MaxZones, func(e *Experiment) *int { return &e.Cluster.Zones }),
	delayField("network.zones.rtt.ms", func(e *Experiment) *float64 { return &e.Network.Zones.RTTMs }),
	delayField("network.zones.jitter.ms", func(e *Experiment) *float64 { return &e.Network.Zones.JitterMs }),
	bandwidthField("network.zones.bandwidth", func(e *Experiment) *float64 { return &e.Network.Zones.BandwidthMbit }),
	stringField("client.zone", checkZoneName("client.zone"), func(e *Experiment) *string { return &e.ClientZone }),
	stringField("topic.leader.zone", checkZoneName("topic.leader.zone"), func(e *Experiment) *string { return &e.Topic.LeaderZone }),
}

// checkZoneName accepts a zone name of ZoneNames(MaxZones); whether the
// cluster has that zone is checkZones' question.
func checkZoneName(key string) func(raw, dir string) (string, error) {
	all := ZoneNames(MaxZones)
	return func(raw, _ string) (string, error) {
		v := strings.ToLower(strings.TrimSpace(raw))
		if slices.Contains(all, v) {
			return v, nil
		}
		return "", fmt.Errorf("%s must be a zone name, one of %s, got %q", key, strings.Join(all, ", "), raw)
	}
}

// HasZones reports whether the cluster spreads over more than one zone.
func (c Cluster) HasZones() bool { return c.Zones > 1 }

// ClientZoneName is the zone the client runs in: client.zone, or the
// first zone.
func (e *Experiment) ClientZoneName() string {
	if e.ClientZone != "" {
		return e.ClientZone
	}
	return ZoneNames(1)[0]
}

// checkZones reports zone settings that contradict the cluster: more zones
// than brokers, a client in a zone the cluster lacks, and links too slow
// for one batch (zoneFaultError judges zone faults).
func checkZones(e *Experiment, report reportFunc) {
	zones := ZoneNames(e.Cluster.Zones)
	if e.Cluster.Zones > e.Cluster.Brokers {
		report([]string{"cluster.zones", "cluster.brokers"},
			"cluster.zones %d exceeds brokers %d: every zone needs a broker", e.Cluster.Zones, e.Cluster.Brokers)
	}
	if z := e.ClientZone; z != "" && !slices.Contains(zones, z) {
		report([]string{"client.zone", "cluster.zones"},
			"client.zone %q is not a zone of this cluster (cluster.zones %d: %s)", z, e.Cluster.Zones, strings.Join(zones, ", "))
	}
	if z := e.Topic.LeaderZone; z != "" && !e.Cluster.HasZones() {
		report([]string{"topic.leader.zone", "cluster.zones"},
			"topic.leader.zone needs a cluster in zones (cluster.zones 2 or 3): with one zone Kafka's placement is all there is")
	} else if z != "" && !slices.Contains(zones, z) {
		report([]string{"topic.leader.zone", "cluster.zones"},
			"topic.leader.zone %q is not a zone of this cluster (cluster.zones %d: %s)", z, e.Cluster.Zones, strings.Join(zones, ", "))
	}
	checkBatchFits(e, "network.bandwidth", e.Network.BandwidthMbit, report)
	if e.Cluster.HasZones() {
		checkBatchFits(e, "network.zones.bandwidth", e.Network.Zones.BandwidthMbit, report)
	}
}

// checkBatchFits refuses a bandwidth (Mbit/s, 0 unlimited) that cannot
// carry one batch of batch.size (as set, else 16 KiB, the smallest client
// default) within the producer's request.timeout.ms (else 30 s): every
// request would time out.
func checkBatchFits(e *Experiment, key string, mbit float64, report reportFunc) {
	if mbit <= 0 {
		return
	}
	batch := e.Settings().BatchSize.Or(kafkaconf.JavaDefaults("").BatchSize)
	timeoutMs := 30_000.0
	if t := e.Settings().RequestTimeoutMs; t.Set && t.V > 0 {
		timeoutMs = float64(t.V)
	}
	needMs := float64(batch) * 8 / (mbit * 1e6) * 1000
	if needMs > timeoutMs {
		report([]string{key, "producer.batch.size"},
			"%s %g Mbit/s cannot carry one batch of %d bytes within request.timeout.ms %g (it takes %.0f ms): every request would time out; raise the bandwidth to at least %.3g Mbit/s",
			key, mbit, batch, timeoutMs, needMs, float64(batch)*8/(timeoutMs/1000)/1e6)
	}
}

// withZones adds the zone settings to doc when they are set, so that files
// without zones keep writing what they wrote before.
func withZones(doc yaml.MapSlice, e *Experiment) yaml.MapSlice {
	for i, item := range doc {
		sec, ok := item.Value.(yaml.MapSlice)
		switch {
		case !ok:
		case item.Key == "cluster" && e.Cluster.HasZones():
			sec = append(sec, yaml.MapItem{Key: "zones", Value: e.Cluster.Zones})
			doc[i].Value = sec
		case item.Key == "network" && e.Network.Zones != (ZoneLink{}):
			sec = append(sec, yaml.MapItem{Key: "zones", Value: yaml.MapSlice{
				{Key: "rtt.ms", Value: number(e.Network.Zones.RTTMs)},
				{Key: "jitter.ms", Value: number(e.Network.Zones.JitterMs)},
				{Key: "bandwidth", Value: number(e.Network.Zones.BandwidthMbit)},
			}})
			doc[i].Value = sec
		}
	}
	if e.ClientZone != "" {
		doc = append(doc, yaml.MapItem{Key: "client.zone", Value: e.ClientZone})
	}
	if z := e.Topic.LeaderZone; z != "" {
		for i, item := range doc {
			if sec, ok := item.Value.(yaml.MapSlice); ok && item.Key == "topic" {
				sec = append(sec, yaml.MapItem{Key: "leader.zone", Value: z})
				doc[i].Value = sec
			}
		}
	}
	return doc
}

// zoneFaultError is why fault f cannot run on e's cluster ("" when it
// can): a zone outage needs zones, and a zone the cluster has.
func zoneFaultError(e *Experiment, f Fault) string {
	if f.Type != FaultZoneIsolate {
		return ""
	}
	zones := ZoneNames(e.Cluster.Zones)
	switch {
	case !e.Cluster.HasZones():
		return fmt.Sprintf("fault %s needs a cluster in zones (cluster.zones 2 or 3): with one zone there is nothing to isolate it from", FaultZoneIsolate)
	case !slices.Contains(zones, f.Zone):
		return fmt.Sprintf("fault %s zone %q is not a zone of this cluster (cluster.zones %d: %s)", FaultZoneIsolate, f.Zone, e.Cluster.Zones, strings.Join(zones, ", "))
	}
	return ""
}
