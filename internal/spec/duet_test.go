package spec

import "testing"

// duetBase is a duet of two arms that parses.
const duetBase = `name: d
workload: {duration.s: 2, warmup.s: 0.5}
schedule: duet
trials: auto
matrix:
  linger.ms: [0, 5]
compare:
  - {axis: linger.ms}
`

func TestDuetRefusals(t *testing.T) {
	runRefusals(t, []refusal{
		{name: "unknown schedule", src: "name: d\nschedule: dual\n",
			want: []string{`x.yaml:2:11: schedule must be one of sequential, duet, got "dual"; did you mean "duet"?`}},
		{name: "three arms", src: "name: d\nschedule: duet\nmatrix:\n  linger.ms: [0, 5, 10]\ncompare:\n  - {axis: linger.ms}\n",
			want: []string{"x.yaml:2:1: schedule: duet runs each scenario beside the one it is compared with, but no planned comparison is left to pair linger.ms=10 (pairs made, in compare: order: linger.ms=0 | linger.ms=5; add compare: entries, narrow the matrix, or use schedule: sequential)"}},
		{name: "no comparison", src: "name: d\nschedule: duet\nmatrix:\n  linger.ms: [0, 5]\n",
			want: []string{"x.yaml:2:1: schedule: duet runs each scenario beside the one it is compared with, but no planned comparison is left to pair linger.ms=0, linger.ms=5 (pairs made, in compare: order: none; add compare: entries, narrow the matrix, or use schedule: sequential)"}},
		{name: "one arm", src: "name: d\nschedule: duet\n",
			want: []string{"x.yaml:2:1: schedule: duet runs the two arms of a comparison side by side, but this experiment has 1 scenario (give it a matrix axis and a compare: entry, or use schedule: sequential)"}},
		{name: "disk", src: duetBase + "cluster: {storage: disk}\n",
			want: []string{"x.yaml:9:11: schedule: duet cannot run with cluster.storage: disk (both arms would write through one page cache to one disk, which CPU sets do not separate: use cluster.storage: memory, the duet default)"}},
		{name: "split", src: duetBase + "cluster: {cpus: split}\n",
			want: []string{"x.yaml:9:11: schedule: duet cannot run with cluster.cpus: split (a duet gives each arm its own half of the CPUs itself: drop cluster.cpus)"}},
		{name: "franz-go codecs", src: "name: d\nclient: franz-go\nschedule: duet\nmatrix:\n  compression.type: [none, zstd]\ncompare:\n  - {axis: compression.type}\n",
			want: []string{"x.yaml:3:1: schedule: duet cannot pair compression.type=none with compression.type=zstd: franz-go runs both arms' clients in prodlab's own process on every CPU, so compression.type none against zstd would take client CPU from both arms (use client: java, whose worker each arm confines, or schedule: sequential)"}},
		{name: "franz-go beside java", src: "name: d\nschedule: duet\nmatrix:\n  client: [java, franz-go]\ncompare:\n  - {axis: client}\n",
			want: []string{"x.yaml:2:1: schedule: duet cannot pair client=java with client=franz-go: a franz-go client runs in prodlab's own process on every CPU, so the halves cannot confine it beside a java one (use schedule: sequential)"}},
		{name: "as an axis", src: "name: d\nmatrix:\n  schedule: [duet, sequential]\n",
			want: []string{`x.yaml:3:3: "schedule" is a setting of the whole run, not a matrix axis: every scenario shares it (set it at the top level)`}},
	})
}

// TestDuetAccepted checks what a duet may pair: java arms that differ in
// compression (each arm confines its worker), franz-go arms that differ in
// another setting, and two pairs of a larger matrix along one axis.
func TestDuetAccepted(t *testing.T) {
	runAccepted(t, []acceptance{
		{name: "java codecs", src: "name: d\nclient: java\nschedule: duet\nmatrix:\n  compression.type: [none, zstd]\ncompare:\n  - {axis: compression.type}\n"},
		{name: "franz-go linger", src: "name: d\nclient: franz-go\nschedule: duet\nmatrix:\n  linger.ms: [0, 5]\ncompare:\n  - {axis: linger.ms}\n"},
		{name: "two pairs", src: "name: d\nschedule: duet\nmatrix:\n  linger.ms: [0, 5]\n  brokers: [1, 3]\ncompare:\n  - {axis: linger.ms}\n"},
	})
}

func TestDuetDefaultsToMemory(t *testing.T) {
	e, err := Parse("x.yaml", []byte(duetBase), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !e.Duet() || e.Cluster.Storage != StorageMemory {
		t.Errorf("duet %v, storage %q; want a duet in memory", e.Duet(), e.Cluster.Storage)
	}
	e, err = Parse("x.yaml", []byte(duetBase), []string{"schedule=sequential"})
	if err != nil {
		t.Fatal(err)
	}
	if e.Duet() || e.Cluster.Storage != "" {
		t.Errorf("sequential: duet %v, storage %q; want the default storage", e.Duet(), e.Cluster.Storage)
	}
}
