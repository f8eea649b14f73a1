package summary

import (
	"math"
	"testing"

	"github.com/prodlab/prodlab/internal/histtest"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// trial returns a successful trial of scenario id with a throughput and a
// histogram of the given µs values (none: no histogram).
func trial(t *testing.T, id string, n int, rps float64, us ...int64) results.Record {
	t.Helper()
	r := results.Record{
		ScenarioID: id, Scenario: map[string]any{"linger.ms": float64(len(id))}, ScenarioKeys: []string{"linger.ms"},
		Trial: n, Status: results.StatusOK, Throughput: results.Throughput{RecordsPerS: rps},
		LatencyMs: results.Latency{P99: rps / 1000},
	}
	if len(us) > 0 {
		s, err := stats.EncodeHistogram(histtest.New(t, us...))
		if err != nil {
			t.Fatal(err)
		}
		r.Histogram = s
	}
	return r
}

func TestByScenario(t *testing.T) {
	lo := make([]int64, 1000)
	hi := make([]int64, 1000)
	for i := range lo {
		lo[i], hi[i] = int64(i+1), int64(i+1001)
	}
	warm := trial(t, "a", 0, 1e9, 5_000_000)
	warm.Warmup = true
	bad := trial(t, "a", 3, 0)
	bad.Status, bad.Error = results.StatusFailed, "timeout"
	onlyWarm := trial(t, "w", 0, 1)
	onlyWarm.Warmup = true
	recs := []results.Record{
		warm,                         // left out of the figures, but a is seen first: it comes first
		trial(t, "b", 0, 10),         // b
		trial(t, "a", 1, 100, lo...), // a's counted trials
		onlyWarm,                     // a scenario with only warm-ups: absent
		trial(t, "a", 2, 200, hi...), //
		bad,                          // a failure, listed
		trial(t, "b", 1, 30),         // b without histograms
	}
	got, err := ByScenario(recs)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "a" || got[1].ID != "b" {
		t.Fatalf("scenarios = %+v, want a then b (order of first appearance, warm-ups included)", got)
	}
	a, b := got[0], got[1]
	// a: two counted trials, one failure, warm-up ignored.
	if a.Trials != 2 || len(a.Failures) != 1 || a.Failures[0].Error != "timeout" {
		t.Errorf("a trials = %d, failures %+v", a.Trials, a.Failures)
	}
	if a.Throughput.Mean != 150 || a.Throughput.N != 2 {
		t.Errorf("a throughput = %+v, want mean 150 of 2", a.Throughput)
	}
	// Merged 1..2000 µs: exact at 3 digits.
	want := results.Latency{P50: 1, P95: 1.9, P99: 1.98, P999: 1.998, Max: 2, Mean: 1.0005}
	if !a.Merged || a.Latency != want || a.Hist.TotalCount() != 2000 {
		t.Errorf("a latency = %+v (merged %v), want %+v", a.Latency, a.Merged, want)
	}
	// b: no histograms, so latency is the mean of the per-trial figures.
	if b.Merged || b.Latency.P99 != 0.02 || b.Hist != nil {
		t.Errorf("b latency = %+v (merged %v), want p99 0.02 unmerged", b.Latency, b.Merged)
	}
	if math.IsNaN(b.P99.Err) {
		t.Errorf("b p99 has no error with two trials: %+v", b.P99)
	}
}

func TestByScenarioBadHistogram(t *testing.T) {
	r := trial(t, "a", 0, 1)
	r.Histogram = "HISTFAAAAIF4nJNp"
	if _, err := ByScenario([]results.Record{r}); err == nil {
		t.Error("a corrupt histogram was accepted")
	}
}
