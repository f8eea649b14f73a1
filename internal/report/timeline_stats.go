package report

import (
	"math"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// coarsen and throughputs stand in for stats.Coarsen and stats.Throughputs
// until those land in stats; then this file goes and timeline.go calls
// them directly.

// coarsen merges every k consecutive points into one: counts add up,
// the interval spans them all, it is warm-up if any of them is, and
// latency comes from the merged interval histograms (the largest p99 of
// the merged points when some lack a histogram).
func coarsen(pts []results.TimelinePoint, k int) ([]results.TimelinePoint, error) {
	if k <= 1 {
		return pts, nil
	}
	out := make([]results.TimelinePoint, 0, (len(pts)+k-1)/k)
	for i := 0; i < len(pts); i += k {
		g := pts[i:min(i+k, len(pts))]
		m := results.TimelinePoint{TMs: g[0].TMs, Retries: 0, InFlight: -1}
		var hs []*hdrhistogram.Histogram
		exact := true
		for _, p := range g {
			m.DurMs = p.TMs + p.DurMs - m.TMs
			m.Warmup = m.Warmup || p.Warmup
			m.Sent += p.Sent
			m.Acked += p.Acked
			m.AckedBytes += p.AckedBytes
			m.Failed += p.Failed
			if p.Retries < 0 || m.Retries < 0 {
				m.Retries = -1
			} else {
				m.Retries += p.Retries
			}
			m.InFlight = max(m.InFlight, p.InFlight)
			m.P50Ms = math.Max(m.P50Ms, p.P50Ms)
			m.P99Ms = math.Max(m.P99Ms, p.P99Ms)
			m.MaxMs = math.Max(m.MaxMs, p.MaxMs)
			if p.Histogram == "" {
				exact = exact && p.Acked == 0
				continue
			}
			h, err := stats.DecodeHistogram(p.Histogram)
			if err != nil {
				return nil, err
			}
			hs = append(hs, h)
		}
		if exact && len(hs) > 0 {
			l := stats.LatencyMs(stats.Merge(hs...))
			m.P50Ms, m.P99Ms, m.MaxMs = l.P50, l.P99, l.Max
		}
		out = append(out, m)
	}
	return out, nil
}

// throughputs returns each point's acknowledged records per second, NaN
// for an interval of no duration.
func throughputs(pts []results.TimelinePoint) []float64 {
	out := make([]float64, len(pts))
	for i, p := range pts {
		out[i] = math.NaN()
		if p.DurMs > 0 {
			out[i] = float64(p.Acked) / (p.DurMs / 1000)
		}
	}
	return out
}
