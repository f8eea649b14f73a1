package expfile

import (
	"strings"
	"testing"
)

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
		{name: "three arms", src: "name: d\nschedule: duet\nmatrix:\n  linger.ms: [0, 5, 10]\ncompare:\n  - {axis: linger.ms}\nworkload: {duration.s: 2, warmup.s: 0.5}\n",
			want: []string{"x.yaml:2:1: schedule: duet runs each scenario beside the one it is compared with, but no planned comparison is left to pair linger.ms=10 (pairs made, in compare: order: linger.ms=0 | linger.ms=5; add compare: entries, narrow the matrix, or use schedule: sequential)"}},
		{name: "no comparison", src: "name: d\nschedule: duet\nmatrix:\n  linger.ms: [0, 5]\nworkload: {duration.s: 2, warmup.s: 0.5}\n",
			want: []string{"x.yaml:2:1: schedule: duet runs each scenario beside the one it is compared with, but no planned comparison is left to pair linger.ms=0, linger.ms=5 (pairs made, in compare: order: none; add compare: entries, narrow the matrix, or use schedule: sequential)"}},
		{name: "one arm", src: "name: d\nschedule: duet\nworkload: {duration.s: 2, warmup.s: 0.5}\n",
			want: []string{"x.yaml:2:1: schedule: duet runs the two arms of a comparison side by side, but this experiment has 1 scenario (give it a matrix axis and a compare: entry, or use schedule: sequential)"}},
		{name: "disk", src: duetBase + "cluster: {storage: disk}\n",
			want: []string{"x.yaml:9:11: schedule: duet cannot run with cluster.storage: disk (both arms would write through one page cache to one disk, which CPU sets do not separate: use cluster.storage: memory, the duet default)"}},
		{name: "split", src: duetBase + "cluster: {cpus: split}\n",
			want: []string{"x.yaml:9:11: schedule: duet cannot run with cluster.cpus: split (a duet gives each arm its own half of the CPUs itself: drop cluster.cpus)"}},
		{name: "franz-go codecs", src: "name: d\nclient: franz-go\nschedule: duet\nmatrix:\n  compression.type: [none, zstd]\ncompare:\n  - {axis: compression.type}\nworkload: {duration.s: 2, warmup.s: 0.5}\n",
			want: []string{"x.yaml:3:1: schedule: duet cannot pair compression.type=none with compression.type=zstd: franz-go runs both arms' clients in prodlab's own process on every CPU, so compression.type none against zstd would take client CPU from both arms (use a client in a worker process, java or librdkafka, whose worker each arm confines, or schedule: sequential)"}},
		{name: "franz-go beside java", src: "name: d\nschedule: duet\nmatrix:\n  client: [java, franz-go]\ncompare:\n  - {axis: client}\nworkload: {duration.s: 2, warmup.s: 0.5}\n",
			want: []string{"x.yaml:2:1: schedule: duet cannot pair client=java with client=franz-go: a franz-go client runs in prodlab's own process on every CPU, so the halves cannot confine it beside a java one (use schedule: sequential)"}},
		{name: "a burst", src: "name: d\nschedule: duet\nmatrix:\n  linger.ms: [0, 5]\ncompare:\n  - {axis: linger.ms}\n",
			want: []string{"x.yaml:2:1: schedule: duet cannot pair linger.ms=0 with linger.ms=5: a duet runs steady-state windows side by side, and a burst of workload.records ends when its records are acknowledged, with the other arm still running (set workload.duration.s and workload.warmup.s)"}},
		{name: "unequal windows", src: "name: d\nworkload: {warmup.s: 0.5}\nschedule: duet\nmatrix:\n  duration.s: [2, 3]\ncompare:\n  - {axis: duration.s}\n",
			want: []string{"x.yaml:3:1: schedule: duet cannot pair duration.s=2 with duration.s=3: their windows differ (workload.warmup.s 0.5 + duration.s 2 against 0.5 + 3), so one would run its end alone"}},
		{name: "a broker kill", src: duetBase + "faults: [{type: broker.kill, at.ms: 500, delay.ms: 500}]\n",
			want: []string{"x.yaml:9:9: schedule: duet cannot run with a broker.kill fault (the broker it brings back is a new process, started on every CPU, in the middle of the other arm's window; the other fault types keep their processes)"}},
		{name: "as an axis", src: "name: d\nmatrix:\n  schedule: [duet, sequential]\n",
			want: []string{`x.yaml:3:3: "schedule" is a setting of the whole run, not a matrix axis: every scenario shares it (set it at the top level)`}},
	})
}

// TestDuetAccepted checks what a duet may pair: java arms that differ in
// compression (each arm confines its worker), franz-go arms that differ in
// another setting, and two pairs of a larger matrix along one axis.
func TestDuetAccepted(t *testing.T) {
	runAccepted(t, []acceptance{
		{name: "java codecs", src: "name: d\nclient: java\nschedule: duet\nmatrix:\n  compression.type: [none, zstd]\ncompare:\n  - {axis: compression.type}\nworkload: {duration.s: 2, warmup.s: 0.5}\n"},
		{name: "franz-go linger", src: "name: d\nclient: franz-go\nschedule: duet\nmatrix:\n  linger.ms: [0, 5]\ncompare:\n  - {axis: linger.ms}\nworkload: {duration.s: 2, warmup.s: 0.5}\n"},
		{name: "two pairs", src: "name: d\nschedule: duet\nmatrix:\n  linger.ms: [0, 5]\n  brokers: [1, 3]\ncompare:\n  - {axis: linger.ms}\nworkload: {duration.s: 2, warmup.s: 0.5}\n"},
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

// TestDuetWouldRun: a sequential run is offered the duet only where it
// would run and helps: steady-state windows without a rate, and every
// duet check passed.
func TestDuetWouldRun(t *testing.T) {
	const seq = "name: d\nworkload: {duration.s: 2, warmup.s: 0.5}\ntrials: auto\nmatrix:\n  linger.ms: [0, 5]\ncompare:\n  - {axis: linger.ms}\n"
	tests := []struct {
		name, src string
		sets      []string
		want      bool
	}{
		{"as fast as possible", seq, nil, true},
		{"java, zstd", seq, []string{"client=java", "compression.type=zstd"}, true},
		{"already a duet", duetBase, nil, false},
		{"at a rate", seq, []string{"workload.rate=5000"}, false},
		{"a burst", "name: d\nmatrix:\n  linger.ms: [0, 5]\ncompare:\n  - {axis: linger.ms}\n", nil, false},
		{"no comparison", "name: d\nworkload: {duration.s: 2, warmup.s: 0.5}\nmatrix:\n  linger.ms: [0, 5]\n", nil, false},
		{"data on disk, written", seq + "cluster: {storage: disk}\n", nil, false},
		{"franz-go codecs", "name: d\nclient: franz-go\nworkload: {duration.s: 2, warmup.s: 0.5}\nmatrix:\n  compression.type: [none, zstd]\ncompare:\n  - {axis: compression.type}\n", nil, false},
		{"a capacity search", strings.Replace(seq, "trials: auto\n", "", 1) + "capacity: {slo: {p99.ms: 50}}\n", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse("x.yaml", []byte(tt.src), tt.sets)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.DuetWouldRun(); got != tt.want {
				t.Errorf("DuetWouldRun() = %v, want %v", got, tt.want)
			}
		})
	}
}
