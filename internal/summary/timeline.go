package summary

import (
	"fmt"
	"sort"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// Coarsen merges every k consecutive points of a timeline into one, for
// charts and for a steady-state check at a coarser interval. A merged
// point starts at its first point's TMs; counts (sent, acked, acked bytes,
// failed) and durations add; InFlight takes the maximum; Retries add, or
// are -1 when any point does not know them; Warmup is true when any point
// is a warm-up one. When every point has a histogram, the merge keeps the
// merged histogram (encoded) and its percentiles are recomputed from it,
// exactly as LatencyMs would; otherwise P50Ms is the acked-weighted mean
// of the points' (a plain mean when nothing was acknowledged), P99Ms and
// MaxMs the maxima, and Histogram is empty. A last group of fewer than k
// points is merged too, into a shorter point. k must be at least 1; a
// histogram that fails to decode is an error naming its point.
func Coarsen(pts []results.TimelinePoint, k int) ([]results.TimelinePoint, error) {
	if k < 1 {
		return nil, fmt.Errorf("coarsen timeline: k = %d, want at least 1", k)
	}
	out := make([]results.TimelinePoint, 0, (len(pts)+k-1)/k)
	for start := 0; start < len(pts); start += k {
		p, err := mergePoints(pts[start:min(start+k, len(pts))])
		if err != nil {
			return nil, fmt.Errorf("coarsen timeline: point %d: %w", start, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// mergePoints merges consecutive points into one, as Coarsen describes.
func mergePoints(g []results.TimelinePoint) (results.TimelinePoint, error) {
	m := results.TimelinePoint{TMs: g[0].TMs, InFlight: g[0].InFlight}
	hs := make([]*hdrhistogram.Histogram, 0, len(g))
	var p50w float64
	for i, p := range g {
		m.DurMs += p.DurMs
		m.Warmup = m.Warmup || p.Warmup
		m.Sent += p.Sent
		m.Acked += p.Acked
		m.AckedBytes += p.AckedBytes
		m.Failed += p.Failed
		if m.Retries >= 0 {
			if p.Retries < 0 {
				m.Retries = -1
			} else {
				m.Retries += p.Retries
			}
		}
		m.InFlight = max(m.InFlight, p.InFlight)
		m.P99Ms = max(m.P99Ms, p.P99Ms)
		m.MaxMs = max(m.MaxMs, p.MaxMs)
		p50w += p.P50Ms * float64(p.Acked)
		if hs != nil && p.Histogram != "" {
			h, err := stats.DecodeHistogram(p.Histogram)
			if err != nil {
				return m, fmt.Errorf("+%d: %w", i, err)
			}
			hs = append(hs, h)
		} else {
			hs = nil
		}
	}
	if hs == nil {
		if m.Acked > 0 {
			m.P50Ms = p50w / float64(m.Acked)
		} else {
			for _, p := range g {
				m.P50Ms += p.P50Ms / float64(len(g))
			}
		}
		return m, nil
	}
	h := stats.Merge(hs...)
	l := LatencyMs(h)
	m.P50Ms, m.P99Ms, m.MaxMs = l.P50, l.P99, l.Max
	enc, err := stats.EncodeHistogram(h)
	if err != nil {
		return m, err
	}
	m.Histogram = enc
	return m, nil
}

// fullFraction is how long a point must be, relative to the median
// duration of the measured points, to count as a full interval: a shorter
// one is a partial interval, cut by the end of the trial (a ticker's
// jitter is well under 5 %).
const fullFraction = 0.95

// Throughputs returns the acknowledged records per second of each point of
// the measured window, in order: the points that are not warm-up ones and
// are full intervals (at least 95 % of the median duration of the
// measured points; this drops a partial last one). The result is what
// stats.CheckSteady and stats.Warmed take.
func Throughputs(pts []results.TimelinePoint) []float64 {
	full := fullPoints(pts)
	if len(full) == 0 {
		return nil
	}
	out := make([]float64, len(full))
	for i, p := range full {
		out[i] = float64(p.Acked) / (p.DurMs / 1000)
	}
	return out
}

// fullPoints is the points Throughputs measures: not warm-up ones, and
// full intervals, in order.
func fullPoints(pts []results.TimelinePoint) []results.TimelinePoint {
	var durs []float64
	for _, p := range pts {
		if !p.Warmup && p.DurMs > 0 {
			durs = append(durs, p.DurMs)
		}
	}
	if len(durs) == 0 {
		return nil
	}
	sort.Float64s(durs)
	full := fullFraction * durs[len(durs)/2]
	var out []results.TimelinePoint
	for _, p := range pts {
		if !p.Warmup && p.DurMs > 0 && p.DurMs >= full {
			out = append(out, p)
		}
	}
	return out
}
