package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/golden"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// historyOf builds runs whose level is k[i] (rec's scale: throughput
// 52,339.6/k, latency ×k) for two scenarios, three trials each a little
// apart, a plan comparing them, and Kafka kafka[i].
func historyOf(ks []float64, kafka []string) []HistoryRun {
	runs := make([]HistoryRun, len(ks))
	for i, k := range ks {
		var recs []results.Record
		for trial := 0; trial < 3; trial++ {
			j := 1 + 0.01*float64(trial-1) + 0.003*float64(i%3)
			for _, linger := range []float64{0, 5} {
				r := rec(linger, "none", trial, k*j*(1-linger/50))
				r.Kafka = kafka[i]
				recs = append(recs, r)
			}
		}
		runs[i] = HistoryRun{Dir: fmt.Sprintf("results/run-%02d", i+1), Records: recs,
			Plan: &results.Plan{Level: 0.95, Margin: 0.05, Comparisons: []results.PlannedComparison{{
				Question: "does linger.ms=5 beat 0?", Baseline: "linger.ms=0,compression.type=none", Candidate: "linger.ms=5,compression.type=none"}}},
			Env: results.Environment{StartedAt: fmt.Sprintf("2026-12-%02dT10:00:00Z", i+1), CPU: "x", Cores: 2}}
	}
	return runs
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// TestHistory lines up eight runs whose throughput falls 20 % from run 5
// on, where Kafka changed too: the throughput and latency series of both
// scenarios have one change point at run 5, marked as an environment
// change; the finding (their ratio, unchanged) has none.
func TestHistory(t *testing.T) {
	ks := []float64{1, 1, 1, 1, 1.25, 1.25, 1.25, 1.25}
	kafka := append(repeat("4.3.0", 4), repeat("4.4.0", 4)...)
	h, err := NewHistory(historyOf(ks, kafka), stats.ChangeConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if h.Experiment != "batching" || len(h.Runs) != 8 || len(h.Runs[4].Changed) != 1 || !strings.Contains(h.Runs[4].Changed[0], "kafka: 4.3.0 → 4.4.0") {
		t.Fatalf("experiment %q, %d runs, run 5 changed %v", h.Experiment, len(h.Runs), h.Runs[4].Changed)
	}
	seen := 0
	for _, s := range h.Series {
		switch {
		case s.Finding != "":
			if len(s.Changes) != 0 {
				t.Errorf("finding %s: changes %+v, want none (the ratio did not move)", s.Finding, s.Changes)
			}
		case s.Metric == "throughput" || s.Metric == "p99":
			seen++
			if len(s.Changes) != 1 || s.Changes[0].Run != 4 || !s.Changes[0].Env {
				t.Errorf("%s %s: changes %+v, want one at run index 4 with the environment change", s.Scenario, s.Metric, s.Changes)
				continue
			}
			want := 0.25
			if s.Metric == "throughput" {
				want = 1/1.25 - 1
			}
			if got := s.Changes[0].Change; got < want-0.02 || got > want+0.02 {
				t.Errorf("%s %s: relative change %g, want about %g", s.Scenario, s.Metric, got, want)
			}
		}
	}
	if seen != 4 {
		t.Errorf("%d throughput and p99 series, want 4", seen)
	}
	var b bytes.Buffer
	if err := HistoryTable(&b, h); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "history-table.golden", b.Bytes())
	b.Reset()
	if err := HistoryCSV(&b, h); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "history-csv.golden", b.Bytes())
	b.Reset()
	if err := HistoryJSON(&b, h); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("history JSON does not parse: %v", err)
	}
	b.Reset()
	if err := HistoryHTML(&b, h); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n := strings.Count(page, "<figure"); n != len(h.Series) {
		t.Errorf("%d charts for %d series", n, len(h.Series))
	}
	if strings.Contains(page, "<script") || strings.Contains(page, "http://") || strings.Contains(page, "https://") {
		t.Error("the history page loads something: it must be self-contained")
	}
}

// TestHistoryGate: a newest run 20 % slower than six steady runs fails
// the throughput gate (and the p99 gate, latency having risen); a newest
// run like the others passes; a threshold above the change passes; a
// history with one run before the newest cannot be tested.
func TestHistoryGate(t *testing.T) {
	steady := []float64{1, 1, 1, 1, 1, 1}
	kafka := repeat("4.3.0", 7)
	for _, tc := range []struct {
		name       string
		ks         []float64
		gate       Gate
		wantFailed int
		wantPassed int
		untested   int
	}{
		{"throughput fell", append(steady, 1.25), Gate{Metric: "throughput", Threshold: 0.05}, 2, 0, 0},
		{"p99 rose", append(steady, 1.25), Gate{Metric: "p99", Threshold: 0.05}, 2, 0, 0},
		{"beyond the threshold only", append(steady, 1.25), Gate{Metric: "throughput", Threshold: 0.5}, 0, 2, 0},
		{"better is not a regression", append(steady, 0.8), Gate{Metric: "throughput"}, 0, 2, 0},
		{"as before", append(steady, 1), Gate{Metric: "throughput", Threshold: 0.05}, 0, 2, 0},
		{"too few runs", []float64{1, 1.25}, Gate{Metric: "throughput"}, 0, 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := NewHistory(historyOf(tc.ks, kafka), stats.ChangeConfig{})
			if err != nil {
				t.Fatal(err)
			}
			res := h.Gate(tc.gate, stats.DefaultChangeAlpha)
			if len(res.Failed) != tc.wantFailed || res.Passed != tc.wantPassed || len(res.Untested) != tc.untested {
				t.Errorf("gate %+v: %+v, want %d failed, %d passed, %d untested", tc.gate, res, tc.wantFailed, tc.wantPassed, tc.untested)
			}
			for _, f := range res.Failed {
				if !strings.Contains(f, "results/run-07") || !strings.Contains(f, "6 runs since results/run-01") {
					t.Errorf("failure %q does not name the newest run and its level", f)
				}
			}
		})
	}
}

// TestHistoryShiftWords: a finding's change is in percentage points (its
// values are differences already), a metric's relative; a level of 0
// makes the relative change undefined, written null, and runs count from
// 1 in JSON as in the table.
func TestHistoryShiftWords(t *testing.T) {
	finding := SeriesShift{Run: 4, Before: -2, After: 3, Change: 5, Points: true}
	if got := finding.changeText(); got != "+5.0 pp" {
		t.Errorf("finding's change %q, want +5.0 pp", got)
	}
	zero := SeriesShift{Run: 4, Before: 0, After: 5, Change: math.Inf(1)}
	b, err := json.Marshal(zero)
	if err != nil {
		t.Fatalf("a change from a level of 0: %v", err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back["change"] != nil || back["run"] != float64(5) {
		t.Errorf("JSON %s, want change null and run 5", b)
	}
}
