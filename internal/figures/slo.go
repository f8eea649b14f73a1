package figures

import (
	"strconv"
	"strings"
)

// SLOPercentile is one percentile a capacity or advise SLO can bound: Key
// as plan.json spells it, Name as people read and write it (capacity:
// {slo: {p99.9.ms: …}}, {e2e.p99.ms: …}), Metric its key in Metrics,
// Quantile its field of a record's latency. An E2E percentile bounds the
// end-to-end latency (workload.consumer: hand-off to the consumer's read),
// the others the latency from the intended send time.
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
