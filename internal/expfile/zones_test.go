package expfile

import (
	"strings"
	"testing"
)

// TestZoneRefusals: zone settings that contradict the cluster are refused
// before anything starts, at the key that set them.
func TestZoneRefusals(t *testing.T) {
	runRefusals(t, []refusal{
		{name: "more zones than brokers",
			src:  "name: x\ncluster: {brokers: 2, zones: 3}\n",
			want: []string{"x.yaml:2:23: cluster.zones 3 exceeds brokers 2: every zone needs a broker"}},
		{name: "zones out of range",
			src:  "name: x\ncluster: {brokers: 3, zones: 4}\n",
			want: []string{"x.yaml:2:30: cluster.zones must be an integer in 1..3, got \"4\""}},
		{name: "client in a zone the cluster lacks",
			src:  "name: x\ncluster: {brokers: 3, zones: 2}\nclient.zone: c\n",
			want: []string{`x.yaml:3:1: client.zone "c" is not a zone of this cluster (cluster.zones 2: a, b)`}},
		{name: "client zone not a zone name",
			src:  "name: x\nclient.zone: eu-west-1a\n",
			want: []string{`x.yaml:2:14: client.zone must be a zone name, one of a, b, c, got "eu-west-1a"`}},
		{name: "zone outage on one zone",
			src:  "name: x\ncluster: {brokers: 3}\nfaults: [{type: zone.isolate, zone: a, delay.ms: 1000}]\n",
			want: []string{"x.yaml:3:10: fault zone.isolate needs a cluster in zones (cluster.zones 2 or 3): with one zone there is nothing to isolate it from"}},
		{name: "zone outage of a zone the cluster lacks",
			src:  "name: x\ncluster: {brokers: 3, zones: 2}\nfaults: [{type: zone.isolate, zone: c, delay.ms: 1000}]\n",
			want: []string{`x.yaml:3:10: fault zone.isolate zone "c" is not a zone of this cluster (cluster.zones 2: a, b)`}},
		{name: "zone outage without a zone",
			src:  "name: x\ncluster: {brokers: 3, zones: 3}\nfaults: [{type: zone.isolate, delay.ms: 1000}]\n",
			want: []string{"x.yaml:3:10: fault zone.isolate needs zone (a, b or c): the zone to cut off"}},
		{name: "leader zone without zones",
			src:  "name: x\ncluster: {brokers: 3}\ntopic: {leader.zone: a}\n",
			want: []string{"x.yaml:3:9: topic.leader.zone needs a cluster in zones (cluster.zones 2 or 3): with one zone Kafka's placement is all there is"}},
		{name: "leader zone the cluster lacks",
			src:  "name: x\ncluster: {brokers: 3, zones: 2}\ntopic: {leader.zone: c}\n",
			want: []string{`x.yaml:3:9: topic.leader.zone "c" is not a zone of this cluster (cluster.zones 2: a, b)`}},
		{name: "zone link too slow for one batch",
			src:  "name: x\ncluster: {brokers: 3, zones: 3}\nnetwork: {zones: {bandwidth: 0.001}}\nproducer: {batch.size: 65536}\n",
			want: []string{"x.yaml:3:19: network.zones.bandwidth 0.001 Mbit/s cannot carry one batch of 65536 bytes within request.timeout.ms 30000 (it takes 524288 ms): every request would time out; raise the bandwidth to at least 0.0175 Mbit/s"}},
	})
}

// TestZonesYAML: the zone settings survive the resolved experiment's round
// trip, and a file without them writes none.
func TestZonesYAML(t *testing.T) {
	src := "name: x\ncluster: {brokers: 3, zones: 3}\ntopic: {leader.zone: c}\nnetwork: {zones: {rtt.ms: 1.5, jitter.ms: 0.2}}\nclient.zone: b\n"
	e, err := Parse("x.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := e.YAML()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("x.yaml", out, nil)
	if err != nil {
		t.Fatalf("resolved YAML does not parse: %v\n%s", err, out)
	}
	if back.Cluster.Zones != 3 || back.Network.Zones != (ZoneLink{RTTMs: 1.5, JitterMs: 0.2}) || back.ClientZone != "b" || back.Topic.LeaderZone != "c" {
		t.Errorf("round trip lost zones: %+v %+v %q\n%s", back.Cluster, back.Network.Zones, back.ClientZone, out)
	}
	plain, err := Parse("x.yaml", []byte("name: x\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if y, _ := plain.YAML(); strings.Contains(string(y), "zones") || strings.Contains(string(y), "client.zone") {
		t.Errorf("a file without zones writes zone settings:\n%s", y)
	}
}

// TestZoneLinkNeedsZones: network.zones on a one-zone cluster would do
// nothing and is refused; beside a cluster.zones axis it is not.
func TestZoneLinkNeedsZones(t *testing.T) {
	runRefusals(t, []refusal{
		{name: "zone link without zones",
			src:  "name: x\ncluster: {brokers: 3}\nnetwork: {zones: {rtt.ms: 5}}\n",
			want: []string{"x.yaml:3:19: network.zones needs a cluster in zones (cluster.zones 2 or 3): with one zone no path crosses zones and the setting would do nothing"}},
	})
	if errs := parseErrors(t, "name: x\ncluster: {brokers: 3}\nnetwork: {zones: {rtt.ms: 5}}\nmatrix:\n  cluster.zones: [1, 3]\n"); errs != nil {
		t.Errorf("a zones axis beside network.zones was refused: %v", errs)
	}
}
