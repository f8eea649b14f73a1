package expfile

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// adviseBase is a workload an advise section can search: steady-state
// windows.
const adviseBase = "name: x\nworkload: {duration.s: 2, warmup.s: 1}\n"

// rateBase is a workload at a fixed rate, for the rate objectives.
const rateBase = "name: x\nworkload: {duration.s: 2, warmup.s: 1, rate: 5000}\n"

// TestAdviseRefusals: an advise section that cannot be searched is
// refused before anything starts, at the key at fault.
func TestAdviseRefusals(t *testing.T) {
	runRefusals(t, []refusal{
		{name: "SLO on an unknown percentile",
			src:  adviseBase + "advise:\n  slo: {p98.ms: 50}\n",
			want: []string{`x.yaml:4:9: unknown SLO "p98.ms" in advise.slo: the SLO bounds percentiles of the latency from the intended send time or, with e2e., end to end: one of p50.ms, p95.ms, p99.ms, p99.9.ms, e2e.p50.ms, e2e.p95.ms, e2e.p99.ms, e2e.p99.9.ms; did you mean "p95.ms"?`}},
		{name: "rate objective without a rate",
			src:  adviseBase + "advise:\n  objective: cpu.total\n",
			want: []string{"x.yaml:4:3: advise.objective cpu.total is judged at a fixed offered rate: set workload.rate (records/s), e.g. 20000, or use objective sustainable.rate to find the highest rate"}},
		{name: "rate objective on a burst",
			src:  "name: x\nworkload: {records: 1000, rate: 500}\nadvise:\n  objective: p99.intended\n",
			want: []string{"x.yaml:4:3: advise.objective p99.intended compares steady-state windows at workload.rate: set workload.duration.s (e.g. 3) and workload.warmup.s (e.g. 1); a burst of workload.records cannot be one"}},
		{name: "rate objective beside run-level rounds",
			src:  rateBase + "trials: 5\nadvise:\n  objective: cpu.total\n",
			want: []string{"x.yaml:3:1: trials does not apply beside advise, which decides its own rounds: drop trials (set advise.precision or advise.budget)"}},
		{name: "rate objective budget that cannot fit a verdict",
			src:  rateBase + "advise:\n  objective: cpu.total\n  space:\n    linger.ms: [0, 5]\n  budget: 40s\n",
			want: []string{"x.yaml:7:3: advise.budget 40s cannot fit a trial of each of 3 candidates and the 8 rounds a verdict of two of them needs (52.7s)"}},
		{name: "objective misspelt",
			src:  adviseBase + "advise:\n  objective: sustainable\n",
			want: []string{`x.yaml:4:14: advise.objective must be sustainable.rate (the highest sustainable rate) or, at a fixed workload.rate, the lowest of cpu.total, cpu.client, cpu.brokers, p50.intended, p95.intended, p99.intended, p999.intended; got "sustainable"; did you mean "sustainable.rate"?`}},
		{name: "budget that cannot fit two candidates",
			src:  adviseBase + "advise:\n  space:\n    linger.ms: [0, 5]\n  budget: 10s\n",
			want: []string{"x.yaml:6:3: advise.budget 10s cannot fit a ceiling probe of each of 3 candidates and two more probes of two of them (21.7s)"}},
		{name: "constraint searched",
			src:  adviseBase + "producer: {linger.ms: 5}\nadvise:\n  space:\n    linger.ms: [0, 5]\n",
			want: []string{"x.yaml:6:5: linger.ms is a constraint (linger.ms=5, line 3) and the search never changes a constraint: drop it from producer: or from advise.space"}},
		{name: "constraint searched by --set",
			src: adviseBase + "advise:\n  space:\n    linger.ms: [0, 5]\n", sets: []string{"linger.ms=5"},
			want: []string{"x.yaml:5:5: linger.ms is a constraint (linger.ms=5, --set linger.ms=5) and the search never changes a constraint: drop it from producer: or from advise.space"}},
		{name: "in-flight the idempotent client refuses",
			src:  adviseBase + "client: java\nproducer: {acks: all}\nadvise:\n  space:\n    max.in.flight.requests.per.connection: [5, 6]\n",
			want: []string{"x.yaml:7:48: max.in.flight.requests.per.connection 6 is above 5, the most an idempotent producer allows, and the constraints keep idempotence on: the client would refuse it or turn idempotence off; drop 6, or write enable.idempotence: false in producer:"}},
		{name: "unknown setting in the space",
			src:  adviseBase + "advise:\n  space:\n    lingr.ms: [0, 5]\n",
			want: []string{`x.yaml:5:5: unknown producer setting "lingr.ms" in advise.space; did you mean "linger.ms"?`}},
		{name: "bad value in the space",
			src:  adviseBase + "advise:\n  space:\n    linger.ms: [0, x]\n",
			want: []string{`x.yaml:5:20: linger.ms must be an integer ≥ 0, got "x"`}},
		{name: "unknown key",
			src:  adviseBase + "advise:\n  spaces: {}\n",
			want: []string{`x.yaml:4:3: unknown key "spaces" in advise; did you mean "space"?`}},
		{name: "current contradicts a constraint",
			src:  adviseBase + "producer: {acks: all}\nadvise:\n  current: {acks: 1, linger.ms: 20}\n",
			want: []string{"x.yaml:5:13: the current settings set acks=1, but producer: fixes acks=all (a constraint the search keeps): make them agree"}},
		{name: "a secret in the inline current settings",
			src: adviseBase + "advise:\n  current: {sasl.jaas.config: x, lingr.ms: 5}\n",
			want: []string{
				"x.yaml:4:13: the current settings hold a secret (sasl.jaas.config): the search compares producer tuning, and prodlab takes security from cluster.security; drop it",
				`x.yaml:4:34: unknown producer setting "lingr.ms" in the current settings; did you mean "linger.ms"?`}},
		{name: "a matrix beside it",
			src:  adviseBase + "advise:\n  current: {linger.ms: 20}\nmatrix:\n  batch.size: [1, 2]\n",
			want: []string{"x.yaml:6:3: advise searches its own space of producer settings: a matrix beside it has no place (put the settings to search in advise.space, the fixed ones in producer:)"}},
		{name: "compare beside it",
			src:  adviseBase + "advise: {}\ncompare: [{axis: linger.ms}]\n",
			want: []string{"x.yaml:4:11: advise plans its own comparisons (the pick against your current settings and the defaults): drop compare"}},
		{name: "a burst",
			src:  "name: x\nadvise:\n  space:\n    linger.ms: [0, 5]\n",
			want: []string{"x.yaml:2:1: advise probes steady-state windows: set workload.duration.s (e.g. 3) and workload.warmup.s (e.g. 1); a burst of workload.records cannot be one"}},
		{name: "advise key by --set without an advise section",
			src: adviseBase + "capacity: {slo: {p99.ms: 50}}\n", sets: []string{"advise.precision=0.03"},
			want: []string{"--set advise.precision=0.03: advise.precision: the experiment has no advise section (capacity.precision sets a capacity search's)"}},
		{name: "a fixed rate",
			src:  "name: x\nworkload: {duration.s: 2, warmup.s: 1, rate: 100}\nadvise:\n  space:\n    linger.ms: [0, 5]\n",
			want: []string{"x.yaml:2:40: workload.rate cannot be set beside advise objective sustainable.rate: the search chooses each probe's rate (drop workload.rate, or set advise.objective to one judged at a fixed rate, such as cpu.total)"}},
		// Issue 46: a capacity section beside advise was silently ignored.
		{name: "capacity beside it",
			src:  adviseBase + "capacity: {slo: {p99.ms: 100}}\nadvise:\n  space: {linger.ms: [0, 5]}\n",
			want: []string{"x.yaml:3:1: capacity: and advise: cannot share a file: advise runs its own capacity search of each candidate, and capacity: would be ignored (move its slo, keep.up, precision and budget into advise:, and drop capacity:)"}},
		// One value in two spellings is one candidate twice.
		{name: "one value in two spellings",
			src: adviseBase + "advise:\n  space: {acks: [all, \"-1\"], linger.ms: [5, 05]}\n",
			want: []string{
				"x.yaml:4:23: advise.space acks lists one value twice: all and -1 are the same setting (drop one)",
				"x.yaml:4:45: advise.space linger.ms lists one value twice: 5 and 05 are the same setting (drop one)"}},
		{name: "acks the idempotence constraint forbids",
			src: adviseBase + "producer: {enable.idempotence: true}\nadvise:\n  space: {acks: [0, 1, all]}\n",
			want: []string{
				"x.yaml:5:18: advise.space acks 0 contradicts the constraint enable.idempotence=true, which requires acks=all: every client refuses that candidate; drop 0, or enable.idempotence from producer:",
				"x.yaml:5:21: advise.space acks 1 contradicts the constraint enable.idempotence=true, which requires acks=all: every client refuses that candidate; drop 1, or enable.idempotence from producer:"}},
		{name: "idempotence the acks constraint forbids",
			src:  adviseBase + "producer: {acks: 1}\nadvise:\n  space: {enable.idempotence: [true, false]}\n",
			want: []string{"x.yaml:5:32: advise.space enable.idempotence true contradicts the constraint acks=1: idempotence requires acks=all, and every client refuses that candidate; drop true, or acks from producer:"}},
		{name: "idempotence crossed with acks 0",
			src:  adviseBase + "advise:\n  space: {acks: [0, all], enable.idempotence: [true, false]}\n",
			want: []string{"x.yaml:4:48: advise.space crosses enable.idempotence true with acks 0, a candidate every client refuses (idempotence requires acks=all): search one of them, or fix the other in producer:"}},
		// Ten settings of ten values are ten billion candidates: refused
		// before they are built (they filled 23 GB of memory).
		{name: "a space of too many candidates",
			src: adviseBase + "advise:\n  space:\n" + func() string {
				var b strings.Builder
				for _, k := range []string{"linger.ms", "batch.size", "buffer.memory", "delivery.timeout.ms", "request.timeout.ms", "max.block.ms", "metadata.max.age.ms", "send.buffer.bytes", "receive.buffer.bytes", "retry.backoff.ms"} {
					b.WriteString("    " + k + ": [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000]\n")
				}
				return b.String()
			}(),
			want: []string{"x.yaml:4:3: advise.space makes over 1000000 candidates (every combination of its values, and the defaults and current settings), more than the limit of 1000; drop values or settings from advise.space"}},
		{name: "a space just over the limit",
			src:  adviseBase + "advise:\n  space:\n    linger.ms: [0,1,2,3,4,5,6,7,8,9,10]\n    batch.size: [1,2,3,4,5,6,7,8,9,10,11]\n    buffer.memory: [1,2,3,4,5,6,7,8,9,10,11]\n",
			want: []string{"x.yaml:4:3: advise.space makes 1332 candidates (every combination of its values, and the defaults and current settings), more than the limit of 1000; drop values or settings from advise.space"}},
		// Messages name the section the user wrote, not the capacity
		// search advise runs.
		{name: "advise settings named as written",
			src: adviseBase + "advise:\n  budget: soon\n  precision: 2\n  keep.up: 0\n  slo: {p99.ms: -1}\n",
			want: []string{
				`x.yaml:4:11: advise.budget must be a duration like 10m, 90s or 1h30m (or seconds), from 1s to 7 days, got "soon"`,
				`x.yaml:5:14: advise.precision must be a relative half-width in 0.001..1 (1 excluded), e.g. 0.05 for ±5 %, got "2"`,
				`x.yaml:6:12: advise.keep.up must be a share of the offered rate in 0.5..1, e.g. 0.99, got "0"`,
				`x.yaml:7:17: advise.slo.p99.ms must be a number of milliseconds in 0.01..3600000, got "-1"`}},
		{name: "advise setting by --set named as written",
			src: adviseBase + "advise: {}\n", sets: []string{"advise.precision=2"},
			want: []string{`--set advise.precision=2: advise.precision must be a relative half-width in 0.001..1 (1 excluded), e.g. 0.05 for ±5 %, got "2"`}},
		{name: "trials beside it",
			src:  adviseBase + "trials: 5\nadvise:\n  space: {linger.ms: [0, 5]}\n",
			want: []string{"x.yaml:3:1: trials does not apply beside advise, which decides its own probes: drop trials (the search stops at advise.precision or advise.budget)"}},
		{name: "a duet",
			src:  adviseBase + "schedule: duet\nadvise:\n  space: {linger.ms: [0, 5]}\n",
			want: []string{"x.yaml:3:1: schedule: duet pairs fixed trials round by round; advise races its candidates on one cluster (drop schedule)"}},
	})
}

// TestAdviseCurrentFile: the current settings come from a .properties
// file; an unknown property is refused at its line with the closest name,
// a secret is refused, and a good file gives the current candidate.
func TestAdviseCurrentFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := write("bad.properties", "# mine\nacks=all\nbufer.memory=1000\nsasl.jaas.config=x\n")
	src := adviseBase + "advise:\n  space:\n    linger.ms: [0, 5]\n  current: " + bad + "\n"
	got := parseErrors(t, src)
	want := []string{
		bad + `:3:1: unknown producer setting "bufer.memory" in the current settings; did you mean "buffer.memory"?`,
		bad + ":4:1: the current settings hold a secret (sasl.jaas.config): the search compares producer tuning, and prodlab takes security from cluster.security; drop it",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	good := write("good.properties", "linger.ms=5\nbuffer.memory=1048576\n")
	e, err := Parse("x.yaml", []byte(adviseBase+"advise:\n  space:\n    linger.ms: [0, 5]\n"), []string{"advise.current=" + good})
	if err != nil {
		t.Fatal(err)
	}
	scs, err := e.Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	// The point equal to the current settings is left out; the other
	// point keeps the current settings the space does not search.
	gotIDs := map[string]map[string]string{}
	for _, sc := range scs {
		gotIDs[sc.ID] = sc.Settings()
	}
	wantIDs := map[string]map[string]string{
		"candidate=current":     {"linger.ms": "5", "buffer.memory": "1048576"},
		"candidate=defaults":    {},
		"candidate=linger.ms=0": {"linger.ms": "0", "buffer.memory": "1048576"},
	}
	if !reflect.DeepEqual(gotIDs, wantIDs) {
		t.Errorf("candidates = %v, want %v", gotIDs, wantIDs)
	}
}

// TestAdviseCandidates: the space's cross product with the last setting
// varying fastest, after current and defaults; the constraints stay in
// every candidate and out of its settings; the default space applies
// when none is given; the resolved YAML parses back to the same
// candidates.
func TestAdviseCandidates(t *testing.T) {
	src := adviseBase + "producer: {acks: all}\nadvise:\n  slo: {p99.ms: 50}\n  space:\n    batch.size: [16384, 65536]\n    linger.ms: [0, 5]\n  current: {linger.ms: 20}\n"
	e, err := Parse("x.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(e *Experiment, acks string) []string {
		scs, err := e.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, sc := range scs {
			if sc.Exp.Producer["acks"] != acks {
				t.Errorf("%s: acks %q, want the constraint %q", sc.ID, sc.Exp.Producer["acks"], acks)
			}
			if _, in := sc.Settings()["acks"]; in {
				t.Errorf("%s counts the constraint among its settings", sc.ID)
			}
			out = append(out, sc.ID)
		}
		return out
	}
	want := []string{"candidate=current", "candidate=defaults",
		"candidate=batch.size=16384,linger.ms=0", "candidate=batch.size=16384,linger.ms=5",
		"candidate=batch.size=65536,linger.ms=0", "candidate=batch.size=65536,linger.ms=5"}
	if got := ids(e, "all"); !reflect.DeepEqual(got, want) {
		t.Errorf("scenarios = %v, want %v", got, want)
	}
	if e.Capacity.SLO["p99"] != 50 || e.Capacity.BudgetS != DefaultAdviseBudgetS {
		t.Errorf("capacity = %+v, want the SLO p99 ≤ 50 and the advise budget", e.Capacity)
	}
	y, err := e.YAML()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("x.yaml", y, nil)
	if err != nil {
		t.Fatalf("resolved YAML does not parse: %v\n%s", err, y)
	}
	if got := ids(back, "all"); !reflect.DeepEqual(got, want) {
		t.Errorf("round trip: scenarios = %v, want %v\n%s", got, want, y)
	}
	def, err := Parse("x.yaml", []byte(adviseBase+"advise: {}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, n := len(ids(def, "")), 1+2*3*3*2; got != n {
		t.Errorf("default space gives %d scenarios, want %d (defaults and 36 points)", got, n)
	}
	// franz-go's idempotent producer fixes 5 in flight: the default space
	// leaves in-flight out rather than refusing the file; with idempotence
	// off it searches it.
	for _, tt := range []struct {
		producer string
		want     int
	}{{"", 1 + 2*3*3}, {"producer: {enable.idempotence: false}\n", 1 + 2*3*3*2}} {
		fr, err := Parse("x.yaml", []byte(adviseBase+"client: franz-go\n"+tt.producer+"advise: {}\n"), nil)
		if err != nil {
			t.Fatalf("franz-go with the default space: %v", err)
		}
		if got := len(ids(fr, fr.Producer["acks"])); got != tt.want {
			t.Errorf("franz-go %q: %d scenarios, want %d", tt.producer, got, tt.want)
		}
	}
}

// TestAdviseRateObjective: a rate objective runs rounds at the fixed
// rate — trials: auto with advise's precision and budget, no capacity
// search — keeps the SLO and keep.up the candidates must hold, and
// survives the resolved YAML's round trip.
func TestAdviseRateObjective(t *testing.T) {
	src := rateBase + "advise:\n  objective: p99.intended\n  slo: {p99.ms: 40}\n  keep.up: 0.98\n  precision: 0.03\n  budget: 9m\n  space:\n    linger.ms: [0, 5]\n"
	check := func(e *Experiment, what string) {
		t.Helper()
		if e.Mode().Name() != "advise-rate" || e.Capacity.On || !e.TrialsAuto {
			t.Errorf("%s: mode %s, capacity on %v, trials auto %v; want advise-rate run as trials: auto", what, e.Mode().Name(), e.Capacity.On, e.TrialsAuto)
		}
		if e.Precision != 0.03 || e.BudgetS != 540 || e.Capacity.SLO["p99"] != 40 || e.Capacity.KeepUp != 0.98 {
			t.Errorf("%s: precision %g budget %g SLO %v keep.up %g, want 0.03, 540, p99 40, 0.98", what, e.Precision, e.BudgetS, e.Capacity.SLO, e.Capacity.KeepUp)
		}
		scs, err := e.Scenarios()
		if err != nil || len(scs) != 3 {
			t.Errorf("%s: %d scenarios (%v), want defaults and 2 points", what, len(scs), err)
		}
		for _, sc := range scs {
			if sc.Exp.Workload.Rate != 5000 {
				t.Errorf("%s: %s at rate %g, want 5000", what, sc.ID, sc.Exp.Workload.Rate)
			}
		}
	}
	e, err := Parse("x.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	check(e, "parsed")
	if txt := e.RoundsText(); !strings.Contains(txt, "at 5000 msg/s") || !strings.Contains(txt, "p99.intended") {
		t.Errorf("rounds text %q does not say the rate and the objective", txt)
	}
	y, err := e.YAML()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("x.yaml", y, nil)
	if err != nil {
		t.Fatalf("resolved YAML does not parse: %v\n%s", err, y)
	}
	check(back, "round trip")
}

// TestAdviseSetAliases: --set advise.precision, advise.budget,
// advise.keep.up and advise.slo.* set what the same keys set in the
// advise section, for either kind of objective.
func TestAdviseSetAliases(t *testing.T) {
	sets := []string{"advise.precision=0.03", "advise.budget=9m", "advise.slo.p99.ms=40", "advise.keep.up=0.98"}
	for _, tt := range []struct {
		name, src string
		got       func(e *Experiment) (precision, budget float64)
	}{
		{"sustainable rate", adviseBase + "advise:\n  space:\n    linger.ms: [0, 5]\n",
			func(e *Experiment) (float64, float64) { return e.Capacity.Precision, e.Capacity.BudgetS }},
		{"rate objective", rateBase + "advise:\n  objective: p99.intended\n  space:\n    linger.ms: [0, 5]\n",
			func(e *Experiment) (float64, float64) { return e.Precision, e.BudgetS }},
		// The section made by --set alone, after the aliases.
		{"advise by --set", rateBase, func(e *Experiment) (float64, float64) { return e.Precision, e.BudgetS }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sets := sets
			if tt.src == rateBase {
				sets = append(slices.Clip(sets), "advise.objective=p99.intended")
			}
			e, err := Parse("x.yaml", []byte(tt.src), sets)
			if err != nil {
				t.Fatal(err)
			}
			if p, b := tt.got(e); p != 0.03 || b != 540 || e.Capacity.SLO["p99"] != 40 || e.Capacity.KeepUp != 0.98 {
				t.Errorf("precision %g budget %g SLO %v keep.up %g, want 0.03, 540, p99 40, 0.98", p, b, e.Capacity.SLO, e.Capacity.KeepUp)
			}
		})
	}
}
