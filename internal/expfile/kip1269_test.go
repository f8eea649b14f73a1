package expfile

import (
	"strings"
	"testing"
)

// TestKIP1269Accepted parses the kip1269 section nested, dotted, by --set
// and as matrix axes, and checks the label and that retention separates
// clusters.
func TestKIP1269Accepted(t *testing.T) {
	type kc struct {
		retain int
		lift   bool
		label  string
	}
	for _, tc := range []struct {
		name string
		src  string
		sets []string
		want []kc // one per scenario
	}{
		{"absent: nothing patched", "name: x\n", nil, []kc{{0, false, ""}}},
		{"nested", "name: x\nkip1269: {retain: 20, lift.client.cap: true}\n", nil,
			[]kc{{20, true, "emulated KIP-1269: broker retains 20, client cap lifted"}}},
		{"set", "name: x\n", []string{"kip1269.retain=5"}, []kc{{5, false, "emulated KIP-1269: broker retains 5"}}},
		{"client only", "name: x\nkip1269: {lift.client.cap: true}\n", nil, []kc{{0, true, "emulated KIP-1269: client cap lifted"}}},
		{"matrix", "name: x\nkip1269: {lift.client.cap: true}\nmatrix: {kip1269.retain: [5, 20]}\n", nil,
			[]kc{{5, true, "emulated KIP-1269: broker retains 5, client cap lifted"}, {20, true, "emulated KIP-1269: broker retains 20, client cap lifted"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustParse(t, tc.src, tc.sets...)
			scs, err := e.Scenarios()
			if err != nil {
				t.Fatal(err)
			}
			if len(scs) != len(tc.want) {
				t.Fatalf("%d scenarios, want %d", len(scs), len(tc.want))
			}
			keys := map[string]bool{}
			for i, sc := range scs {
				got := kc{sc.Exp.Cluster.KIP1269Retain, sc.Exp.KIP1269LiftClientCap, sc.Exp.KIP1269Label("")}
				if got != tc.want[i] {
					t.Errorf("scenario %s: %+v, want %+v", sc.ID, got, tc.want[i])
				}
				if sc.Exp.KIP1269() != (got.label != "") {
					t.Errorf("scenario %s: KIP1269() = %v with label %q", sc.ID, sc.Exp.KIP1269(), got.label)
				}
				keys[sc.Exp.Cluster.Key()] = true
			}
			if len(keys) != len(scs) {
				t.Errorf("%d cluster keys for %d scenarios retaining differently", len(keys), len(scs))
			}
		})
	}
}

// TestKIP1269LabelNative labels a Kafka that implements KIP-1269 itself:
// its property, not the agent, set the retention, and only what the agent
// still patches (the client) says "emulated".
func TestKIP1269LabelNative(t *testing.T) {
	for _, tc := range []struct {
		name, src, native, want string
	}{
		{"build, client stock", "name: x\nkip1269: {retain: 20}\n", "producer.state.batches.to.retain",
			"KIP-1269 build: producer.state.batches.to.retain=20"},
		{"build, client cap lifted", "name: x\nkip1269: {retain: 20, lift.client.cap: true}\n", "producer.state.batches.to.retain",
			"KIP-1269 build: producer.state.batches.to.retain=20; emulated KIP-1269: client cap lifted"},
		{"stock", "name: x\nkip1269: {retain: 20, lift.client.cap: true}\n", "",
			"emulated KIP-1269: broker retains 20, client cap lifted"},
		{"build, client only", "name: x\nkip1269: {lift.client.cap: true}\n", "producer.state.batches.to.retain",
			"emulated KIP-1269: client cap lifted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustParse(t, tc.src).KIP1269Label(tc.native); got != tc.want {
				t.Errorf("label %q, want %q", got, tc.want)
			}
		})
	}
}

// TestKIP1269Refused checks every refusal of the kip1269 section.
func TestKIP1269Refused(t *testing.T) {
	runRefusals(t, []refusal{
		{name: "retain below the KIP's minimum", src: "name: x\nkip1269: {retain: 4}\n",
			want: []string{`x.yaml:2:19: kip1269.retain must be at least 5 (KIP-1269's own minimum: brokers already retain 5 batches), got 4`}},
		{name: "retain zero", src: "name: x\nkip1269: {retain: 0}\n",
			want: []string{`x.yaml:2:19: kip1269.retain must be at least 5 (KIP-1269's own minimum: brokers already retain 5 batches), got 0`}},
		{name: "retain above the limit", src: "name: x\nkip1269: {retain: 1001}\n",
			want: []string{`x.yaml:2:19: kip1269.retain must be at most 1000 (every retained batch stays in the broker's heap per producer and partition), got 1001`}},
		{name: "retain not a number", src: "name: x\nkip1269: {retain: many}\n",
			want: []string{`x.yaml:2:19: kip1269.retain must be an integer in 5..1000, got "many"`}},
		{name: "lift on franz-go", src: "name: x\nclient: franz-go\nkip1269: {lift.client.cap: true}\n",
			want: []string{`x.yaml:3:11: kip1269.lift.client.cap needs client java (kafka-clients), got client franz-go: franz-go's idempotent producer fixes 5 requests in flight itself, and no agent reaches it; use client java or drop kip1269.lift.client.cap`}},
		{name: "lift not a bool", src: "name: x\nkip1269: {lift.client.cap: 2}\n",
			want: []string{`x.yaml:2:28: kip1269.lift.client.cap must be true or false, got "2"`}},
		{name: "unknown key", src: "name: x\nkip1269: {retian: 20}\n",
			want: []string{`x.yaml:2:11: unknown key "retian" in kip1269; did you mean "retain"?`}},
	})
}

// TestKIP1269YAML checks YAML() writes the section and reads it back, and
// leaves it out when absent.
func TestKIP1269YAML(t *testing.T) {
	for _, src := range []string{
		"name: x\n",
		"name: x\nkip1269: {retain: 20}\n",
		"name: x\nkip1269: {retain: 7, lift.client.cap: true}\n",
	} {
		e, back, out := roundTrip(t, src)
		if strings.Contains(string(out), "kip1269") != e.KIP1269() {
			t.Errorf("%q: section written = %v, want %v\n%s", src, !e.KIP1269(), e.KIP1269(), out)
		}
		if back.Cluster.KIP1269Retain != e.Cluster.KIP1269Retain || back.KIP1269LiftClientCap != e.KIP1269LiftClientCap {
			t.Errorf("%q: read back %d/%v\n%s", src, back.Cluster.KIP1269Retain, back.KIP1269LiftClientCap, out)
		}
	}
}
