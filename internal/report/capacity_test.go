package report

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/golden"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// The capacity run's goldens hold the threshold estimator's figures
// (sustainable rate, interval, passes, precision) and the verdict of
// stats.CompareThresholds: while stats' estimator is a stub they hold its
// placeholder, and change, as expected, when the estimator lands. The
// tests below check the structure independently of those figures.

func TestRenderCapacity(t *testing.T) {
	// A capacity run in every format that changes for it: the capacity
	// table and the probes instead of the results table (table,
	// Markdown), each scenario's capacity in the JSON, and a perf-test
	// line per probe.
	for _, f := range []string{FormatTable, FormatMarkdown, FormatJSON, FormatPerfTest} {
		t.Run(f, func(t *testing.T) {
			p := capacityPlan
			var b bytes.Buffer
			if err := RenderPlan(&b, f, capacityRun(), &p); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "render-"+f+"-capacity.golden", b.Bytes())
		})
	}
}

func TestRenderRateMatrix(t *testing.T) {
	// A rate matrix without a plan: the results table as ever, then the
	// latency against offered rate, a row per scenario.
	for _, f := range []string{FormatTable, FormatMarkdown} {
		t.Run(f, func(t *testing.T) {
			var b bytes.Buffer
			if err := Render(&b, f, rateMatrixRun()); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "render-"+f+"-rate.golden", b.Bytes())
		})
	}
}

func TestCapacityTableReplacesResults(t *testing.T) {
	p := capacityPlan
	var b bytes.Buffer
	if err := RenderPlan(&b, FormatTable, capacityRun(), &p); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	// No results table: it would average probes at different rates.
	if strings.Contains(out, "TRIALS") || strings.Contains(out, "STATUS") {
		t.Errorf("capacity run shows the results table:\n%s", out)
	}
	// The capacity table first, a row per scenario, then the probes, then
	// the failed trial and the Findings.
	order := []string{"Capacity (sustainable rate: ", "SUSTAINABLE MSG/S", "\nenable.idempotence=false  ", "\nenable.idempotence=true  ",
		"\n" + loadTitle + ":\n", "PROBE\n", "enable.idempotence=true: 1 of 16 trials FAILED: broker 2 went away [1]",
		"[1] enable.idempotence=true, trial 15: broker 2 went away", "\nFindings ("}
	at := 0
	for _, s := range order {
		i := strings.Index(out[at:], s)
		if i < 0 {
			t.Fatalf("table lacks %q after byte %d:\n%s", s, at, out)
		}
		at += i + len(s)
	}
	// The SLO and keep-up share are stated where the answer is.
	if !strings.Contains(out, "achieves ≥ 0.99 of it (within the window's resolution) with p99 ≤ 100 ms from the intended send time; [lo, hi] is its 95 % interval") {
		t.Errorf("capacity title does not state the SLO:\n%s", out)
	}
	// Each failed probe shows why; the ones that fell behind are marked.
	if n := strings.Count(out, "FAIL: kept up 0."); n != 10 {
		t.Errorf("%d probes failed for falling behind, want 10 (5 per scenario)", n)
	}
	if n := regexp.MustCompile(`\d `+regexp.QuoteMeta(notKeptUpMark)+` `).FindAllString(out, -1); len(n) != 10 {
		t.Errorf("%d rows marked as not keeping up, want 10", len(n))
	}
	// The probe that failed as a trial is a failed probe without figures.
	if !regexp.MustCompile(`\n +14,000 +- +1\.000 +- +- +- +- +- +FAIL: trial failed: broker 2 went away\n`).MatchString(out) {
		t.Errorf("the failed trial's probe row is missing or shows figures:\n%s", out)
	}
}

func TestLoadCurvesRateMatrix(t *testing.T) {
	v, err := newView(rateMatrixRun(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// One curve per idempotence setting, the rate axis left out.
	if len(v.load) != 2 || v.load[0].Label != "enable.idempotence=false" || v.load[1].Label != "enable.idempotence=true" {
		t.Fatalf("curves = %+v", v.load)
	}
	if !reflect.DeepEqual(v.load[0].Keys, []string{"enable.idempotence"}) || v.load[0].Name != "false" {
		t.Errorf("legend of curve 1 = %q %q", v.load[0].Keys, v.load[0].Name)
	}
	for _, c := range v.load {
		var rates []float64
		for _, p := range c.Points {
			rates = append(rates, p.Offered)
			// A scenario's two trials, summarised as the registry's metric
			// summarises them for the whole scenario.
			if len(p.Trials) != 2 || p.Probe != nil {
				t.Errorf("%s at %v: %d trials, probe %v", c.Label, p.Offered, len(p.Trials), p.Probe)
			}
		}
		if !reflect.DeepEqual(rates, []float64{5000, 10000, 20000}) {
			t.Errorf("%s: rates %v", c.Label, rates)
		}
	}
	// Only idempotence on at 20,000 falls behind.
	for _, c := range v.load {
		for _, p := range c.Points {
			want := !(c.Label == "enable.idempotence=true" && p.Offered == 20000)
			if p.KeptUp != want {
				t.Errorf("%s at %v: kept up %v, want %v", c.Label, p.Offered, p.KeptUp, want)
			}
		}
	}
	// The point's figure is the metric registry's summary of the scenario.
	m := intendedMetric("p99")
	for i := range v.scs {
		s := &v.scs[i]
		rate := s.Values["rate"].(float64)
		label, _, _ := labelWithout(s.ScenarioStats, rateKeys)
		for _, c := range v.load {
			for _, p := range c.Points {
				if c.Label == label && p.Offered == rate {
					if got, want := p.figure(m), m.Summary(s.ScenarioStats); got.N != want.N || math.Abs(got.Mean-want.Mean) > 1e-9 {
						t.Errorf("%s: p99.intended %+v, registry %+v", s.ID, got, want)
					}
				}
			}
		}
	}
}

func TestLoadCurvesCapacity(t *testing.T) {
	p := capacityPlan
	v, err := newView(capacityRun(), &p)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.load) != 2 {
		t.Fatalf("%d curves, want one per scenario", len(v.load))
	}
	probes := map[string]int{}
	for _, r := range capacityRun() {
		if r.Probe != nil && !r.Probe.Ceiling {
			probes[r.ScenarioID]++
		}
	}
	for _, c := range v.load {
		// Every probe at a chosen rate, the one that failed as a trial
		// too; the ceiling (no Load) is no point.
		if want := probes[c.Label]; len(c.Points) != want || want < len(capacityProbeRates) {
			t.Errorf("%s: %d points, want %d", c.Label, len(c.Points), want)
		}
		prev := 0.0
		for _, pt := range c.Points {
			if pt.Probe == nil || pt.Probe.Ceiling || len(pt.Trials) != 1 {
				t.Errorf("%s at %v: not one probe", c.Label, pt.Offered)
			}
			if pt.Offered < prev {
				t.Errorf("%s: points out of order", c.Label)
			}
			prev = pt.Offered
			// Kept up is the ratio's judgement, apart from the probe's.
			if pt.KeptUp != (pt.Trials[0].Load.Achieved >= 0.99) {
				t.Errorf("%s at %v: kept up %v, achieved %v", c.Label, pt.Offered, pt.KeptUp, pt.Trials[0].Load.Achieved)
			}
		}
	}
}

func TestLoadViewAbsent(t *testing.T) {
	// Without rate-limited trials there is no view, in any format, and
	// no chart against offered rate: such runs render as before (their
	// goldens are unchanged).
	v, err := newView(fixture(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.load != nil || v.loadTable() != nil || loadCharts(v.load, nil) != nil {
		t.Error("a run without rate-limited trials has a load view")
	}
	if _, capacity := v.layout.(capacityLayout); capacity || v.capacity != nil {
		t.Error("a run without a capacity plan has a capacity view")
	}
}

func TestSustainableCell(t *testing.T) {
	c := func(edge string, probes int) *results.Capacity {
		return &results.Capacity{Probes: probes, Sustainable: results.Sustainable{RecordsPerS: 19800, MBPerS: 19.3, Lo: 18900, Hi: 20700, Edge: edge}}
	}
	tests := []struct {
		c    *results.Capacity
		want string
	}{
		// Bracketed: the estimate and its interval.
		{c("", 12), "19,800 [18,900, 20,700]"},
		// Open below: it lies under the interval's top, what the failed
		// probes show (its bottom is only the prior's).
		{c("below", 5), "< 20,700 (open below: not yet bounded by the probes)"},
		// Open above: over the interval's bottom.
		{c("above", 5), "> 18,900 (open above: not yet bounded by the probes)"},
		// No probe at a chosen rate: nothing is known.
		{c("", 0), "-"},
	}
	for _, tt := range tests {
		if got := sustainableCell(tt.c, 1, thousands, true); got != tt.want {
			t.Errorf("sustainableCell(edge %q, %d probes) = %q, want %q", tt.c.Sustainable.Edge, tt.c.Probes, got, tt.want)
		}
	}
	// MB/s follows the same rule, without the interval.
	if got := sustainableCell(c("below", 5), mbPerRecord(c("", 1).Sustainable), f1, false); got != "< 20.2" {
		t.Errorf("MB/s below = %q", got)
	}
}

func TestPrecisionCell(t *testing.T) {
	tests := []struct {
		p    results.Precision
		want string
	}{
		{results.Precision{Target: 0.05, Reached: 0.0412, Met: true}, "±4.1 % (target ±5 %, met)"},
		{results.Precision{Target: 0.05, Reached: 0.31}, "±31.0 % (target ±5 %, not met)"},
		// An interval without finite bounds is written as -1.
		{results.Precision{Target: 0.05, Reached: -1}, "- (target ±5 %, not met)"},
	}
	for _, tt := range tests {
		if got := precisionCell(&results.Capacity{Precision: tt.p}); got != tt.want {
			t.Errorf("precisionCell(%+v) = %q, want %q", tt.p, got, tt.want)
		}
	}
}

func TestSustainableFindings(t *testing.T) {
	got := Findings(capacityRun(), capacityPlan)
	if len(got) != 2 {
		t.Fatalf("%d findings", len(got))
	}
	f := got[0]
	// Judged by CompareThresholds on the probes, not by a per-trial test
	// on throughput, and worded as a sustainable rate.
	if f.Metric != "sustainable" || f.Verdict.Test == stats.PairedTest || f.Verdict.Test == stats.WelchTest {
		t.Errorf("finding 1: metric %q, test %q", f.Metric, f.Verdict.Test)
	}
	if !strings.HasPrefix(f.Sentence, "sustainable rate (msg/s): enable.idempotence=true ") ||
		!strings.HasSuffix(f.Sentence, "; baseline enable.idempotence=false") {
		t.Errorf("finding 1 sentence = %q", f.Sentence)
	}
	want := stats.CompareThresholds(probesByID(capacityRun())["enable.idempotence=false"].Threshold(0.95),
		probesByID(capacityRun())["enable.idempotence=true"].Threshold(0.95),
		stats.Options{Level: 0.95, Margin: 0.05, Dir: stats.HigherIsBetter, MinPairs: stats.DefaultMinPairs})
	if f.Kind != want.Kind || f.Verdict.Text != want.Text {
		t.Errorf("finding 1 = %s %q, CompareThresholds says %s %q", f.Kind, f.Verdict.Text, want.Kind, want.Text)
	}
	// A scenario never probed is not tested, and keeps the metric's key.
	if g := got[1]; g.Kind != stats.KindNotTested || g.Metric != "sustainable" || !strings.Contains(g.Sentence, "the candidate has no capacity probes") {
		t.Errorf("finding 2 = %s %q %q", g.Kind, g.Metric, g.Sentence)
	}
}

func TestCapacityJSON(t *testing.T) {
	p := capacityPlan
	var b bytes.Buffer
	if err := RenderPlan(&b, FormatJSON, capacityRun(), &p); err != nil {
		t.Fatal(err)
	}
	var scs []map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &scs); err != nil {
		t.Fatal(err)
	}
	want := summary.Capacity(capacityRun(), *p.Capacity, p.Level)
	if len(scs) != 2 || len(want) != 2 {
		t.Fatalf("%d scenarios, %d answers", len(scs), len(want))
	}
	for i, s := range scs {
		// The existing keys stay; "capacity" is the scenario's element of
		// capacity.json.
		for _, k := range []string{"id", "trials", "records_per_s", "latency_ms", "capacity"} {
			if _, ok := s[k]; !ok {
				t.Errorf("scenario %d lacks %q", i, k)
			}
		}
		var c results.Capacity
		if err := json.Unmarshal(s["capacity"], &c); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c, want[i]) {
			t.Errorf("scenario %d capacity = %+v, want %+v", i, c, want[i])
		}
	}
}

func TestWriteRunCapacity(t *testing.T) {
	// A capacity run's directory gets capacity.json, the answer
	// summary.Capacity gives, beside findings.json.
	noJava(t)
	dir := t.TempDir()
	if err := results.WritePlan(dir, capacityPlan); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteRun(dir, capacityRun(), &out, FormatTable); err != nil {
		t.Fatal(err)
	}
	got, ok, err := results.ReadCapacity(dir)
	if err != nil || !ok {
		t.Fatalf("ReadCapacity = %v, %v", ok, err)
	}
	want := summary.Capacity(capacityRun(), *capacityPlan.Capacity, capacityPlan.Level)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("capacity.json = %+v, want %+v", got, want)
	}
	for _, name := range []string{results.FindingsFile, HTMLFile, results.TableFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
}

func TestLoadCharts(t *testing.T) {
	hollow := regexp.MustCompile(`<circle class="hollow"`)
	t.Run("capacity", func(t *testing.T) {
		p := capacityPlan
		v, err := newView(capacityRun(), &p)
		if err != nil {
			t.Fatal(err)
		}
		cs := loadCharts(v.load, &p)
		if len(cs) != 1 || cs[0].ID != "chart-load-p99" {
			t.Fatalf("charts = %v", chartIDs(cs))
		}
		svg := cs[0].SVG
		// The SLO line, labelled; every failed probe hollow (the probe's
		// judgement, whether or not it kept up).
		if !strings.Contains(svg, `class="level-label"`) || !strings.Contains(svg, ">SLO p99 ≤ 100 ms</text>") {
			t.Error("no SLO line")
		}
		failed := 0
		for _, c := range v.load {
			for _, pt := range c.Points {
				// A probe that failed as a trial has no latency to draw.
				if (!pt.Probe.Pass || !pt.KeptUp) && pt.Trials[0].Counted() {
					failed++
				}
			}
		}
		if n := len(hollow.FindAllString(svg, -1)); n != failed || failed == 0 {
			t.Errorf("%d hollow points, want %d", n, failed)
		}
		if !strings.Contains(cs[0].Caption, "failed their probe") || !strings.Contains(cs[0].Caption, "SLO") {
			t.Errorf("caption = %q", cs[0].Caption)
		}
	})
	t.Run("SLO on p99.9 and p50", func(t *testing.T) {
		// The charts follow the SLO's percentiles, in order.
		p := capacityPlan
		c := *p.Capacity
		c.SLO = map[string]float64{"p999": 500, "p50": 20}
		p.Capacity = &c
		v, err := newView(capacityRun(), &p)
		if err != nil {
			t.Fatal(err)
		}
		cs := loadCharts(v.load, &p)
		if ids := chartIDs(cs); !reflect.DeepEqual(ids, []string{"chart-load-p50", "chart-load-p999"}) {
			t.Fatalf("charts = %v", ids)
		}
		if !strings.Contains(cs[1].SVG, ">SLO p99.9 ≤ 500 ms</text>") {
			t.Error("p99.9 chart lacks its SLO line")
		}
	})
	t.Run("rate matrix", func(t *testing.T) {
		// No plan: p99, no SLO line, the one scenario that fell behind hollow.
		v, err := newView(rateMatrixRun(), nil)
		if err != nil {
			t.Fatal(err)
		}
		cs := loadCharts(v.load, nil)
		if len(cs) != 1 || cs[0].ID != "chart-load-p99" {
			t.Fatalf("charts = %v", chartIDs(cs))
		}
		if strings.Contains(cs[0].SVG, `class="level"`) || strings.Contains(cs[0].Caption, "SLO") {
			t.Error("an SLO line without an SLO")
		}
		if n := len(hollow.FindAllString(cs[0].SVG, -1)); n != 1 {
			t.Errorf("%d hollow points, want 1", n)
		}
	})
}

// chartIDs lists the charts' IDs.
func chartIDs(cs []chart) []string {
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	return ids
}

func TestLogTicks(t *testing.T) {
	tests := []struct {
		lo, hi      float64
		bottom, top float64
		first       string
		n           int
	}{
		// Milliseconds to seconds: 1, 2, 5 steps from 5 to 5,000.
		{7.7, 4573, 5, 5000, "5", 10},
		// Too many decades for 1-2-5 steps: powers of ten only.
		{0.5, 90000, 0.1, 100000, "0.1", 7},
		// A value on a step is its own end.
		{10, 100, 10, 100, "10", 4},
		// Nothing positive: one decade under hi.
		{0, 50, 5, 50, "5", 4},
	}
	for _, tt := range tests {
		ticks, bottom, top := logTicks(tt.lo, tt.hi)
		if math.Abs(bottom-tt.bottom) > 1e-9*tt.bottom || math.Abs(top-tt.top) > 1e-9*tt.top ||
			ticks[0].Label != tt.first || len(ticks) != tt.n {
			t.Errorf("logTicks(%v, %v) = %d ticks from %q, axis %v..%v; want %d from %q, %v..%v",
				tt.lo, tt.hi, len(ticks), ticks[0].Label, bottom, top, tt.n, tt.first, tt.bottom, tt.top)
		}
	}
}
