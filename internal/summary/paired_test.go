package summary

import (
	"math"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// TestPaired: trials pair by number; a trial missing on one side (failed)
// drops out of the pairs.
func TestPaired(t *testing.T) {
	rec := func(trial int, mps float64) results.Record {
		r := results.Record{Trial: trial, Status: results.StatusOK}
		r.Throughput.RecordsPerS = mps
		return r
	}
	a := ScenarioStats{counted: []results.Record{rec(0, 10), rec(1, 11), rec(2, 12)}}
	b := ScenarioStats{counted: []results.Record{rec(2, 22), rec(0, 20)}}
	xs, ys := Paired(&a, &b, Metrics[0])
	if len(xs) != 2 || xs[0] != 10 || ys[0] != 20 || xs[1] != 12 || ys[1] != 22 {
		t.Errorf("Paired = %v, %v; want [10 12], [20 22]", xs, ys)
	}
}

// TestPairedLives: trials pair by life and number, never across lives,
// and lives keep the order in which a's trials appear.
func TestPairedLives(t *testing.T) {
	rec := func(life, trial int, mps float64) results.Record {
		r := results.Record{Life: life, Trial: trial, Status: results.StatusOK}
		r.Throughput.RecordsPerS = mps
		return r
	}
	a := ScenarioStats{counted: []results.Record{rec(3, 0, 10), rec(3, 1, 11), rec(1, 0, 12), rec(1, 1, 13)}}
	b := ScenarioStats{counted: []results.Record{rec(1, 0, 22), rec(3, 1, 21), rec(3, 0, 20), rec(2, 1, 99)}}
	xs, ys := PairedLives(&a, &b, Metrics[0])
	if len(xs) != 2 || len(xs[0]) != 2 || xs[0][1] != 11 || ys[0][1] != 21 || len(xs[1]) != 1 || xs[1][0] != 12 || ys[1][0] != 22 {
		t.Errorf("PairedLives = %v, %v; want [[10 11] [12]], [[20 21] [22]]", xs, ys)
	}
	if fx, _ := Paired(&a, &b, Metrics[0]); len(fx) != 3 {
		t.Errorf("Paired = %v; want the 3 pairs of both lives", fx)
	}
}

// inLife returns recs as trials of life l.
func inLife(l int, recs []results.Record) []results.Record {
	for i := range recs {
		recs[i].Life = l
	}
	return recs
}

// TestJudge pairs by round only when the scenarios ran side by side and
// share at least two rounds; otherwise it takes Welch's test.
func TestJudge(t *testing.T) {
	mk := func(n int, ids ...int) []results.Record {
		var recs []results.Record
		for _, i := range ids {
			recs = append(recs, trial(t, "a", i, 1000+float64(i)), trial(t, "b", i, float64(n)+float64(i)*3))
		}
		return recs
	}
	tests := []struct {
		name       string
		recs       []results.Record
		sideBySide bool
		want       string
		pairs      int
	}{
		{"side by side", mk(1100, 0, 1, 2, 3), true, stats.PairedTest, 4},
		// One shared round cannot be paired: Welch on the summaries.
		{"one round", mk(1100, 0), true, stats.WelchTest, 0},
		// Two runs: trial numbers do not pair.
		{"two runs", mk(1100, 0, 1, 2, 3), false, stats.WelchTest, 0},
		// Two lives side by side: each life's pairs, judged over lives.
		{"two lives", append(mk(1100, 0, 1), inLife(1, mk(1100, 0, 1, 2))...), true, stats.LivesTest, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sum, err := ByScenario(tt.recs)
			if err != nil {
				t.Fatal(err)
			}
			v := Judge(&sum[0], &sum[1], Metrics[0], tt.sideBySide, stats.Options{Level: stats.DefaultConfidence, Margin: 0.05})
			if v.Test != tt.want || v.Pairs != tt.pairs {
				t.Errorf("test %q with %d pairs, want %q with %d", v.Test, v.Pairs, tt.want, tt.pairs)
			}
		})
	}
}

// TestRegistryMetrics summarises a metric without a ScenarioStats field
// from its trials, leaves out trials that did not measure it, and pairs
// only rounds where both sides did.
func TestRegistryMetrics(t *testing.T) {
	cpu := func(id string, n int, ms float64) results.Record {
		r := trial(t, id, n, 1000)
		if ms > 0 {
			r.CPU = &results.CPU{ClientMsPerMB: ms, BrokersMsPerMB: 2 * ms}
		}
		return r
	}
	recs := []results.Record{cpu("a", 0, 10), cpu("b", 0, 12), cpu("a", 1, 11), cpu("b", 1, 0), cpu("a", 2, 9), cpu("b", 2, 11), cpu("a", 3, 10), cpu("b", 3, 13)}
	sum, err := ByScenario(recs)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := MetricByKey("cpu.total")
	if !ok {
		t.Fatal("cpu.total is not registered")
	}
	if s := m.Summary(&sum[0]); s.N != 4 || math.Abs(s.Mean-30) > 1e-9 {
		t.Errorf("a: cpu.total %+v, want 4 trials, mean 30", s)
	}
	if s := m.Summary(&sum[1]); s.N != 3 || math.Abs(s.Mean-36) > 1e-9 {
		t.Errorf("b: cpu.total %+v, want 3 trials (one unmeasured), mean 36", s)
	}
	xs, _ := Paired(&sum[0], &sum[1], m)
	if len(xs) != 3 {
		t.Errorf("%d pairs, want 3 (round 1 of b did not measure CPU)", len(xs))
	}
	if v := Judge(&sum[0], &sum[1], m, true, stats.Options{Level: stats.DefaultConfidence, Margin: 0.05}); v.Kind != stats.KindHigher {
		t.Errorf("b's CPU is 20 %% higher in every round, verdict %q (%s)", v.Kind, v.Text)
	}
	if s := Metrics[len(Metrics)-1].Summary(&ScenarioStats{}); s.N != 0 {
		t.Errorf("no trials: %+v", s)
	}
}

// TestResolution: a throughput is a count of acknowledged records over a
// window, so its resolution is one produce response's share of a trial's
// records (one record's worth when requests were not counted), and
// identical trials give an interval that wide
// rather than a point (the KIP study's "faster by 100.0 % [+100.0 %,
// +100.0 %]" on 10 against 5 acknowledged records).
func TestResolution(t *testing.T) {
	rec := func(trial int, acked int64) results.Record {
		r := results.Record{Trial: trial, Status: results.StatusOK}
		r.Records.Acked = acked
		r.Throughput.RecordsPerS = float64(acked)
		return r
	}
	a := ScenarioStats{counted: []results.Record{rec(0, 5), rec(1, 5), rec(2, 5), rec(3, 5)}}
	b := ScenarioStats{counted: []results.Record{rec(0, 10), rec(1, 10), rec(2, 10), rec(3, 10)}}
	big := ScenarioStats{counted: []results.Record{rec(0, 1e6), rec(1, 1e6)}}
	// The KIP study at 150 ms: 51,336 records a trial, acknowledged by 40
	// produce responses of a 6 s window (after 14 warm-up ones): a count
	// can move by a response's 1/40, not by one record's 1/51,336.
	kip := func(trial int) results.Record {
		r := rec(trial, 51336)
		r.ProduceRequests = 54
		r.WarmupRecords = &results.Records{Acked: 17969}
		return r
	}
	pipe := ScenarioStats{counted: []results.Record{kip(0), kip(1)}}
	tests := []struct {
		name   string
		m      Metric
		scs    []*ScenarioStats
		want   float64
		bounds string // the paired verdict's interval, "" to skip
	}{
		{"few records", Metrics[0], []*ScenarioStats{&a, &b}, 0.2, "[+66.7 %, +140.0 %]"},
		{"many records", Metrics[0], []*ScenarioStats{&big}, stats.DefaultResolution, ""},
		{"few responses", Metrics[0], []*ScenarioStats{&pipe}, 1 / (54 * 51336.0 / (51336 + 17969)), ""},
		{"latency", Metrics[2], []*ScenarioStats{&a, &b}, stats.DefaultResolution, ""},
	}
	for _, tt := range tests {
		if got := Resolution(tt.m, tt.scs...); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: resolution %v, want %v", tt.name, got, tt.want)
		}
		if tt.bounds == "" {
			continue
		}
		v := Judge(tt.scs[0], tt.scs[1], tt.m, true, stats.Options{})
		if !strings.Contains(v.Text, tt.bounds) {
			t.Errorf("%s: %q lacks %q", tt.name, v.Text, tt.bounds)
		}
	}
}

// TestDiskPerRecord: bytes on disk per record the topic holds, warm-up
// records included; a trial without a size or records has none.
func TestDiskPerRecord(t *testing.T) {
	tests := []struct {
		name        string
		disk        int64
		acked, warm int64
		want        float64
	}{
		{"window only", 1000, 10, 0, 100},
		{"with warm-up", 1500, 10, 5, 100},
		{"no size", 0, 10, 0, math.NaN()},
		{"no records", 1000, 0, 0, math.NaN()},
	}
	m, ok := MetricByKey("disk.per_record")
	if !ok {
		t.Fatal("disk.per_record is not registered")
	}
	for _, tt := range tests {
		r := results.Record{DiskBytes: tt.disk}
		r.Records.Acked = tt.acked
		if tt.warm > 0 {
			r.WarmupRecords = &results.Records{Acked: tt.warm}
		}
		got := m.Trial(&r)
		if got != tt.want && !(math.IsNaN(got) && math.IsNaN(tt.want)) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
