package summary

import (
	"math"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/prodlab/prodlab/internal/results"
)

// newHist returns a histogram of prodlab's geometry (1 µs to 10 minutes at
// 3 significant digits) holding values (µs).
func newHist(t *testing.T, values ...int64) *hdrhistogram.Histogram {
	t.Helper()
	h := hdrhistogram.New(1, int64(10*time.Minute/time.Microsecond), 3)
	for _, v := range values {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// upTo returns 1, 2, ..., n.
func upTo(n int64) []int64 {
	vs := make([]int64, n)
	for i := range vs {
		vs[i] = int64(i) + 1
	}
	return vs
}

// near reports whether got is within rel (relative) of want.
func near(got, want, rel float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}

func TestLatencyMs(t *testing.T) {
	tests := []struct {
		name string
		h    *hdrhistogram.Histogram
		want results.Latency
	}{
		// No histogram (a failed trial) gives zeros, not NaN.
		{"nil", nil, results.Latency{}},
		// An empty histogram likewise.
		{"empty", newHist(t), results.Latency{}},
		// 1..1000 µs: exact below 2048 at 3 digits, so the figures are exact.
		{"uniform", newHist(t, upTo(1000)...), results.Latency{P50: 0.5, P95: 0.95, P99: 0.99, P999: 0.999, Max: 1, Mean: 0.5005}},
		// One value: every percentile is it.
		{"single", newHist(t, 1500), results.Latency{P50: 1.5, P95: 1.5, P99: 1.5, P999: 1.5, Max: 1.5, Mean: 1.5}},
		// Large values are reported as the top of their bucket (within 0.1%).
		{"seconds", newHist(t, 2_000_000), results.Latency{P50: 2000.895, P95: 2000.895, P99: 2000.895, P999: 2000.895, Max: 2000.895, Mean: 2000.384}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LatencyMs(tt.h); got != tt.want {
				t.Errorf("LatencyMs = %+v, want %+v", got, tt.want)
			}
		})
	}
}
