package report

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/golden"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// idem is a trial of the idempotence study: throughput divided by k.
func idem(enabled bool, inflight float64, trial int, k float64) results.Record {
	r := rec(0, "none", trial, k)
	e := "false"
	if enabled {
		e = "true"
	}
	r.Experiment, r.Run = "idempotence", "20250102-030405-idempotence"
	r.Scenario = map[string]any{"enable.idempotence": e, "max.in.flight.requests.per.connection": inflight}
	r.ScenarioKeys = []string{"enable.idempotence", "max.in.flight.requests.per.connection"}
	r.ScenarioID = "enable.idempotence=" + e + ",max.in.flight.requests.per.connection=" + formatValue(inflight)
	return r
}

// idempotenceRun is ten interleaved rounds whose shared drift (a slow
// minute moves every scenario of a round) cancels in paired ratios:
// idempotence off is within a fraction of a percent of on, one request in
// flight is 40 % slower, and a scenario of three very noisy rounds cannot
// be decided.
func idempotenceRun() []results.Record {
	var recs []results.Record
	for i := 0; i < 10; i++ {
		drift := 1 + 0.08*math.Sin(float64(i))
		alt := float64(1 - 2*(i%2))
		recs = append(recs,
			idem(true, 5, i, drift),
			idem(false, 5, i, drift*(1+0.003*alt)),
			idem(true, 1, i, drift/0.6*(1+0.01*alt)))
		if i < 3 {
			recs = append(recs, idem(false, 1, i, drift*(1+0.25*alt)))
		}
	}
	return recs
}

// idempotencePlan asks every kind of question.
var idempotencePlan = results.Plan{Level: 0.95, Margin: 0.05, Precision: 0.02, Comparisons: []results.PlannedComparison{
	{Question: "Does idempotence cost throughput?", Baseline: "enable.idempotence=true,max.in.flight.requests.per.connection=5",
		Candidate: "enable.idempotence=false,max.in.flight.requests.per.connection=5",
		Published: "Confluent (2019): idempotence costs under 3 % of throughput"},
	{Question: "What does one request in flight cost?", Baseline: "enable.idempotence=true,max.in.flight.requests.per.connection=5",
		Candidate: "enable.idempotence=true,max.in.flight.requests.per.connection=1"},
	{Question: "Idempotence off with one request in flight?", Baseline: "enable.idempotence=true,max.in.flight.requests.per.connection=5",
		Candidate: "enable.idempotence=false,max.in.flight.requests.per.connection=1"},
	{Question: "A scenario that never ran", Baseline: "enable.idempotence=true,max.in.flight.requests.per.connection=5",
		Candidate: "enable.idempotence=true,max.in.flight.requests.per.connection=2"},
}}

func TestFindings(t *testing.T) {
	got := Findings(idempotenceRun(), idempotencePlan)
	want := []struct {
		kind, test string
		sentence   string
	}{
		// Within ±5 %, shown by two one-sided tests on 10 paired rounds.
		{stats.KindEquivalent, stats.PairedTest, "enable.idempotence=false is equivalent within ±5 % to enable.idempotence=true: "},
		// 40 % fewer records per second: slower, named against the baseline.
		{stats.KindSlower, stats.PairedTest, "max.in.flight.requests.per.connection=1 is slower than max.in.flight.requests.per.connection=5 by "},
		// Three rounds, fewer than the stopping rule's minimum of 8: not
		// enough to answer, whatever the interval.
		{stats.KindInconclusive, stats.PairedTest, "enable.idempotence=false max.in.flight.requests.per.connection=1 against enable.idempotence=true max.in.flight.requests.per.connection=5 is inconclusive, not enough rounds: 3 of the 8 the rule needs; [-54.4 %, +97.3 %] (paired, 95 %, 3 rounds)"},
		// No such scenario in the run.
		{stats.KindNotTested, "", "enable.idempotence=true,max.in.flight.requests.per.connection=2 against enable.idempotence=true,max.in.flight.requests.per.connection=5 was not tested: "},
	}
	if len(got) != len(want) {
		t.Fatalf("%d findings, want %d", len(got), len(want))
	}
	for i, w := range want {
		f := got[i]
		if f.Kind != w.kind || f.Verdict.Test != w.test || !strings.HasPrefix(f.Sentence, w.sentence) {
			t.Errorf("finding %d = %s/%s %q, want %s/%s %q…", i, f.Kind, f.Verdict.Test, f.Sentence, w.kind, w.test, w.sentence)
		}
		// Every answer names its baseline in full.
		if !strings.HasSuffix(f.Sentence, "; baseline "+idempotencePlan.Comparisons[i].Baseline) {
			t.Errorf("finding %d does not end with its baseline: %q", i, f.Sentence)
		}
	}
	if !strings.Contains(got[0].Sentence, "(paired, 95 %, 10 rounds)") {
		t.Errorf("finding 0 does not say its test, level and rounds: %q", got[0].Sentence)
	}
}

func TestFindingsWelch(t *testing.T) {
	// Trials that do not share round numbers cannot be paired: Welch's test.
	var recs []results.Record
	for i := 0; i < 4; i++ {
		recs = append(recs, idem(true, 5, i, 1+0.01*float64(i)), idem(true, 1, i+10, 1.6+0.01*float64(i)))
	}
	p := results.Plan{Comparisons: []results.PlannedComparison{{Baseline: idempotencePlan.Comparisons[1].Baseline, Candidate: idempotencePlan.Comparisons[1].Candidate}}}
	f := Findings(recs, p)
	if len(f) != 1 || f[0].Verdict.Test != stats.WelchTest || f[0].Kind != stats.KindSlower || !strings.Contains(f[0].Sentence, "4 and 4 trials") {
		t.Errorf("Findings = %+v, want a Welch verdict 'slower' on 4 and 4 trials", f)
	}
}

// TestFindingsMinPairs: four clearly slower rounds are "not enough
// rounds" when the stopping rule chose the rounds (the plan has a
// Precision), and stand, naming the shortfall and the count, when the
// user fixed them.
func TestFindingsMinPairs(t *testing.T) {
	var recs []results.Record
	for i := 0; i < 4; i++ {
		recs = append(recs, idem(true, 5, i, 1+0.01*float64(i)), idem(true, 1, i, 1.6+0.01*float64(i)))
	}
	c := []results.PlannedComparison{{Baseline: idempotencePlan.Comparisons[1].Baseline, Candidate: idempotencePlan.Comparisons[1].Candidate}}
	tests := []struct {
		name      string
		precision float64
		kind      string
		text      string // in the sentence
	}{
		{"trials: auto", 0.05, stats.KindInconclusive, " is inconclusive, not enough rounds: 4 of the 8 the rule needs; ["},
		{"trials: 4", 0, stats.KindSlower, "(paired, 95 %, fewer than 8 pairs, 4 rounds)"},
	}
	for _, tt := range tests {
		f := Findings(recs, results.Plan{Level: 0.95, Margin: 0.05, Precision: tt.precision, Comparisons: c})
		if len(f) != 1 || f[0].Kind != tt.kind || !strings.Contains(f[0].Sentence, tt.text) {
			t.Errorf("%s: Findings = %+v, want %s with %q", tt.name, f, tt.kind, tt.text)
		}
	}
}

func TestRenderFindings(t *testing.T) {
	tests := []struct {
		name, format string
		plan         *results.Plan
	}{
		// The table, then the Findings with the published figure.
		{"table", FormatTable, &idempotencePlan},
		{"markdown", FormatMarkdown, &idempotencePlan},
		// A plan without comparisons says so; no plan, no section (the
		// other goldens).
		{"table-empty-plan", FormatTable, &results.Plan{Level: 0.95, Margin: 0.05}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := RenderPlan(&b, tt.format, idempotenceRun(), tt.plan); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "findings-"+tt.name+".golden", b.Bytes())
		})
	}
	// Without a plan the output is Render's.
	var with, without bytes.Buffer
	_ = RenderPlan(&with, FormatTable, idempotenceRun(), nil)
	_ = Render(&without, FormatTable, idempotenceRun())
	if with.String() != without.String() || strings.Contains(with.String(), "Findings") {
		t.Error("RenderPlan without a plan differs from Render")
	}
}

func TestHTMLFindings(t *testing.T) {
	var b bytes.Buffer
	if err := HTML(&b, HTMLInput{Env: testEnv, Plan: &idempotencePlan, Records: idempotenceRun()}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	fi, ri := strings.Index(page, "<h2>Findings</h2>"), strings.Index(page, "<h2>Results</h2>")
	// Near the top: before the results table.
	if fi < 0 || fi > ri {
		t.Fatalf("Findings section missing or after the results (at %d, results at %d)", fi, ri)
	}
	for _, want := range []string{"Does idempotence cost throughput?", "is equivalent within ±5 % to enable.idempotence=true",
		"Published: Confluent (2019): idempotence costs under 3 % of throughput", `<li class="slower">`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// The findings picture opens the section, before the answers in
	// words, with one row per finding.
	if pi, li := strings.Index(page, `<svg id="`+forestID+`"`), strings.Index(page, `<ol class="findings">`); pi < fi || pi > li {
		t.Errorf("findings picture at %d, want between the heading (%d) and the list (%d)", pi, fi, li)
	}
	if n := strings.Count(page, `<g class="forest-row `); n != len(idempotencePlan.Comparisons) {
		t.Errorf("findings picture has %d rows, want %d", n, len(idempotencePlan.Comparisons))
	}
	golden.Check(t, "html-findings.golden", b.Bytes())
	// No plan, no section.
	b.Reset()
	if err := HTML(&b, HTMLInput{Env: testEnv, Records: idempotenceRun()}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Findings") {
		t.Error("page without a plan has a Findings section")
	}
}

// TestFindingsJSON: the answers are machine-readable. findings.json, which
// WriteRun writes, holds every Finding in plan order with the level and
// margin; the json format keeps its array of scenarios and adds to each the
// Findings whose candidate it is, so a script reading the array is
// unaffected and one gathering "findings" gets every answer of a scenario
// that ran.
func TestFindingsJSON(t *testing.T) {
	dir := t.TempDir()
	if err := results.WritePlan(dir, idempotencePlan); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteRun(dir, idempotenceRun(), &out, FormatJSON); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(filepath.Join(dir, results.FindingsFile))
	if err != nil {
		t.Fatal(err)
	}
	var ff struct {
		Level, Margin float64
		Findings      []map[string]any
	}
	if err := json.Unmarshal(file, &ff); err != nil {
		t.Fatal(err)
	}
	var scs []map[string]any
	if err := json.Unmarshal(out.Bytes(), &scs); err != nil {
		t.Fatalf("the json format is no longer an array of scenarios: %v", err)
	}
	var gathered []any
	for _, sc := range scs {
		if fs, ok := sc["findings"].([]any); ok {
			gathered = append(gathered, fs...)
		}
	}
	var firstSentence any
	if len(gathered) > 0 {
		firstSentence = gathered[0].(map[string]any)["sentence"]
	}
	tests := []struct {
		name      string
		got, want any
	}{
		// The keys scripts read (the verdict's are stats.Verdict's).
		{"keys", slices.Sorted(maps.Keys(ff.Findings[0])), []string{"baseline", "baseline_trials", "candidate", "candidate_trials",
			"kind", "metric", "published", "question", "sentence", "title", "verdict"}},
		{"level", ff.Level, 0.95},
		{"margin", ff.Margin, 0.05},
		{"findings in file", len(ff.Findings), len(idempotencePlan.Comparisons)},
		{"title", ff.Findings[0]["title"], "Does idempotence cost throughput?"},
		{"metric", ff.Findings[0]["metric"], "throughput"},
		{"kind", ff.Findings[0]["kind"], stats.KindEquivalent},
		{"pairs", ff.Findings[0]["verdict"].(map[string]any)["pairs"], 10.0},
		{"published", ff.Findings[0]["published"], idempotencePlan.Comparisons[0].Published},
		{"candidate", ff.Findings[1]["candidate"], idempotencePlan.Comparisons[1].Candidate},
		{"baseline trials", ff.Findings[1]["baseline_trials"], 10.0},
		{"slower", ff.Findings[1]["kind"], stats.KindSlower},
		// Not tested: no difference is claimed, not even zero.
		{"not tested diff", ff.Findings[3]["verdict"].(map[string]any)["diff"], nil},
		// The json format: scenarios first (keys unchanged), and the
		// Findings of the three candidates that ran.
		{"scenario keys kept", scs[0]["id"], "enable.idempotence=true,max.in.flight.requests.per.connection=5"},
		{"findings in the json format", len(gathered), 3},
		{"same answers", firstSentence, ff.Findings[0]["sentence"]},
		{"baseline has none", scs[0]["findings"], nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !reflect.DeepEqual(tt.got, tt.want) {
				t.Errorf("got %#v, want %#v", tt.got, tt.want)
			}
		})
	}
}

// TestDuetHint: a run that could have run as schedule: duet is told so
// beside an undecided finding, in every format; not when it could not, nor
// when every finding is decided.
func TestDuetHint(t *testing.T) {
	const hint = "schedule=duet runs each comparison"
	decided := idempotencePlan
	decided.Comparisons = idempotencePlan.Comparisons[1:2] // one request in flight: slower
	tests := []struct {
		name       string
		plan       results.Plan
		duet, want bool
	}{
		{"undecided, duet would run", idempotencePlan, true, true},
		{"undecided, duet would not run", idempotencePlan, false, false},
		{"all decided", decided, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.plan
			p.DuetWouldRun = tt.duet
			for _, format := range []string{FormatTable, FormatMarkdown} {
				var b bytes.Buffer
				if err := RenderPlan(&b, format, idempotenceRun(), &p); err != nil {
					t.Fatal(err)
				}
				if got := strings.Contains(b.String(), hint); got != tt.want {
					t.Errorf("%s: hint shown %v, want %v", format, got, tt.want)
				}
			}
			var b bytes.Buffer
			if err := HTML(&b, HTMLInput{Env: testEnv, Plan: &p, Records: idempotenceRun()}); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(b.String(), hint); got != tt.want {
				t.Errorf("html: hint shown %v, want %v", got, tt.want)
			}
		})
	}
}

// TestPrecisionHint: a finding that met a precision wider than the
// decisive one and is still inconclusive is told which precision decides;
// not when it is not precise, is decided, or the precision decides.
func TestPrecisionHint(t *testing.T) {
	// verdict is a paired verdict of 20 rounds centred on ln ratio c whose
	// 95 % interval is ±w in log space.
	verdict := func(c, w float64) stats.Verdict {
		s := w * math.Sqrt(20) / stats.TQuantile(0.975, 19) * math.Sqrt(19.0/20)
		var a, b []float64
		for i := range 20 {
			a = append(a, 1)
			b = append(b, math.Exp(c+s*float64(1-2*(i%2))))
		}
		return stats.ComparePaired(a, b, stats.Options{})
	}
	tests := []struct {
		name      string
		precision float64
		v         stats.Verdict
		want      string
	}{
		{"precise and undecided", 0.03, verdict(0.027, 0.028), "Undecided though precise: an interval within ±3 % can lie across both 0 and the reach of the ±5 % equivalence margin; precision: 0.026 or narrower"},
		{"not precise", 0.03, verdict(0.028, 0.06), ""},
		{"decided", 0.03, verdict(0.06, 0.028), ""},
		{"not precise at a decisive precision", 0.026, verdict(0.027, 0.028), ""},
		{"no precision planned", 0, verdict(0.027, 0.028), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want != "" && tt.v.Kind != stats.KindInconclusive {
				t.Fatalf("the case's verdict is %s, want inconclusive: %s", tt.v.Kind, tt.v.Text)
			}
			v := view{plan: &results.Plan{Level: 0.95, Margin: 0.05, Precision: tt.precision},
				findings: []Finding{{Kind: tt.v.Kind, Verdict: tt.v}}}
			got := v.precisionHint()
			if (tt.want == "") != (got == "") || !strings.HasPrefix(got, tt.want) {
				t.Errorf("hint %q, want one starting %q", got, tt.want)
			}
		})
	}
}

// TestOpenHint: the one line under the Findings that says how many
// answers stay open and how many rounds they would need.
func TestOpenHint(t *testing.T) {
	open := func(n int) Finding {
		return Finding{Kind: stats.KindInconclusive, Verdict: stats.Verdict{MoreRounds: n}}
	}
	decided := Finding{Kind: stats.KindFaster}
	for _, tc := range []struct {
		name string
		fs   []Finding
		want string
	}{
		{"all decided", []Finding{decided, decided}, ""},
		{"one open", []Finding{decided, open(14)}, "Open: 1 of 2 answers is inconclusive (its interval is still wider than the equivalence margin when the run stopped); about 14 more rounds would decide it at the spread seen."},
		{"several open", []Finding{open(3), decided, open(444), open(-1)}, "Open: 3 of 4 answers are inconclusive (their intervals are still wider than the equivalence margin when the run stopped); at the spread seen the nearest needs about 3 more rounds, the farthest about 444 more rounds."},
		{"none estimable", []Finding{open(-1)}, "Open: 1 of 1 answers is inconclusive (its interval is still wider than the equivalence margin when the run stopped); how many more rounds would decide it cannot be estimated."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (&view{findings: tc.fs}).openHint(); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
