package summary

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
)

// SLOPercentile is one percentile a capacity or advise SLO can bound: Key
// as plan.json spells it, Name as people read and write it (capacity:
// {slo: {p99.9.ms: …}}, {e2e.p99.ms: …}), Metric its key in the metric
// registry, Quantile its field of a results.Latency. An E2E percentile
// bounds the end-to-end latency (workload.consumer: hand-off to the
// consumer's read), the others the latency from the intended send time.
type SLOPercentile struct {
	Key, Name, Metric, Quantile string
	E2E                         bool
}

// SLOPercentiles are the percentiles an SLO can bound, in order: from the
// intended send time first, then end to end.
var SLOPercentiles = func() []SLOPercentile {
	var out []SLOPercentile
	qs := []struct{ key, name string }{{"p50", "p50"}, {"p95", "p95"}, {"p99", "p99"}, {"p999", "p99.9"}}
	for _, q := range qs {
		out = append(out, SLOPercentile{Key: q.key, Name: q.name, Metric: q.key + ".intended", Quantile: q.key})
	}
	for _, q := range qs {
		out = append(out, SLOPercentile{Key: "e2e." + q.key, Name: "e2e." + q.name, Metric: q.key + ".e2e", Quantile: q.key, E2E: true})
	}
	return out
}()

// SLOByKey is the SLO percentile of key; ok is false for a key that is
// none.
func SLOByKey(key string) (p SLOPercentile, ok bool) {
	for _, p := range SLOPercentiles {
		if p.Key == key {
			return p, true
		}
	}
	return SLOPercentile{}, false
}

// Label names the percentile with what it measures, for messages and
// axes: "p99 from the intended send time", "end-to-end p99".
func (p SLOPercentile) Label() string {
	if p.E2E {
		return "end-to-end " + strings.TrimPrefix(p.Name, "e2e.")
	}
	return p.Name + " from the intended send time"
}

// Of is the latency of rec the percentile bounds; nil when not measured.
func (p SLOPercentile) Of(rec *results.Record) *results.Latency {
	if p.E2E {
		return rec.LatencyE2EMs
	}
	return rec.LatencyIntendedMs
}

// At is the percentile's value in rec, NaN when not measured.
func (p SLOPercentile) At(rec *results.Record) float64 {
	if l := p.Of(rec); l != nil {
		return LatencyAt(*l, p.Quantile)
	}
	return math.NaN()
}

// SLOText writes an SLO as "p99 ≤ 100 ms and end-to-end p99 ≤ 250 ms"
// (percentiles in order, joined by "and"), "" when it bounds none.
func SLOText(slo map[string]float64) string { return sloText(slo, false) }

// SLOLongText is SLOText with what each percentile from the intended send
// time measures spelt out: "p99 ≤ 100 ms from the intended send time".
func SLOLongText(slo map[string]float64) string { return sloText(slo, true) }

// sloText writes the SLO's bounds, long or short.
func sloText(slo map[string]float64, long bool) string {
	var parts []string
	for _, p := range SLOPercentiles {
		v, ok := slo[p.Key]
		if !ok {
			continue
		}
		bound := " ≤ " + strconv.FormatFloat(v, 'f', -1, 64) + " ms"
		switch {
		case p.E2E:
			parts = append(parts, p.Label()+bound)
		case long:
			parts = append(parts, p.Name+bound+" from the intended send time")
		default:
			parts = append(parts, p.Name+bound)
		}
	}
	return strings.Join(parts, " and ")
}

// SLOMisses lists the SLO percentiles rec does not meet: above their
// bound, not measured, or (end to end) measured on part of the records
// only, when the consumer had not caught up (results.Record.E2EBehind).
func SLOMisses(rec *results.Record, slo map[string]float64) []string {
	var out []string
	for _, p := range SLOPercentiles {
		bound, ok := slo[p.Key]
		if !ok {
			continue
		}
		v := p.At(rec)
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

// SLOBoundsE2E reports whether the SLO bounds an end-to-end percentile,
// which only a trial with a consumer (workload.consumer) measures.
func SLOBoundsE2E(slo map[string]float64) bool {
	for _, p := range SLOPercentiles {
		if _, ok := slo[p.Key]; ok && p.E2E {
			return true
		}
	}
	return false
}

// sloPercentile is the first percentile the SLO bounds, in SLOPercentiles
// order, or p99 when it bounds none: the latency the advice is proven and
// drawn on.
func sloPercentile(slo map[string]float64) SLOPercentile {
	for _, p := range SLOPercentiles {
		if _, ok := slo[p.Key]; ok {
			return p
		}
	}
	p, _ := SLOByKey("p99")
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
