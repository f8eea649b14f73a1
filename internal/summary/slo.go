package summary

import (
	"fmt"
	"math"

	"github.com/prodlab/prodlab/internal/figures"
	"github.com/prodlab/prodlab/internal/results"
)

// sloLatency is the latency of rec that p bounds: end to end or from the
// intended send time; nil when not measured.
func sloLatency(p figures.SLOPercentile, rec *results.Record) *results.Latency {
	if p.E2E {
		return rec.LatencyE2EMs
	}
	return rec.LatencyIntendedMs
}

// sloAt is p's value in rec, NaN when not measured.
func sloAt(p figures.SLOPercentile, rec *results.Record) float64 {
	if l := sloLatency(p, rec); l != nil {
		return LatencyAt(*l, p.Quantile)
	}
	return math.NaN()
}

// SLOMisses lists the SLO percentiles rec does not meet: above their
// bound, not measured, or (end to end) measured on part of the records
// only, when the consumer had not caught up (results.Record.E2EBehind).
func SLOMisses(rec *results.Record, slo map[string]float64) []string {
	var out []string
	for _, p := range figures.SLOPercentiles {
		bound, ok := slo[p.Key]
		if !ok {
			continue
		}
		v := sloAt(p, rec)
		switch {
		case p.E2E && rec.E2EBehind:
			out = append(out, fmt.Sprintf("%s not measured whole: the consumer had not caught up (bound %g ms)", p.Label(), bound))
		case math.IsNaN(v):
			out = append(out, fmt.Sprintf("%s not measured (bound %g ms)", p.Label(), bound))
		case v > bound:
			out = append(out, fmt.Sprintf("%s %.1f ms > %g ms", p.Label(), v, bound))
		}
	}
	return out
}

// sloPercentile is the first percentile the SLO bounds, in SLOPercentiles
// order, or p99 when it bounds none: the latency the advice is proven and
// drawn on.
func sloPercentile(slo map[string]float64) figures.SLOPercentile {
	for _, p := range figures.SLOPercentiles {
		if _, ok := slo[p.Key]; ok {
			return p
		}
	}
	p, _ := figures.SLOByKey("p99")
	return p
}

// LatencyAt is one percentile of l by its quantile key ("p50", "p95",
// "p99", "p999"), NaN for another key.
func LatencyAt(l results.Latency, quantile string) float64 {
	switch quantile {
	case "p50":
		return l.P50
	case "p95":
		return l.P95
	case "p99":
		return l.P99
	case "p999":
		return l.P999
	}
	return math.NaN()
}
