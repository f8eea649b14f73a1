package lab

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/netem"
	"github.com/prodlab/prodlab/internal/results"
)

// Zones. An embedded cluster in zones (cluster.zones) has its nodes spread
// over zones a, b, c with broker.rack set, and every path between nodes in
// its own proxy: for each source zone, one proxy per broker on the
// inter-broker listener that zone's followers fetch through, and one per
// controller for that zone's nodes. A path that crosses zones gets
// network.zones; every inter-broker path gets network.replication.rtt.ms
// too (a cluster without zones has only those proxies, under source zone
// ""). The client's proxies add network.zones towards brokers of other
// zones than client.zone. zone.isolate holds every proxy whose path
// crosses one zone's border.

// zoneLinks are the proxies on the paths between nodes.
type zoneLinks struct {
	zones []string              // the cluster's zones; [""] without zones
	repl  map[string]*netem.Set // source zone → a proxy per broker
	ctl   map[string]*netem.Set // source zone → a proxy per controller (zones only)
	zone  func(id int) string   // a node's zone; set once the cluster runs
	// client is the zone of the current trial's client (configure).
	client string
}

// newZoneLinks makes the (empty) proxy sets of a cluster with zones
// (none: one unnamed zone).
func newZoneLinks(zones []string) *zoneLinks {
	if len(zones) == 0 {
		zones = []string{""}
	}
	z := &zoneLinks{zones: zones, repl: map[string]*netem.Set{}, ctl: map[string]*netem.Set{}, zone: func(int) string { return "" }}
	for _, from := range zones {
		z.repl[from] = netem.NewSet()
		if from != "" {
			z.ctl[from] = netem.NewSet()
		}
	}
	return z
}

// needsZoneLinks reports whether a group's cluster needs proxies between
// its nodes: zones, or delayed replication.
func needsZoneLinks(scs []expfile.Scenario) bool {
	for _, sc := range scs {
		if sc.Exp.Cluster.HasZones() || sc.Exp.Network.ReplicationRTTMs > 0 {
			return true
		}
	}
	return false
}

// advertise returns the cluster.Config functions that put a proxy of the
// source zone's set in front of a node's listener; the first failure is
// kept in *failed (the node then advertises itself).
func (z *zoneLinks) advertise(sets map[string]*netem.Set, what string, failed *error) func(from string, id int, addr string) string {
	return func(from string, id int, addr string) string {
		set, ok := sets[from]
		if !ok {
			return addr
		}
		p, err := set.Put(int32(id), addr)
		if err != nil {
			if *failed == nil {
				*failed = fmt.Errorf("%s from zone %q to node %d: %w", what, from, id, err)
			}
			return addr
		}
		return p
	}
}

// started tells the links where the cluster put its nodes.
func (z *zoneLinks) started(c *cluster.Cluster) {
	z.zone = c.Zone
}

// linkConfig is the impairment of a path from zone from to zone to:
// network.zones when it crosses zones, plus extra on every path.
func linkConfig(e expfile.Experiment, from, to string, extra time.Duration) netem.Config {
	cfg := netem.Config{RTT: extra}
	if from != to {
		zl := e.Network.Zones
		cfg.RTT += ms(zl.RTTMs)
		cfg.Jitter = ms(zl.JitterMs)
		cfg.Bandwidth = zl.BandwidthMbit
	}
	return cfg
}

// ms converts milliseconds to a duration.
func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

// configure sets every link for a trial of e and zeroes their figures.
func (z *zoneLinks) configure(e expfile.Experiment) {
	z.client = e.ClientZoneName()
	for from, set := range z.repl {
		set.SetConfigFunc(func(id int32) netem.Config {
			return linkConfig(e, from, z.zone(int(id)), ms(e.Network.ReplicationRTTMs))
		})
		set.ResetStats()
	}
	for from, set := range z.ctl {
		set.SetConfigFunc(func(id int32) netem.Config { return linkConfig(e, from, z.zone(int(id)), 0) })
	}
}

// clientConfig is the client's path to broker id: the scenario's network,
// plus network.zones when the broker is in another zone than the client.
func clientConfig(e expfile.Experiment, base netem.Config, zone func(int) string) func(id int32) netem.Config {
	return func(id int32) netem.Config {
		cfg := base
		if !e.Cluster.HasZones() || zone(int(id)) == e.ClientZoneName() {
			return cfg
		}
		zl := e.Network.Zones
		cfg.RTT += ms(zl.RTTMs)
		cfg.Jitter += ms(zl.JitterMs)
		if zl.BandwidthMbit > 0 && (cfg.Bandwidth <= 0 || zl.BandwidthMbit < cfg.Bandwidth) {
			cfg.Bandwidth = zl.BandwidthMbit
		}
		return cfg
	}
}

// across splits ids into those in zone and the others.
func across(ids []int32, zone string, zoneOf func(int) string) (in, out []int32) {
	for _, id := range ids {
		if zoneOf(int(id)) == zone {
			in = append(in, id)
		} else {
			out = append(out, id)
		}
	}
	return in, out
}

// isolation holds (on) or heals (off) every path that crosses zone's
// border: from zone to the others, from the others to zone, and the
// client's paths that cross it (client may be nil).
func (z *zoneLinks) isolation(zone string, client *netem.Set, on bool) {
	apply := func(set *netem.Set, ids []int32) {
		if on {
			set.Isolate(ids)
		} else {
			set.Heal(ids)
		}
	}
	cross := func(set *netem.Set, from string) {
		in, out := across(set.IDs(), zone, z.zone)
		if from == zone {
			apply(set, out)
		} else {
			apply(set, in)
		}
	}
	for from, set := range z.repl {
		cross(set, from)
	}
	for from, set := range z.ctl {
		cross(set, from)
	}
	if client != nil {
		cross(client, z.client)
	}
}

// links reports the inter-broker links that carried fetches in the
// trial, per pair of zones, sorted.
func (z *zoneLinks) links() []results.ZoneLink {
	type pair struct{ from, to string }
	agg := map[pair]*results.ZoneLink{}
	busiest := map[pair]int64{}
	for from, set := range z.repl {
		for _, id := range set.IDs() {
			st := set.Proxy(id).Stats()
			if st.Fetches == 0 {
				continue
			}
			k := pair{from, z.zone(int(id))}
			l, ok := agg[k]
			if !ok {
				l = &results.ZoneLink{From: k.from, To: k.to, FetchRTTMinMs: st.FetchRTTMinMs}
				agg[k] = l
			}
			// The pair's medians are its busiest proxy's: proxies'
			// medians do not merge.
			if st.Fetches > busiest[k] {
				busiest[k] = st.Fetches
				l.FetchRTTp50Ms = st.FetchRTTp50Ms
				l.RTTMs = st.UpDelayP50Ms + st.DownDelayP50Ms
			}
			l.Fetches += st.Fetches
			l.FetchRTTMinMs = min(l.FetchRTTMinMs, st.FetchRTTMinMs)
			l.Bytes += st.BytesUp + st.BytesDown
		}
	}
	out := make([]results.ZoneLink, 0, len(agg))
	for _, l := range agg {
		out = append(out, *l)
	}
	slices.SortFunc(out, func(a, b results.ZoneLink) int {
		if a.From != b.From {
			return strings.Compare(a.From, b.From)
		}
		return strings.Compare(a.To, b.To)
	})
	return out
}

// replicationBytes sums the bytes every inter-broker proxy moved.
func (z *zoneLinks) replicationBytes() float64 {
	var n int64
	for _, set := range z.repl {
		st := set.Stats()
		n += st.BytesUp + st.BytesDown
	}
	return float64(n)
}

// Close closes every proxy.
func (z *zoneLinks) Close() error {
	var errs []error
	for _, m := range []map[string]*netem.Set{z.repl, z.ctl} {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			errs = append(errs, m[k].Close())
		}
	}
	return errors.Join(errs...)
}

// zoneLayout reads where the trial's topic lives, for its record: every
// broker's zone, the partitions' leaders and replicas, the racks they
// spread over.
func zoneLayout(ctx context.Context, adm *cluster.Admin, topic string, e expfile.Experiment) (*results.Zones, error) {
	pl, err := adm.Placement(ctx, topic)
	if err != nil {
		return nil, err
	}
	z := &results.Zones{Client: e.ClientZoneName(), Brokers: map[int]string{}, RackSpread: pl.RackSpread()}
	for id, rack := range pl.Racks {
		z.Brokers[id] = rack
	}
	for _, p := range pl.Partitions {
		z.Partitions = append(z.Partitions, results.ZonePartition{Partition: p.Partition, Leader: p.Leader, Replicas: p.Replicas})
	}
	return z, nil
}

// fillZoneLinks adds what the links between zones carried to z.
func fillZoneLinks(z *results.Zones, links []results.ZoneLink) {
	z.Links = links
	for _, l := range links {
		if l.From != l.To {
			z.ReplicationMs = max(z.ReplicationMs, l.RTTMs)
		}
	}
}

// leaderMoves compares two leader maps and describes each change.
func leaderMoves(before, after map[int32]int) []string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(after)) {
		if b, ok := before[p]; ok && b != after[p] {
			out = append(out, "partition "+strconv.Itoa(int(p))+": leader "+leaderName(b)+" → "+leaderName(after[p]))
		}
	}
	return out
}

func leaderName(id int) string {
	if id < 0 {
		return "none"
	}
	return "broker " + strconv.Itoa(id)
}

// createTopic creates a trial's topic: placed by Kafka, or with
// topic.leader.zone by zonePlacement on the embedded cluster's zones.
func (t *Target) createTopic(ctx context.Context, adm *cluster.Admin, topic string, tp expfile.Topic) error {
	if tp.LeaderZone == "" || t.c == nil {
		return adm.CreateTopic(ctx, topic, tp.Partitions, tp.ReplicationFactor, tp.Configs)
	}
	replicas, err := zonePlacement(t.c.BrokerIDs(), t.c.Zone, tp.LeaderZone, tp.Partitions, tp.ReplicationFactor)
	if err != nil {
		return fmt.Errorf("place topic %s: %w", topic, err)
	}
	return adm.CreateTopicAssigned(ctx, topic, replicas, tp.Configs)
}

// zonePlacement assigns each partition's replicas: the preferred leader
// from leaderZone's brokers in turn, then one broker from each other zone
// in turn (so replicas sit in distinct racks, as Kafka's rack-aware
// placement puts them), then the remaining brokers, each list rotated by
// the partition so that load spreads.
func zonePlacement(brokers []int, zoneOf func(int) string, leaderZone string, partitions, rf int) ([][]int, error) {
	byZone := map[string][]int{}
	var zones []string
	for _, b := range brokers {
		z := zoneOf(b)
		if _, ok := byZone[z]; !ok {
			zones = append(zones, z)
		}
		byZone[z] = append(byZone[z], b)
	}
	slices.Sort(zones)
	leaders := byZone[leaderZone]
	if len(leaders) == 0 {
		return nil, fmt.Errorf("no broker in zone %q", leaderZone)
	}
	if rf < 1 || rf > len(brokers) {
		return nil, fmt.Errorf("replication factor %d on %d brokers", rf, len(brokers))
	}
	pick := func(ids []int, p int) int { return ids[p%len(ids)] }
	out := make([][]int, partitions)
	for p := range out {
		rs := []int{pick(leaders, p)}
		i := slices.Index(zones, leaderZone)
		for k := 1; k < len(zones) && len(rs) < rf; k++ {
			rs = append(rs, pick(byZone[zones[(i+k)%len(zones)]], p))
		}
		for k := range brokers {
			if len(rs) == rf {
				break
			}
			if b := brokers[(p+k)%len(brokers)]; !slices.Contains(rs, b) {
				rs = append(rs, b)
			}
		}
		out[p] = rs
	}
	return out, nil
}
