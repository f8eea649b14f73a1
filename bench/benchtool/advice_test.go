package main

import (
	"math"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
)

// TestPipeModel turns the proxies' model throughput of a candidate's
// unthrottled probe into records/s: 24 MiB/s of 256 KiB requests holding
// 256 records each is 24,576 records/s; probes at a rate, and other
// candidates, do not count.
func TestPipeModel(t *testing.T) {
	net := map[string]float64{"model_mb_per_s": 24, "mean_request_bytes": 262144}
	recs := []results.Record{
		{ScenarioID: "b", Probe: &results.Probe{Ceiling: true}, RecordsPerBatch: 16, Network: map[string]float64{"model_mb_per_s": 1, "mean_request_bytes": 16384}},
		{ScenarioID: "a", Probe: &results.Probe{Pass: true}, RecordsPerBatch: 100, Network: net},
		{ScenarioID: "a", Probe: &results.Probe{Ceiling: true}, RecordsPerBatch: 256, Network: net},
	}
	if got := pipeModel(recs, "a"); math.Abs(got-24576) > 1e-6 {
		t.Errorf("pipe model = %v, want 24576", got)
	}
	if got := pipeModel(recs, "c"); !math.IsNaN(got) {
		t.Errorf("pipe model of a candidate without probes = %v, want NaN", got)
	}
}

// TestIDSettings reads a capacity matrix's scenario ID as settings, so the
// rank check finds the pick's point whatever the order of its keys.
func TestIDSettings(t *testing.T) {
	got := idSettings("linger.ms=5,compression.type=zstd")
	if len(got) != 2 || got["linger.ms"] != "5" || got["compression.type"] != "zstd" {
		t.Errorf("idSettings = %v", got)
	}
	if got := idSettings("base"); len(got) != 0 {
		t.Errorf("idSettings(base) = %v, want no settings", got)
	}
}
