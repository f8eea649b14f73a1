// Package histtest holds the test helpers that stats and summary share:
// histograms of prodlab's geometry filled with given values, and a
// relative comparison of figures. Only tests import it.
package histtest

import (
	"math"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// New returns a histogram of prodlab's geometry (1 µs to 10 minutes at 3
// significant digits) holding values (µs).
func New(t testing.TB, values ...int64) *hdrhistogram.Histogram {
	t.Helper()
	h := hdrhistogram.New(1, int64(10*time.Minute/time.Microsecond), 3)
	for _, v := range values {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// UpTo returns 1, 2, ..., n.
func UpTo(n int64) []int64 {
	vs := make([]int64, n)
	for i := range vs {
		vs[i] = int64(i) + 1
	}
	return vs
}

// Near reports whether got is within rel (relative) of want; NaN is near
// only NaN.
func Near(got, want, rel float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}
