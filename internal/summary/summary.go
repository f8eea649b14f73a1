// Package summary is the record-aware layer over stats: it reads a run's
// records (results.Record, timeline points) and summarises them per
// scenario, with the registry of the metrics comparisons judge. stats
// works on plain samples; this package is where the results schema meets
// it, so that neither results nor stats has to know the other.
package summary

import (
	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// LatencyMs summarises a latency histogram recorded in microseconds as the
// millisecond figures of results.Latency (see stats.PercentilesMs): at most
// 0.1% above the true values; a nil or empty histogram gives all zeros.
func LatencyMs(h *hdrhistogram.Histogram) results.Latency {
	return results.Latency(stats.PercentilesMs(h))
}
