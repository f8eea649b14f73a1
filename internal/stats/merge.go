package stats

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Default geometry of an empty merge: the latency histograms prodlab
// records, 1 µs to 10 minutes at 3 significant digits.
const (
	defaultLowest  = 1
	defaultHighest = int64(10 * time.Minute / time.Microsecond)
	defaultDigits  = 3
)

// Merge returns a new histogram holding every value of hs; nil entries are
// skipped and the inputs are not modified. The result covers the widest
// range and finest precision among the inputs, so no value is dropped even
// when trials were recorded with different geometries (a Java worker and
// franz-go, say). With no histograms it returns an empty one of the default
// geometry.
func Merge(hs ...*hdrhistogram.Histogram) *hdrhistogram.Histogram {
	lowest, highest, digits := int64(0), int64(0), int64(0)
	for _, h := range hs {
		if h == nil {
			continue
		}
		if lowest == 0 || h.LowestTrackableValue() < lowest {
			lowest = h.LowestTrackableValue()
		}
		highest = max(highest, h.HighestTrackableValue())
		digits = max(digits, h.SignificantFigures())
	}
	if lowest == 0 {
		return hdrhistogram.New(defaultLowest, defaultHighest, defaultDigits)
	}
	out := hdrhistogram.New(max(lowest, 1), highest, int(digits))
	for _, h := range hs {
		if h != nil {
			out.Merge(h)
		}
	}
	return out
}
