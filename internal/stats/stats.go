// Package stats is prodlab's statistics on plain samples: summaries with
// confidence intervals, Welch's and the paired test, equivalence and the
// one Judge that picks between them, stopping and steady-state rules, and
// latency histograms (merge, percentiles, portable encoding). It takes
// numbers and histograms, not records: it does no I/O and knows nothing of
// the results schema, so that every rule can be tested on made-up samples
// (internal/summary reads the figures out of records).
package stats

import (
	"github.com/HdrHistogram/hdrhistogram-go"
)

// usPerMs converts the histograms' microseconds to milliseconds.
const usPerMs = 1000.0

// Percentiles are the millisecond figures of a latency histogram, field
// for field those of results.Latency (which converts from it).
type Percentiles struct {
	P50, P95, P99, P999, Max, Mean float64
}

// PercentilesMs summarises a latency histogram recorded in microseconds as
// milliseconds. Percentiles and max are the highest value equivalent to the
// recorded ones (HdrHistogram's convention, identical in Java), so they are
// at most 0.1% (3 significant digits) above the true value. A nil or empty
// histogram gives all zeros.
func PercentilesMs(h *hdrhistogram.Histogram) Percentiles {
	if h == nil || h.TotalCount() == 0 {
		return Percentiles{}
	}
	v := h.ValueAtPercentiles([]float64{50, 95, 99, 99.9})
	return Percentiles{
		P50:  float64(v[50]) / usPerMs,
		P95:  float64(v[95]) / usPerMs,
		P99:  float64(v[99]) / usPerMs,
		P999: float64(v[99.9]) / usPerMs,
		Max:  float64(h.Max()) / usPerMs,
		Mean: h.Mean() / usPerMs,
	}
}
