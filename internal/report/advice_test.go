package report

import (
	"github.com/prodlab/prodlab/internal/driver"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/golden"
	"github.com/prodlab/prodlab/internal/results"
)

// adviceProbes are a capacity search's probes of scenario id with its
// boundary at rate b: a ceiling at 1.3 b, then n probes either side,
// passing below the boundary and failing above it, with the client
// figures the advice explains the pick with.
func adviceProbes(id string, b float64, n int, perBatch float64) []results.Record {
	recs := []results.Record{{ScenarioID: id, Scenario: map[string]any{"candidate": strings.TrimPrefix(id, "candidate=")},
		Status: results.StatusOK, RecordSize: 1000, Throughput: results.Throughput{RecordsPerS: 1.3 * b}, Probe: &results.Probe{Ceiling: true}}}
	for i := range n {
		f := 1 + 0.03*float64(i%4+1)
		if i%2 == 1 {
			f = 1 / f
		}
		r := b * f
		recs = append(recs, results.Record{ScenarioID: id, Scenario: recs[0].Scenario, Trial: i + 1, Status: results.StatusOK, RecordSize: 1000,
			Records: results.Records{Sent: 4000, Acked: 4000}, ProduceRequests: int64(4000 / perBatch), RecordsPerBatch: perBatch,
			Throughput: results.Throughput{RecordsPerS: r}, LatencyIntendedMs: &results.Latency{P99: 40},
			Load: &results.Load{OfferedRecordsPerS: r, Achieved: 1}, Probe: &results.Probe{Pass: r < b}})
	}
	return recs
}

// TestAdviceRendering: the advice after the capacity table in the
// terminal and in Markdown, and advice.properties, against golden files.
func TestAdviceRendering(t *testing.T) {
	var recs []results.Record
	recs = append(recs, adviceProbes("candidate=current", 5000, 24, 16)...)
	recs = append(recs, adviceProbes("candidate=defaults", 5200, 24, 16)...)
	recs = append(recs, adviceProbes("candidate=linger.ms=5", 20000, 24, 61)...)
	recs = append(recs, adviceProbes("candidate=linger.ms=20", 19900, 24, 70)...)
	plan := &results.Plan{Level: 0.95, Margin: 0.05,
		Capacity: &results.CapacityPlan{SLO: map[string]float64{"p99": 50}, KeepUp: 0.99, Precision: 0.05, BudgetS: 1200},
		Advise: &results.AdvicePlan{Objective: "sustainable.rate", Current: "candidate=current", Defaults: "candidate=defaults",
			Constraints: map[string]string{"acks": "all"}, Space: []results.AdviceAxis{{Key: "linger.ms", Values: []string{"5", "20"}}},
			Candidates: []results.AdviceCandidate{
				{ScenarioID: "candidate=current", Settings: map[string]string{"linger.ms": "0"}},
				{ScenarioID: "candidate=defaults", Settings: map[string]string{}},
				{ScenarioID: "candidate=linger.ms=5", Settings: map[string]string{"linger.ms": "5"}},
				{ScenarioID: "candidate=linger.ms=20", Settings: map[string]string{"linger.ms": "20"}},
			}}}
	for _, f := range []struct{ format, file string }{{FormatTable, "advice-table.golden"}, {FormatMarkdown, "advice-markdown.golden"}} {
		var b strings.Builder
		if err := RenderPlan(&b, f.format, recs, plan); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, f.file, []byte(b.String()))
	}
	dir := writtenAdvice(t, recs, plan, "advice-properties.golden")
	a, ok, err := results.ReadAdvice(dir)
	if err != nil || !ok || a.Pick == nil || !a.Recommend {
		t.Fatalf("advice.json: %+v, %v, %v: want a recommended pick", a, ok, err)
	}
	// Every probe here sees p99 40 ms, so the front is the fastest
	// candidate alone.
	var front []string
	for _, c := range a.Candidates {
		if c.Pareto {
			front = append(front, c.ScenarioID)
		}
	}
	if len(a.Candidates) != 4 || strings.Join(front, " ") != "candidate=linger.ms=5" {
		t.Errorf("candidates %+v: want 4, the front candidate=linger.ms=5", a.Candidates)
	}
	var page strings.Builder
	if err := HTML(&page, HTMLInput{Plan: plan, Records: recs}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<h2>Advice</h2>`, `id="chart-advice"`, "Pareto front", "use the pick: its sustainable rate is"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
}

// TestAdviceRateRendering: a rate objective's advice (the lowest p99 at a
// fixed rate, franz-go) in the terminal, and its advice.properties with
// the kgo option above each property, against golden files.
func TestAdviceRateRendering(t *testing.T) {
	var recs []results.Record
	for _, c := range []struct {
		id       string
		p99, cpu float64
	}{{"candidate=current", 100, 600}, {"candidate=defaults", 35, 1200}, {"candidate=linger.ms=0", 25, 2200}, {"candidate=linger.ms=5", 32, 1600}} {
		for i := range 10 {
			f := 1 + 0.02*float64(i%3-1)
			recs = append(recs, results.Record{ScenarioID: c.id, Scenario: map[string]any{"candidate": strings.TrimPrefix(c.id, "candidate=")},
				Trial: i, Status: results.StatusOK, RecordSize: 1000, Records: results.Records{Sent: 200, Acked: 200}, ProduceRequests: int64(200 * 25 / c.p99),
				RecordsPerBatch: c.p99 / 6, Throughput: results.Throughput{RecordsPerS: 200}, LatencyIntendedMs: &results.Latency{P50: c.p99 * f / 2, P99: c.p99 * f},
				CPU: &results.CPU{ClientMsPerMB: c.cpu * f / 3, BrokersMsPerMB: c.cpu * f * 2 / 3}, Load: &results.Load{OfferedRecordsPerS: 200, Achieved: 1},
				EffectiveConfig: map[string]string{"acks": "-1", "enable.idempotence": "false"}})
		}
	}
	plan := &results.Plan{Level: 0.95, Margin: 0.05,
		Advise: &results.AdvicePlan{Objective: "p99.intended", Client: "franz-go", RecordsPerS: 200, SLO: map[string]float64{"p99": 1000}, KeepUp: 0.99,
			Current: "candidate=current", Defaults: "candidate=defaults",
			Constraints: map[string]string{"acks": "all", "enable.idempotence": "false"}, Space: []results.AdviceAxis{{Key: "linger.ms", Values: []string{"0", "5"}}},
			Candidates: []results.AdviceCandidate{
				{ScenarioID: "candidate=current", Settings: map[string]string{"linger.ms": "100"}},
				{ScenarioID: "candidate=defaults", Settings: map[string]string{}},
				{ScenarioID: "candidate=linger.ms=0", Settings: map[string]string{"linger.ms": "0"}},
				{ScenarioID: "candidate=linger.ms=5", Settings: map[string]string{"linger.ms": "5"}},
			}}}
	a := adviceOf(recs, plan)
	var b strings.Builder
	for _, l := range adviceText(a, plan).Lines {
		b.WriteString(l + "\n")
	}
	golden.Check(t, "advice-rate-text.golden", []byte(adviceTitle(plan)+"\n"+b.String()))
	writtenAdvice(t, recs, plan, "advice-rate-properties.golden")
	// The chart sets the objective against the SLO's percentile, with the
	// SLO line; against p50 when the objective is the SLO's p99 itself.
	for _, c := range []struct{ objective, against string }{{"p99.intended", "against p50 latency"}, {"cpu.total", "against p99 latency"}} {
		p := *plan
		ap := *plan.Advise
		ap.Objective, p.Advise = c.objective, &ap
		ch := adviceChart(adviceOf(recs, &p), &p)
		switch {
		case ch == nil:
			t.Errorf("%s: no candidates chart", c.objective)
		case !strings.Contains(ch.SVG, c.against):
			t.Errorf("%s: the chart is not %q", c.objective, c.against)
		case strings.Contains(ch.SVG, "SLO p99") != (c.objective == "cpu.total"):
			t.Errorf("%s: the SLO p99 line should be drawn only where the chart's latency is p99", c.objective)
		}
	}
}

// writtenAdvice writes the run's advice files into a new directory, checks
// advice.properties against golden file name, and returns the directory.
func writtenAdvice(t *testing.T, recs []results.Record, plan *results.Plan, name string) string {
	t.Helper()
	dir := t.TempDir()
	if err := writeAdvice(dir, recs, plan, driver.SettingNotes); err != nil {
		t.Fatal(err)
	}
	props, err := os.ReadFile(filepath.Join(dir, results.AdvicePropertiesFile))
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, name, props)
	return dir
}
