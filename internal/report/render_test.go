package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"

	"github.com/prodlab/prodlab/internal/golden"
)

// spreads scale the five trials of a fixture scenario: a few percent of
// noise, as on a quiet machine.
var spreads = []float64{1, 1.02, 0.98, 1.01, 0.99}

// withHist attaches a histogram of n latencies spread around r's p50 (µs)
// with a 1 % tail, and sets r's percentiles to the histogram's.
func withHist(t *testing.T, r results.Record, n int) results.Record {
	t.Helper()
	h := hdrhistogram.New(1, 600_000_000, 3)
	base := int64(r.LatencyMs.P50 * 1000)
	for i := 0; i < n; i++ {
		v := base/2 + int64(i)*base/int64(n)
		if i%100 == 99 {
			v *= 6 // the 1 % tail
		}
		if i == n-1 {
			v = int64(r.LatencyMs.Max * 1000)
		}
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	s, err := stats.EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	r.Histogram = s
	r.LatencyMs = summary.LatencyMs(h)
	return r
}

// fixture returns interleaved trials of a batching run: a warm-up, five
// trials each of two scenarios with histograms, a scenario with one
// failure among its trials, and one whose every trial failed.
func fixture(t *testing.T) []results.Record {
	t.Helper()
	recs := []results.Record{warm(rec(0, "none", 0, 3))}
	for i, k := range spreads {
		recs = append(recs,
			withHist(t, plain(rec(0, "none", i+1, k)), 2000),
			withHist(t, rec(5, "zstd", i, k*0.8), 2000))
		if i < 3 {
			recs = append(recs, rec(50, "lz4", i, k*1.1))
		}
	}
	recs = append(recs, failed(50, "lz4", 3, "NOT_ENOUGH_REPLICAS | min.insync.replicas=2"),
		failed(9, "gzip", 0, "timeout\nhint: is the broker up?"), failed(9, "gzip", 1, "timeout\nhint: is the broker up?"))
	return recs
}

func TestRender(t *testing.T) {
	single := []results.Record{withHist(t, rec(5, "lz4", 0, 1), 1000)}
	tests := []struct {
		name, format string
		recs         []results.Record
	}{
		// Every format on the fixture: means ± errors, merged latencies,
		// partial and total failures.
		{"table", FormatTable, nil},
		{"perf-test", FormatPerfTest, nil},
		{"csv", FormatCSV, nil},
		{"json", FormatJSON, nil},
		{"markdown", FormatMarkdown, nil},
		// One trial: no errors shown; CSV and JSON say NaN/null.
		{"table-single", FormatTable, single},
		{"csv-single", FormatCSV, single},
		{"json-single", FormatJSON, single},
		// Proxies and the audit ran: IN-FLIGHT, RTT, MODEL and the audit
		// columns appear; a scenario without them shows "-".
		{"table-audit-network", FormatTable, auditNetwork()},
		{"markdown-audit-network", FormatMarkdown, auditNetwork()},
		// No records at all: headers only, an empty JSON array.
		{"csv-empty", FormatCSV, []results.Record{}},
		{"json-empty", FormatJSON, []results.Record{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs := tt.recs
			if recs == nil {
				recs = fixture(t)
			}
			var b bytes.Buffer
			if err := Render(&b, tt.format, recs); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "render-"+tt.name+".golden", b.Bytes())
		})
	}
}

func TestRenderUnknown(t *testing.T) {
	err := Render(&bytes.Buffer{}, "yaml", nil)
	// The error names every valid format, for the CLI to pass on.
	if err == nil || !strings.Contains(err.Error(), "table, perf-test, csv, json, markdown") {
		t.Errorf("Render(yaml) error = %v, want one listing the formats", err)
	}
	for _, f := range Formats() {
		if ValidFormat(f) != nil {
			t.Errorf("ValidFormat(%q) failed", f)
		}
	}
}

func TestRenderBadHistogram(t *testing.T) {
	r := rec(0, "none", 0, 1)
	r.Histogram = "garbage"
	for _, f := range Formats() {
		if err := Render(&bytes.Buffer{}, f, []results.Record{r}); err == nil || !strings.Contains(err.Error(), "decode histogram") {
			t.Errorf("%s: error = %v, want a decode error", f, err)
		}
	}
}

// auditNetwork is two trials of a scenario that ran through the proxies
// with an audit that found duplicates, and one plain scenario.
func auditNetwork() []results.Record {
	var recs []results.Record
	for i, dup := range []int64{8100, 7920} {
		r := rec(5, "none", i, 1)
		r.Network = map[string]float64{"max_in_flight": 5, "rtt_p50_ms": 150.4 + float64(i), "model_mb_per_s": 8.3}
		r.Audit = &results.Audit{Acked: 100000, Duplicates: dup, Reordered: 3870}
		recs = append(recs, r)
	}
	return append(recs, rec(0, "none", 0, 1))
}
