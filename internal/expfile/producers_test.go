package expfile

import "testing"

// TestProducersAccepted parses workload.producers and workload.consumer
// written nested, by shorthand, by --set and in a matrix.
func TestProducersAccepted(t *testing.T) {
	type pc struct {
		producers int
		consumer  bool
	}
	for _, tc := range []struct {
		name string
		src  string
		sets []string
		want []pc // one per scenario
	}{
		{"defaults: one producer, no consumer", "name: x\n", nil, []pc{{0, false}}},
		{"nested", "name: x\nworkload: {producers: 4, consumer: true}\n", nil, []pc{{4, true}}},
		{"set shorthand", "name: x\n", []string{"producers=64", "consumer=true"}, []pc{{64, true}}},
		{"matrix", "name: x\nworkload: {consumer: true}\nmatrix: {workload.producers: [1, 2, 4]}\n", nil,
			[]pc{{1, true}, {2, true}, {4, true}}},
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
			for i, sc := range scs {
				if got := (pc{sc.Exp.Workload.Producers, sc.Exp.Workload.Consumer}); got != tc.want[i] {
					t.Errorf("scenario %s: %+v, want %+v", sc.ID, got, tc.want[i])
				}
			}
		})
	}
}

// TestProducersRefused checks every refusal of workload.producers and
// workload.consumer, with its position and reason.
func TestProducersRefused(t *testing.T) {
	runRefusals(t, []refusal{
		{name: "above the limit", src: "name: x\nworkload: {producers: 65}\n",
			want: []string{`x.yaml:2:23: workload.producers must be an integer in 1..64, got "65"; the limit is there because each producer is its own client, buffer and connections on this one host`}},
		{name: "zero", src: "name: x\nworkload: {producers: 0}\n",
			want: []string{`x.yaml:2:23: workload.producers must be an integer in 1..64, got "0"; the limit is there because each producer is its own client, buffer and connections on this one host`}},
		{name: "fewer records than producers", src: "name: x\nworkload: {records: 3, producers: 4}\n",
			want: []string{`x.yaml:2:12: workload.records 3 is fewer than workload.producers 4: every producer needs at least one record`}},
		{name: "consumer not a bool", src: "name: x\nworkload: {consumer: 2}\n",
			want: []string{`x.yaml:2:22: workload.consumer must be true or false, got "2"`}},
		{name: "producer.jvms is not supported", src: "name: x\nworkload: {producer.jvms: 2}\n",
			want: []string{`x.yaml:2:12: unknown key "producer.jvms" in workload; did you mean "producers"?`}},
	})
}

// TestProducersYAML checks YAML() writes producers and consumer and reads
// them back, and leaves the defaults out.
func TestProducersYAML(t *testing.T) {
	for _, src := range []string{
		"name: x\n",
		"name: x\nworkload: {producers: 3}\n",
		"name: x\nworkload: {producers: 2, consumer: true}\n",
	} {
		e, back, out := roundTrip(t, src)
		if back.Workload.Producers != e.Workload.Producers || back.Workload.Consumer != e.Workload.Consumer {
			t.Errorf("%q: read back %+v, want %+v\n%s", src, back.Workload, e.Workload, out)
		}
	}
}
