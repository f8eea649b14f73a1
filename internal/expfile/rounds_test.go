package expfile

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestRoundsValidation covers the bad inputs of the run-level settings:
// each is refused before anything starts, at its position.
func TestRoundsValidation(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		// precision and budget only mean something under trials: auto.
		{"precision without auto", "name: x\ntrials: 3\nprecision: 0.02\nbudget: 5m\n", []string{
			`x.yaml:3:1: precision applies to trials: auto or lives: auto, but trials is 3 (set trials: auto or lives: auto, or drop precision)`,
			`x.yaml:4:1: budget applies to trials: auto or lives: auto, but trials is 3 (set trials: auto or lives: auto, or drop budget)`,
		}},
		// precision is a fraction in (0, 1].
		{"precision range", "name: x\ntrials: auto\nprecision: 0\n", []string{`x.yaml:3:12: precision must be a relative half-width in 0.001..1 (1 excluded), e.g. 0.05 for ±5 %, got "0"`}},
		// A budget must be a duration.
		{"budget text", "name: x\ntrials: auto\nbudget: soon\n", []string{`x.yaml:3:9: budget must be a duration like 10m, 90s or 1h30m (or seconds), from 1s to 7 days, got "soon"`}},
		// A budget that cannot fit one round of steady-state trials.
		{"budget too small", "name: x\ntrials: auto\nbudget: 20s\nworkload: {duration.s: 10, warmup.s: 2}\nmatrix:\n  linger.ms: [0, 5]\n", []string{
			`x.yaml:3:1: budget 20s cannot fit one round: 2 scenarios × (warm-up + duration) take 24s`,
		}},
		// lives: auto's budget must fit the rounds of its first lives.
		{"budget too small for lives auto", "name: x\nlives: auto\ntrials: 2\nbudget: 20s\nworkload: {duration.s: 1, warmup.s: 0.5}\nmatrix:\n  linger.ms: [0, 5]\n", []string{
			`x.yaml:4:1: budget 20s cannot fit the 10 rounds of lives: auto's first 5 lives (2 each), not counting their warm-ups: 2 scenarios × (warm-up + duration) take 3s a round`,
		}},
		{"lives neither a number nor auto", "name: x\nlives: many\n", []string{`x.yaml:2:8: lives must be an integer in 1..20 or auto, got "many"`}},
		// The warm-up must end before the measured window does.
		{"warmup longer than duration", "name: x\nworkload: {duration.s: 5, warmup.s: 5}\n", []string{
			`x.yaml:2:27: workload.warmup.s (5) must be shorter than workload.duration.s (5)`,
		}},
		// A timeout must leave room for the trial.
		{"timeout too short", "name: x\nworkload: {duration.s: 30, timeout.s: 20}\n", []string{
			`x.yaml:2:28: workload.timeout.s (20) must exceed workload.warmup.s + workload.duration.s (30)`,
		}},
		// Under an SLO the warm-up may catch up for one more window.
		{"timeout too short for the catch-up", "name: x\nworkload: {duration.s: 10, warmup.s: 1, timeout.s: 20}\ncapacity: {slo: {p99.ms: 20}}\n", []string{
			`x.yaml:2:41: workload.timeout.s (20) must exceed workload.warmup.s + 2 × workload.duration.s (a window's catch-up after the warm-up, under an SLO) (21)`,
		}},
		// Several producers are held together the whole extra window.
		{"timeout too short for producers held together", "name: x\nworkload: {duration.s: 10, warmup.s: 1, timeout.s: 20, producers: 2}\ncapacity: {slo: {p99.ms: 20}}\n", []string{
			`x.yaml:2:41: workload.timeout.s (20) must exceed workload.warmup.s + 2 × workload.duration.s (a window's catch-up after the warm-up, under an SLO) (21)`,
		}},
		// The timeline's interval is 0 (automatic) or in 10..60000 ms.
		{"timeline interval", "name: x\ntimeline: {interval.ms: 5}\n", []string{
			`x.yaml:2:12: timeline.interval.ms must be 0 (automatic) or in 10..60000, got 5`,
		}},
		// compare names an axis that does not exist: the closest is named.
		{"compare unknown axis", "name: x\nmatrix:\n  linger.ms: [0, 5]\ncompare:\n  - axis: linger.m\n", []string{
			`x.yaml:5:11: compare axis "linger.m" is not a matrix axis; did you mean "linger.ms"?`,
		}},
		// compare names a scenario that does not exist.
		{"compare unknown scenario", "name: x\nmatrix:\n  linger.ms: [0, 5]\ncompare:\n  - {baseline: linger.ms=0, candidate: linger.ms=50}\n", []string{
			`x.yaml:5:40: compare candidate "linger.ms=50" is not a scenario of this experiment; did you mean "linger.ms=0"?`,
		}},
		// compare's baseline value must be a value of the axis.
		{"compare unknown baseline", "name: x\nmatrix:\n  linger.ms: [0, 5]\ncompare:\n  - {axis: linger.ms, baseline: 7}\n", []string{
			`x.yaml:5:33: compare baseline "7" is not a value of axis "linger.ms"; did you mean "0"?`,
		}},
		// A metric that does not exist.
		{"compare unknown metric", "name: x\nmatrix:\n  linger.ms: [0, 5]\ncompare:\n  - {axis: linger.ms, metric: throughpt}\n", []string{
			`x.yaml:5:31: compare metric must be one of throughput, mb_per_s, p50, p95, p99, p999, disk, disk.per_record, p50.intended, p95.intended, p99.intended, p999.intended, p50.e2e, p95.e2e, p99.e2e, p999.e2e, records_per_batch, cpu.client, cpu.brokers, cpu.total, zones.replication, zones.share, sustainable, got "throughpt"; did you mean "throughput"?`,
		}},
		// An entry must say what to compare.
		{"compare incomplete", "name: x\nmatrix:\n  linger.ms: [0, 5]\ncompare:\n  - {baseline: linger.ms=0}\n  - {axs: linger.ms}\n", []string{
			`x.yaml:5:5: a compare entry needs axis: KEY, or both baseline: and candidate: scenario IDs`,
			`x.yaml:6:6: unknown key "axs" in compare entry; did you mean "axis"?`,
			`x.yaml:6:5: a compare entry needs axis: KEY, or both baseline: and candidate: scenario IDs`,
		}},
		// Unlabelled repeats are still refused; only labels make an A/A pair.
		{"unlabelled repeat", "name: x\nmatrix:\n  arm:\n    - {linger.ms: 5}\n    - {linger.ms: 5, label: b}\n    - {linger.ms: 5}\n    - {linger.ms: 5, acks: all}\n    - {acks: all, linger.ms: 5}\n", []string{
			`x.yaml:6:7: duplicate value "linger.ms=5" in matrix axis "arm"`,
			`x.yaml:8:7: value "acks=all,linger.ms=5" of matrix axis "arm" repeats the settings of another value (producer.acks=all,producer.linger.ms=5)`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("x.yaml", []byte(tt.src), nil)
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("Parse error = %v, want Errors", err)
			}
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestRoundsParse checks the values of the run-level settings and the
// steady-state workload.
func TestRoundsParse(t *testing.T) {
	src := "name: x\ntrials: auto\nprecision: 0.02\nbudget: 5m\nequivalence: 0.03\nwarmup: auto\nwarmup.max.s: 30\n" +
		"workload: {duration.s: 10, warmup.s: 2}\n"
	e, err := Parse("x.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !e.TrialsAuto || e.Precision != 0.02 || e.BudgetS != 300 || e.Equivalence != 0.03 || !e.WarmupAuto || e.WarmupMaxS != 30 {
		t.Errorf("rounds = auto %v precision %g budget %g equivalence %g warmup auto %v max %g", e.TrialsAuto, e.Precision, e.BudgetS, e.Equivalence, e.WarmupAuto, e.WarmupMaxS)
	}
	scs, err := e.Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	// A duration without workload.records: the duration alone ends trials.
	if got := scs[0].Exp.Workload.Records; got != MaxRecords {
		t.Errorf("records = %d, want the cap %d", got, MaxRecords)
	}
	// 12 s of trial: about 20 timeline points of 600 ms.
	if got := scs[0].Exp.TimelineInterval(); got != 600*time.Millisecond {
		t.Errorf("timeline interval = %v, want 600ms", got)
	}
	// The resolved YAML parses back to the same settings.
	y, err := e.YAML()
	if err != nil {
		t.Fatal(err)
	}
	e2, err := Parse("x.yaml", y, nil)
	if err != nil {
		t.Fatalf("re-parse: %v\n%s", err, y)
	}
	if !e2.TrialsAuto || e2.BudgetS != 300 || e2.Precision != 0.02 || !e2.WarmupAuto || e2.Workload.DurationS != 10 {
		t.Errorf("re-parsed rounds differ:\n%s", y)
	}
	// With records set too, whichever comes first: records stay.
	e3, err := Parse("x.yaml", []byte("name: x\nworkload: {duration.s: 10, records: 5000}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if scs, _ := e3.Scenarios(); scs[0].Exp.Workload.Records != 5000 {
		t.Errorf("records = %d, want 5000", scs[0].Exp.Workload.Records)
	}
}

// TestLivesAutoParse reads lives: auto, with trials: N as the rounds of
// each life (precision and budget then apply) or trials: auto (the rule's
// fewest pairs), and writes it back.
func TestLivesAutoParse(t *testing.T) {
	tests := []struct {
		src       string
		perLife   int
		roundsYAM string
	}{
		{"name: x\nlives: auto\ntrials: 6\nprecision: 0.03\nbudget: 30m\n", 6, "trials: 6\nprecision: 0.03\nbudget: 30m0s"},
		{"name: x\nlives: AUTO\ntrials: auto\n", 8, "trials: auto\nprecision: 0.05\nbudget: 10m0s"},
	}
	for _, tt := range tests {
		e := mustParse(t, tt.src)
		if !e.LivesAuto || e.ClusterLives() != MaxLives || e.RoundsPerLife() != tt.perLife || e.LivesText() != "auto" {
			t.Errorf("%q: auto %v, lives %d, %d rounds a life, %q", tt.src, e.LivesAuto, e.ClusterLives(), e.RoundsPerLife(), e.LivesText())
		}
		y, err := e.YAML()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(y), tt.roundsYAM) || !strings.Contains(string(y), "lives: auto") {
			t.Errorf("%q wrote back:\n%s\nwant %q and lives: auto", tt.src, y, tt.roundsYAM)
		}
		if e2 := mustParse(t, string(y)); !e2.LivesAuto || e2.RoundsPerLife() != tt.perLife {
			t.Errorf("re-parsed %q: auto %v, %d rounds a life", y, e2.LivesAuto, e2.RoundsPerLife())
		}
		if got := e.RoundsText(); !strings.HasPrefix(got, "lives until every comparison is known within") {
			t.Errorf("rounds text %q", got)
		}
		if got, want := e.PlannedDuration(), time.Duration(e.BudgetS)*time.Second; got != want {
			t.Errorf("planned %v, want the budget %v (its lives' starts and warm-ups included)", got, want)
		}
	}
}

// TestComparisons expands compare: entries into planned pairs.
func TestComparisons(t *testing.T) {
	src := `name: x
matrix:
  enable.idempotence: [true, false]
  layout:
    - {label: one, cluster.brokers: 1}
    - {label: three, cluster.brokers: 3}
  arm:
    - {label: a, linger.ms: 5}
    - {label: b, linger.ms: 5}
compare:
  - {axis: enable.idempotence, published: "24,891.9 vs 24,953.4 ops/s"}
  - {axis: layout, baseline: three, metric: disk}
  - {baseline: "enable.idempotence=true,layout=one,arm=a", candidate: "enable.idempotence=true,layout=one,arm=b", question: A/A}
`
	e, err := Parse("x.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	scs, _ := e.Scenarios()
	got, err := e.Comparisons(scs)
	if err != nil {
		t.Fatal(err)
	}
	want := []Comparison{
		// Each non-baseline value of the axis, within every combination of the others.
		{"enable.idempotence=false vs enable.idempotence=true, with layout=one, arm=a", "enable.idempotence=true,layout=one,arm=a", "enable.idempotence=false,layout=one,arm=a", "24,891.9 vs 24,953.4 ops/s", "throughput"},
		{"enable.idempotence=false vs enable.idempotence=true, with layout=one, arm=b", "enable.idempotence=true,layout=one,arm=b", "enable.idempotence=false,layout=one,arm=b", "24,891.9 vs 24,953.4 ops/s", "throughput"},
		{"enable.idempotence=false vs enable.idempotence=true, with layout=three, arm=a", "enable.idempotence=true,layout=three,arm=a", "enable.idempotence=false,layout=three,arm=a", "24,891.9 vs 24,953.4 ops/s", "throughput"},
		{"enable.idempotence=false vs enable.idempotence=true, with layout=three, arm=b", "enable.idempotence=true,layout=three,arm=b", "enable.idempotence=false,layout=three,arm=b", "24,891.9 vs 24,953.4 ops/s", "throughput"},
		// A chosen baseline value, judged on bytes on disk.
		{"layout=one vs layout=three, with enable.idempotence=true, arm=a", "enable.idempotence=true,layout=three,arm=a", "enable.idempotence=true,layout=one,arm=a", "", "disk"},
		{"layout=one vs layout=three, with enable.idempotence=true, arm=b", "enable.idempotence=true,layout=three,arm=b", "enable.idempotence=true,layout=one,arm=b", "", "disk"},
		{"layout=one vs layout=three, with enable.idempotence=false, arm=a", "enable.idempotence=false,layout=three,arm=a", "enable.idempotence=false,layout=one,arm=a", "", "disk"},
		{"layout=one vs layout=three, with enable.idempotence=false, arm=b", "enable.idempotence=false,layout=three,arm=b", "enable.idempotence=false,layout=one,arm=b", "", "disk"},
		// An explicit A/A pair: labelled repeats of the same settings are allowed.
		{"A/A", "enable.idempotence=true,layout=one,arm=a", "enable.idempotence=true,layout=one,arm=b", "", "throughput"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("comparisons:\n%v\nwant:\n%v", got, want)
	}
}

// TestCatchUpTimeout: the timeout makes room for the catch-up's extra
// window only where the warm-up catches up (WarmupCatchesUp): not without
// a timed warm-up, nor without an SLO.
func TestCatchUpTimeout(t *testing.T) {
	runAccepted(t, []acceptance{
		{name: "several producers without an SLO", src: "name: x\nworkload: {duration.s: 10, warmup.s: 1, timeout.s: 20, producers: 2}\n"},
		{name: "a record-count warm-up", src: "name: x\nworkload: {duration.s: 10, warmup.records: 1000, timeout.s: 20}\ncapacity: {slo: {p99.ms: 20}}\n"},
	})
}

// TestSetTrialsOverAuto: --set trials=N over a file written with trials:
// auto runs N fixed rounds; the file's precision and budget, which only
// apply to auto, are dropped with one note, never refused; a precision
// given by --set with trials=N is still refused.
func TestSetTrialsOverAuto(t *testing.T) {
	const src = "name: x\ntrials: auto\nprecision: 0.026\nbudget: 10m\nwarmup: auto\nwarmup.max.s: 120\nmatrix: {linger.ms: [0, 5]}\n"
	for _, tc := range []struct {
		name      string
		sets      []string
		wantErr   string // "" for a plan
		wantNote  string
		wantAuto  bool
		wantTrial int
	}{
		// The README's advice: fixed rounds replace auto.
		{name: "trials=5", sets: []string{"trials=5"}, wantNote: "its precision and budget, which apply to trials: auto only, are dropped", wantTrial: 5},
		// Still auto: nothing dropped.
		{name: "no set", wantAuto: true},
		// warmup=N over warmup: auto drops the file's warmup.max.s too
		// (prodlab run --help's example on the idempotence study).
		{name: "trials and warmup", sets: []string{"trials=5", "warmup=1"}, wantNote: "its warmup.max.s, which applies to warmup: auto only, is dropped", wantTrial: 5},
		// A precision the user gives with fixed trials is a contradiction.
		{name: "trials=5 and precision", sets: []string{"trials=5", "precision=0.03"}, wantErr: "precision applies to trials: auto"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, ok := parseOrRefused(t, src, tc.sets, tc.wantErr)
			if !ok {
				return
			}
			if e.TrialsAuto != tc.wantAuto || (!tc.wantAuto && e.Trials != tc.wantTrial) {
				t.Errorf("trials auto %v n %d, want auto %v n %d", e.TrialsAuto, e.Trials, tc.wantAuto, tc.wantTrial)
			}
			note := strings.Join(e.Notes, "\n")
			if (tc.wantNote == "") != (note == "") || !strings.Contains(note, tc.wantNote) {
				t.Errorf("notes %q, want %q", note, tc.wantNote)
			}
		})
	}
}

// TestSetTrialsOverSearch: --set trials=N on a capacity search or an
// advisor, which decide their own probes, is ignored with one note; the
// same key written in the file, or a --set precision, is still refused.
func TestSetTrialsOverSearch(t *testing.T) {
	const capacity = "name: x\nworkload: {duration.s: 3, warmup.s: 1, timeout.s: 20}\ncapacity: {slo: {p99.ms: 20}}\n"
	const advise = "name: x\nworkload: {duration.s: 3, warmup.s: 1, timeout.s: 20, rate: 1000}\nadvise: {objective: p99.intended}\n"
	for _, tc := range []struct {
		name, src string
		sets      []string
		wantErr   string
		wantNote  string
	}{
		{name: "capacity", src: capacity, sets: []string{"trials=5"}, wantNote: "--set trials=5 is ignored: a capacity search decides its own probes and stops at capacity.precision or capacity.budget"},
		{name: "capacity auto", src: capacity, sets: []string{"trials=auto"}, wantNote: "--set trials=auto is ignored"},
		{name: "advise", src: advise, sets: []string{"trials=5"}, wantNote: "--set trials=5 is ignored: advise decides its own probes and stops at advise.precision or advise.budget"},
		{name: "capacity, trials in the file", src: capacity + "trials: 5\n", wantErr: "trials does not apply to a capacity search"},
		{name: "capacity, a set precision", src: capacity, sets: []string{"trials=5", "precision=0.03"}, wantErr: "precision does not apply to a capacity search"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, ok := parseOrRefused(t, tc.src, tc.sets, tc.wantErr)
			if !ok {
				return
			}
			if note := strings.Join(e.Notes, "\n"); !strings.Contains(note, tc.wantNote) {
				t.Errorf("notes %q, want %q", note, tc.wantNote)
			}
		})
	}
}

// parseOrRefused parses src with sets: with wantErr set it fails the test
// unless the parse is refused saying so, and reports false; otherwise it
// fails on any error and returns the experiment.
func parseOrRefused(t *testing.T, src string, sets []string, wantErr string) (*Experiment, bool) {
	t.Helper()
	e, err := Parse("x.yaml", []byte(src), sets)
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("err = %v, want %q", err, wantErr)
		}
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return e, true
}
