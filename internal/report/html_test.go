package report

import (
	"bytes"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"

	"github.com/prodlab/prodlab/internal/golden"
)

// testEnv is a fixed environment, so the page is deterministic.
var testEnv = &Env{
	Kafka: []string{"4.3.0"}, Clients: []string{"franz-go v1.22.2"}, CPU: "AMD EPYC", Cores: 2, MemoryBytes: 8 << 30,
	OS: "linux/amd64, Debian GNU/Linux 12 (bookworm)", Java: `openjdk version "21.0.9" 2025-10-21`, Go: "go1.26.8",
	Prodlab: "v0.3.0", Commit: "0123abcd", StartedAt: "2025-01-02T03:04:05Z",
}

// synth returns a successful trial of a scenario with the given matrix
// values, throughput rps and a latency histogram of 5000 records around
// p50ms with a long tail, drawn from rng so trials differ a little.
func synth(t *testing.T, rng *rand.Rand, keys []string, vals []any, trial int, rps, p50ms, ratio float64) results.Record {
	t.Helper()
	sc := map[string]any{}
	var id []string
	for i, k := range keys {
		sc[k] = vals[i]
		id = append(id, k+"="+formatValue(vals[i]))
	}
	noise := 1 + 0.03*rng.NormFloat64()
	h := hdrhistogram.New(1, 600_000_000, 3)
	for i := 0; i < 5000; i++ {
		// Log-normal around p50 with a heavier 1 % tail.
		v := p50ms * 1000 * math.Exp(0.35*rng.NormFloat64()) * noise
		if rng.IntN(100) == 0 {
			v *= 3 + 4*rng.Float64()
		}
		if err := h.RecordValue(int64(v)); err != nil {
			t.Fatal(err)
		}
	}
	enc, err := stats.EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	disk := 1024 * 100000 / ratio
	return results.Record{
		Schema: results.Schema, Run: "20250102-030405-fixture", Experiment: "fixture",
		Scenario: sc, ScenarioKeys: keys, ScenarioID: strings.Join(id, ","), Trial: trial,
		Status: results.StatusOK, Client: "franz-go v1.22.2", Kafka: "4.3.0", RecordSize: 1024,
		Records: results.Records{Sent: 100000, Acked: 100000}, ElapsedS: 100000 / (rps * noise),
		Throughput: results.Throughput{RecordsPerS: rps * noise, MBPerS: rps * noise * 1024 / 1e6},
		LatencyMs:  summary.LatencyMs(h), Histogram: enc,
		DiskBytes: int64(disk * (1 + 0.01*rng.NormFloat64())), CompressionRatio: ratio * (1 + 0.01*rng.NormFloat64()),
	}
}

// batchingRun is a linger.ms × compression.type run of three trials, one
// failed trial included: throughput, latency, disk and ratio charts.
func batchingRun(t *testing.T) []results.Record {
	rng := rand.New(rand.NewPCG(1, 2))
	keys := []string{"linger.ms", "compression.type"}
	ratios := map[string]float64{"none": 1, "lz4": 3.1, "zstd": 4.6}
	cpu := map[string]float64{"none": 1, "lz4": 1.1, "zstd": 1.5}
	var recs []results.Record
	for trial := 0; trial < 3; trial++ {
		for _, linger := range []float64{0, 5, 50} {
			for _, codec := range []string{"none", "lz4", "zstd"} {
				rps := 30000 * (1 + math.Log1p(linger)/2) * ratios[codec] / cpu[codec] / 2
				p50 := 2 + linger*0.8 + cpu[codec]
				recs = append(recs, synth(t, rng, keys, []any{linger, codec}, trial, rps, p50, ratios[codec]))
			}
		}
	}
	bad := recs[len(recs)-1]
	bad.Status, bad.Error, bad.Histogram = results.StatusFailed, "NOT_ENOUGH_REPLICAS: <min.insync.replicas> & \"acks=all\"", ""
	recs[len(recs)-1] = bad
	return recs
}

// networkRun varies in-flight requests, RTT and replication factor: the
// in-flight and replication charts.
func networkRun(t *testing.T) []results.Record {
	rng := rand.New(rand.NewPCG(3, 4))
	keys := []string{"max.in.flight.requests.per.connection", "network.rtt.ms", "topic.replication.factor"}
	var recs []results.Record
	for trial := 0; trial < 3; trial++ {
		for _, inflight := range []float64{1, 2, 5} {
			for _, rtt := range []float64{1, 25, 100} {
				for _, rf := range []float64{1, 3} {
					rps := 60000 * inflight / (inflight + rtt/20) / (1 + (rf-1)*0.15)
					p50 := rtt + 2 + rf
					recs = append(recs, synth(t, rng, keys, []any{inflight, rtt, rf}, trial, rps, p50, 1))
				}
			}
		}
	}
	return recs
}

// wantCharts maps each fixture to the charts its matrix calls for.
var htmlCases = []struct {
	name   string
	recs   func(*testing.T) []results.Record
	charts []string
	absent []string
	// plan is the run's plan.json (nil: none).
	plan *results.Plan
}{
	// Codec varies: disk and ratio charts, no in-flight or RF charts.
	{"batching", batchingRun,
		[]string{"chart-throughput", "chart-latency", "chart-disk", "chart-ratio"},
		[]string{"chart-inflight", "chart-rf-throughput", "chart-rf-latency"}, nil},
	// In-flight and RF vary, codec does not.
	{"network", networkRun,
		[]string{"chart-throughput", "chart-latency", "chart-inflight", "chart-rf-throughput", "chart-rf-latency"},
		[]string{"chart-disk", "chart-ratio"}, nil},
	// Schema-2 trials with timelines and faults: one throughput and one
	// p99 timeline per scenario.
	{"timeline", timelineRun,
		[]string{"chart-throughput", "timeline-1-throughput", "timeline-1-p99", "timeline-2-throughput", "timeline-2-p99"},
		[]string{"chart-latency", "chart-disk", "chart-inflight"}, nil},
	// The idempotence study's shape: long scenario labels in the timeline
	// titles, the audit, CPU and proxy columns in the table.
	{"idempotence", idempotenceStudyRun,
		[]string{"chart-throughput", "chart-latency", "timeline-1-throughput", "timeline-8-p99"},
		[]string{"chart-disk", "chart-ratio", "chart-inflight"}, nil},
	// The kip1269 study's shape: every optional column of the main table.
	{"kip1269", kip1269Run,
		[]string{"chart-throughput", "chart-latency", "chart-inflight"},
		[]string{"chart-disk", "chart-ratio"}, nil},
	// A capacity search: the capacity table and the probes replace the
	// results table, and the charts are those against offered rate only.
	{"capacity", func(*testing.T) []results.Record { return capacityRun() },
		[]string{"chart-load-p99"},
		[]string{"chart-throughput", "chart-latency", "chart-load-p50"}, &capacityPlan},
	// Findings on three metrics, decided, open and untested: the
	// findings picture (forest.go) heads the page.
	{"forest", func(*testing.T) []results.Record { return idempotenceRun() },
		[]string{"chart-throughput", "chart-inflight"},
		[]string{"chart-latency", "chart-ratio"}, &forestPlan},
	// A rate matrix: the ordinary charts, and p99 against offered rate.
	{"rate", func(*testing.T) []results.Record { return rateMatrixRun() },
		[]string{"chart-throughput", "chart-load-p99"},
		[]string{"chart-latency", "chart-disk"}, nil},
}

// svgRE captures each chart's id and markup.
var svgRE = regexp.MustCompile(`(?s)<svg id="([^"]+)".*?</svg>`)

func TestHTML(t *testing.T) {
	for _, tt := range htmlCases {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			in := HTMLInput{ExperimentYAML: "name: " + tt.name + "\ntrials: 3\n", Env: testEnv, Plan: tt.plan, Records: tt.recs(t)}
			if err := HTML(&b, in); err != nil {
				t.Fatal(err)
			}
			page := b.String()
			got := map[string]string{}
			for _, m := range svgRE.FindAllStringSubmatch(page, -1) {
				got[m[1]] = m[0]
			}
			for _, id := range tt.charts {
				svg, ok := got[id]
				if !ok {
					t.Errorf("chart %s missing", id)
					continue
				}
				for _, part := range []string{`<title id="` + id + `-title">`, `class="chart-title"`,
					`class="axis-label x-label"`, `class="axis-label y-label"`, `class="legend"`, `class="legend-entry"`} {
					if !strings.Contains(svg, part) {
						t.Errorf("chart %s lacks %s", id, part)
					}
				}
				// Axis labels name their unit in parentheses.
				if !regexp.MustCompile(`class="axis-label y-label"[^>]*>[^<]*\([^)]+\)<`).MatchString(svg) {
					t.Errorf("chart %s: y axis label without a unit", id)
				}
			}
			for _, id := range tt.absent {
				if _, ok := got[id]; ok {
					t.Errorf("chart %s present, want absent for this matrix", id)
				}
			}
			// Self-contained: no network references, no scripts.
			for _, bad := range []string{"http://", "https://", "<script", "src=", "@import"} {
				if strings.Contains(page, bad) {
					t.Errorf("page contains %q", bad)
				}
			}
			// The failed trial's error is escaped, not markup.
			if tt.name == "batching" && !strings.Contains(page, "&lt;min.insync.replicas&gt; &amp; &#34;acks=all&#34;") {
				t.Error("failed trial's error missing or not escaped")
			}
			golden.Check(t, "html-"+tt.name+".golden", b.Bytes())
		})
	}
}

func TestHTMLEmpty(t *testing.T) {
	// No records: the page still renders, with the throughput chart's axes
	// and no latency chart.
	var b bytes.Buffer
	if err := HTML(&b, HTMLInput{Env: testEnv}); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); !strings.Contains(s, `id="chart-throughput"`) || strings.Contains(s, `id="chart-latency"`) {
		t.Errorf("empty report charts wrong:\n%s", s)
	}
}

func TestNiceTicks(t *testing.T) {
	tests := []struct {
		hi   float64
		top  float64
		last string
	}{
		// Thousands: steps of 20,000.
		{95000, 100000, "100,000"},
		// Small values keep decimals.
		{0.42, 0.5, "0.5"},
		// Nothing to show: a unit axis in steps of 0.2.
		{0, 1, "1.0"},
	}
	for _, tt := range tests {
		ticks, top := niceTicks(tt.hi, 5)
		if top != tt.top || ticks[len(ticks)-1].Label != tt.last {
			t.Errorf("niceTicks(%v) top %v last %q, want %v %q", tt.hi, top, ticks[len(ticks)-1].Label, tt.top, tt.last)
		}
	}
}

// timelineRun is a steady-state study: two scenarios of three 60-second
// trials with 100 ms intervals (600 points, coarsened for the chart), ten
// seconds of warm-up, and a broker killed and restarted in the second
// scenario's trials.
func timelineRun(t *testing.T) []results.Record {
	rng := rand.New(rand.NewPCG(5, 6))
	var recs []results.Record
	for trial := 0; trial < 3; trial++ {
		for si, acks := range []string{"1", "all"} {
			r := rec(0, "none", trial, 1+0.02*float64(si))
			r.Scenario = map[string]any{"acks": acks}
			r.ScenarioKeys = []string{"acks"}
			r.ScenarioID = "acks=" + acks
			withTimeline(&r, rng, si == 1)
			recs = append(recs, r)
		}
	}
	return recs
}

// withTimeline gives r a 60-second timeline of 100 ms intervals with ten
// seconds of warm-up; with a fault, a broker is down from 30 to 32 s.
func withTimeline(r *results.Record, rng *rand.Rand, fault bool) {
	tl := &results.Timeline{Start: "2025-01-02T03:04:05Z", IntervalMs: 100, MeasuredFromMs: 10000}
	for i := 0; i < 600; i++ {
		tms := float64(i) * 100
		rate := 50000 * (1 - 0.5*math.Exp(-tms/3000)) * (1 + 0.05*rng.NormFloat64())
		p99 := 20 * (1 + 0.1*rng.NormFloat64())
		if fault && tms >= 30000 && tms < 32000 {
			rate, p99 = rate*0.1, p99*15 // the broker is down
		}
		acked := int64(rate / 10)
		tl.Points = append(tl.Points, results.TimelinePoint{TMs: tms, DurMs: 100, Warmup: tms < 10000,
			Sent: acked, Acked: acked, AckedBytes: acked * 1024, Retries: -1, InFlight: -1,
			P50Ms: p99 / 4, P99Ms: p99, MaxMs: p99 * 2})
	}
	r.Timeline = tl
	if fault {
		kill, start := 30000.0, 32000.0
		r.Events = []results.Event{{Kind: "broker.kill", Detail: "broker 1", TMs: &kill}, {Kind: "broker.start", Detail: "broker 1", TMs: &start}}
	}
}

// idempotenceStudyRun is shaped like the idempotence study, the widest page:
// three labelled matrix keys with long values (eight scenarios of three
// trials), timelines with faults, the delivery audit, CPU cost and the
// proxies' figures, and one scenario not steady.
func idempotenceStudyRun(t *testing.T) []results.Record {
	rng := rand.New(rand.NewPCG(7, 8))
	keys := []string{"enable.idempotence", "layout", "faults"}
	var recs []results.Record
	for trial := 0; trial < 3; trial++ {
		for _, idem := range []string{"true", "false"} {
			for li, layout := range []string{"1 broker RF 1", "3 brokers RF 3 min.insync 2"} {
				for _, faults := range []string{"none", "connection cuts"} {
					cut := faults != "none"
					r := synth(t, rng, keys, []any{idem, layout, faults}, trial, 24000/(1+0.2*float64(li)), 12+8*float64(li), 1)
					withTimeline(&r, rng, cut)
					r.CPU = &results.CPU{ClientMsPerMB: 41.5 + rng.Float64(), BrokersMsPerMB: 88.2 + 10*rng.Float64()}
					r.Network = map[string]float64{"max_in_flight": 5, "rtt_p50_ms": 0.4 + 0.1*rng.Float64(), "model_mb_per_s": 1234.5}
					r.Audit = &results.Audit{Acked: 100000}
					if cut && idem == "false" {
						r.Audit.Duplicates, r.Audit.Reordered = 2417+int64(trial), 13870+int64(trial)
					}
					if cut && li == 1 && idem == "true" && trial == 0 {
						r.Steady = &results.Steady{Points: 20, Drift: -0.31, CV: 0.4, Reason: "throughput drifted -31 % over the window"}
					}
					recs = append(recs, r)
				}
			}
		}
	}
	return recs
}

// kip1269Run is shaped like the kip1269 study with every optional column
// of the main table on: a long labelled value, the EMULATED label, the
// partition and producer figures, and the proxies' figures (twelve
// scenarios of two trials).
func kip1269Run(t *testing.T) []results.Record {
	rng := rand.New(rand.NewPCG(9, 10))
	keys := []string{"network.rtt.ms", "idempotence", "max.in.flight.requests.per.connection"}
	var recs []results.Record
	for trial := 0; trial < 2; trial++ {
		for _, rtt := range []float64{0, 150} {
			for _, idem := range []string{"on (KIP-1269 retain 20)", "off"} {
				for _, inflight := range []float64{5, 10, 20} {
					r := synth(t, rng, keys, []any{rtt, idem, inflight}, trial, 20000*inflight/(inflight+rtt/10), 3+rtt, 1)
					if idem != "off" {
						r.Emulated = "emulated KIP-1269: broker retains 20, client cap lifted"
					}
					r.Batches, r.RecordsPerBatch = 1000, 100*(1+rng.Float64())
					r.Partitions = &results.Partitions{Count: 6, Min: 16000, Max: 17500, Skew: 1.05 + 0.01*rng.Float64()}
					r.Producers = []results.Producer{{RecordsPerS: r.Throughput.RecordsPerS / 2}, {RecordsPerS: r.Throughput.RecordsPerS / 2}}
					r.LatencyE2EMs = &results.Latency{P99: 3 * (5 + rtt)}
					r.Network = map[string]float64{"max_in_flight": inflight, "rtt_p50_ms": rtt + 0.4, "model_mb_per_s": 812.3}
					recs = append(recs, r)
				}
			}
		}
	}
	return recs
}

func TestTimelineCharts(t *testing.T) {
	var b bytes.Buffer
	if err := HTML(&b, HTMLInput{Env: testEnv, Records: timelineRun(t)}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	charts := map[string]string{}
	for _, m := range svgRE.FindAllStringSubmatch(page, -1) {
		charts[m[1]] = m[0]
	}
	for _, id := range []string{"timeline-1-throughput", "timeline-1-p99", "timeline-2-throughput", "timeline-2-p99"} {
		svg, ok := charts[id]
		if !ok {
			t.Fatalf("chart %s missing", id)
		}
		// One line per trial, coarsened to 200 points each.
		lines := regexp.MustCompile(`<polyline[^>]*points="([^"]*)"`).FindAllStringSubmatch(svg, -1)
		if len(lines) != 3 {
			t.Errorf("%s: %d lines, want one per trial", id, len(lines))
		}
		for _, l := range lines {
			if n := len(strings.Fields(l[1])); n != 200 {
				t.Errorf("%s: a line of %d points, want 200", id, n)
			}
		}
		// The warm-up shaded, the measured window's start marked.
		if !strings.Contains(svg, `<rect class="warmup"`) || !strings.Contains(svg, `<line class="measured"`) {
			t.Errorf("%s: warm-up or measured-window mark missing", id)
		}
	}
	// Faults only where they happened, on both charts of the scenario.
	for id, want := range map[string]int{"timeline-1-throughput": 0, "timeline-2-throughput": 6, "timeline-2-p99": 6} {
		if n := strings.Count(charts[id], `<line class="event"`); n != want {
			t.Errorf("%s: %d event lines, want %d", id, n, want)
		}
	}
	if !strings.Contains(charts["timeline-2-p99"], "trial 0: broker.kill broker 1") {
		t.Error("event tooltip missing")
	}
	// A run without timelines has no Timelines section (see the goldens).
	if b.Reset(); HTML(&b, HTMLInput{Env: testEnv, Records: []results.Record{rec(0, "none", 0, 1)}}) != nil || strings.Contains(b.String(), "Timelines") {
		t.Error("page without timelines has a Timelines section")
	}
}
