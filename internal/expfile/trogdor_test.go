package expfile

import (
	"reflect"
	"strings"
	"testing"
)

// TestTrogdorAccepted parses the trogdor section nested, dotted, by --set
// and as a matrix axis over the agents.
func TestTrogdorAccepted(t *testing.T) {
	const url = "http://127.0.0.1:8889"
	for _, tc := range []struct {
		name string
		src  string
		sets []string
		want []Trogdor // one per scenario
	}{
		{"absent: local", "name: x\n", nil, []Trogdor{{}}},
		{"nested", "name: x\ntrogdor: {coordinator: " + url + ", nodes: 'agent-1, agent-2', max.producers.per.node: 4}\n", nil,
			[]Trogdor{{Coordinator: url, Nodes: "agent-1,agent-2", MaxProducersPerNode: 4}}},
		{"trailing slash dropped", "name: x\ntrogdor: {coordinator: " + url + "/}\n", nil, []Trogdor{{Coordinator: url}}},
		{"set", "name: x\n", []string{"trogdor.coordinator=" + url, "trogdor.nodes=a"}, []Trogdor{{Coordinator: url, Nodes: "a"}}},
		{"direct beside a fleet", "name: x\nmatrix: {where: [{label: direct, trogdor.coordinator: ''}, {label: fleet, trogdor.coordinator: " + url + "}]}\n", nil,
			[]Trogdor{{}, {Coordinator: url}}},
		{"matrix over agents", "name: x\ntrogdor: {coordinator: " + url + "}\nmatrix: {trogdor.nodes: [a, 'a,b', 'a,b,c']}\n", nil,
			[]Trogdor{{Coordinator: url, Nodes: "a"}, {Coordinator: url, Nodes: "a,b"}, {Coordinator: url, Nodes: "a,b,c"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scs, err := mustParse(t, tc.src, tc.sets...).Scenarios()
			if err != nil {
				t.Fatal(err)
			}
			var got []Trogdor
			for _, sc := range scs {
				got = append(got, sc.Exp.Trogdor)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestTrogdorRefused checks every refusal of the trogdor section.
func TestTrogdorRefused(t *testing.T) {
	runRefusals(t, []refusal{
		{name: "not a URL", src: "name: x\ntrogdor: {coordinator: 127.0.0.1:8889}\n",
			want: []string{`x.yaml:2:24: trogdor.coordinator: want http://HOST:PORT (the coordinator's REST address), got "127.0.0.1:8889"`}},
		{name: "no port", src: "name: x\ntrogdor: {coordinator: 'http://coord'}\n",
			want: []string{`x.yaml:2:24: trogdor.coordinator: want http://HOST:PORT with a port, got "http://coord" (Trogdor's coordinator listens on 8889 by default)`}},
		{name: "a path", src: "name: x\ntrogdor: {coordinator: 'http://coord:8889/coordinator/status'}\n",
			want: []string{`x.yaml:2:24: trogdor.coordinator: want http://HOST:PORT without a path or query, got "http://coord:8889/coordinator/status"`}},
		{name: "empty node name", src: "name: x\ntrogdor: {coordinator: 'http://c:1', nodes: 'a,,b'}\n",
			want: []string{`x.yaml:2:45: trogdor.nodes must be agent names separated by commas, got "a,,b" (an empty name)`}},
		{name: "node twice", src: "name: x\ntrogdor: {coordinator: 'http://c:1', nodes: 'a,a'}\n",
			want: []string{`x.yaml:2:45: trogdor.nodes names agent "a" twice`}},
		{name: "nodes without a coordinator", src: "name: x\ntrogdor: {nodes: a}\n",
			want: []string{`x.yaml:2:11: trogdor.nodes needs trogdor.coordinator (or --trogdor URL)`}},
		{name: "limit without a coordinator", src: "name: x\ntrogdor: {max.producers.per.node: 2}\n",
			want: []string{`x.yaml:2:11: trogdor.max.producers.per.node needs trogdor.coordinator (or --trogdor URL)`}},
		{name: "negative limit", src: "name: x\ntrogdor: {coordinator: 'http://c:1', max.producers.per.node: -1}\n",
			want: []string{`x.yaml:2:62: trogdor.max.producers.per.node must be an integer in 0..64, got "-1"`}},
		{name: "unknown key", src: "name: x\ntrogdor: {coordnator: 'http://c:1'}\n",
			want: []string{`x.yaml:2:11: unknown key "coordnator" in trogdor; did you mean "coordinator"?`}},
	})
}

// TestTrogdorYAML writes the section and reads it back; a local experiment
// has none.
func TestTrogdorYAML(t *testing.T) {
	e, back, out := roundTrip(t, "name: x\ntrogdor: {coordinator: 'http://c:8889', nodes: 'a,b', max.producers.per.node: 3}\n")
	if back.Trogdor != e.Trogdor || !strings.Contains(string(out), "trogdor:") {
		t.Errorf("round trip: %+v → %+v\n%s", e.Trogdor, back.Trogdor, out)
	}
	_, _, out = roundTrip(t, "name: x\n")
	if strings.Contains(string(out), "trogdor") {
		t.Errorf("a local experiment writes a trogdor section:\n%s", out)
	}
}
