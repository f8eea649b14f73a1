// Package stats turns latency histograms into the figures results carry and
// moves histograms in and out of their portable encoding. It does no I/O.
package stats

import (
	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/prodlab/prodlab/internal/results"
)

// usPerMs converts the histograms' microseconds to milliseconds.
const usPerMs = 1000.0

// LatencyMs summarises a latency histogram recorded in microseconds as the
// millisecond figures of results.Latency. Percentiles and max are the
// highest value equivalent to the recorded ones (HdrHistogram's convention,
// identical in Java), so they are at most 0.1% (3 significant digits) above
// the true value. A nil or empty histogram gives all zeros.
func LatencyMs(h *hdrhistogram.Histogram) results.Latency {
	if h == nil || h.TotalCount() == 0 {
		return results.Latency{}
	}
	v := h.ValueAtPercentiles([]float64{50, 95, 99, 99.9})
	return results.Latency{
		P50:  float64(v[50]) / usPerMs,
		P95:  float64(v[95]) / usPerMs,
		P99:  float64(v[99]) / usPerMs,
		P999: float64(v[99.9]) / usPerMs,
		Max:  float64(h.Max()) / usPerMs,
		Mean: h.Mean() / usPerMs,
	}
}
