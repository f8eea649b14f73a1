package summary

import (
	"testing"

	"github.com/prodlab/prodlab/internal/histtest"
	"github.com/prodlab/prodlab/internal/results"
)

// TestLatencyMs: the figures results carry are stats' percentiles, field
// for field (stats.TestPercentilesMs checks the figures themselves).
func TestLatencyMs(t *testing.T) {
	want := results.Latency{P50: 0.5, P95: 0.95, P99: 0.99, P999: 0.999, Max: 1, Mean: 0.5005}
	if got := LatencyMs(histtest.New(t, histtest.UpTo(1000)...)); got != want {
		t.Errorf("LatencyMs = %+v, want %+v", got, want)
	}
	if got := LatencyMs(nil); got != (results.Latency{}) {
		t.Errorf("LatencyMs(nil) = %+v, want zeros", got)
	}
}
