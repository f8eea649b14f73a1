package summary

import (
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/figures"
	"github.com/prodlab/prodlab/internal/results"
)

// TestSLOMisses: each SLO percentile is judged on the latency it bounds —
// from the intended send time, or end to end (workload.consumer) — and a
// latency that was not measured misses its bound.
func TestSLOMisses(t *testing.T) {
	slo := map[string]float64{"p99": 100, "e2e.p99": 250}
	rec := func(p99, e2e float64) *results.Record {
		r := &results.Record{LatencyIntendedMs: &results.Latency{P99: p99}}
		if e2e > 0 {
			r.LatencyE2EMs = &results.Latency{P99: e2e}
		}
		return r
	}
	for _, tc := range []struct {
		name string
		rec  *results.Record
		want string
	}{
		{"both met", rec(80, 240), ""},
		{"end to end over", rec(80, 300), "end-to-end p99 300.0 ms > 250 ms"},
		// The e2e bound reads the consumer's latency, not the producer's.
		{"intended over, e2e met", rec(120, 200), "p99 from the intended send time 120.0 ms > 100 ms"},
		{"no consumer", rec(80, 0), "end-to-end p99 not measured (bound 250 ms)"},
		// The consumer's figures leave out what it never read: not judged.
		{"consumer behind", func() *results.Record { r := rec(80, 200); r.E2EBehind = true; return r }(),
			"end-to-end p99 not measured whole: the consumer had not caught up (bound 250 ms)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(SLOMisses(tc.rec, slo), "; "); got != tc.want {
				t.Errorf("misses %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSLOPercentileKeys: every SLO percentile has a metric in the
// registry.
func TestSLOPercentileKeys(t *testing.T) {
	for _, p := range figures.SLOPercentiles {
		if _, ok := MetricByKey(p.Metric); !ok {
			t.Errorf("SLO percentile %s: no metric %s", p.Key, p.Metric)
		}
	}
}

// TestMeasures: every measure computes a metric of figures.Metrics (the
// load-time check holds the other direction), and each metric keeps its
// figure's key, name, unit and direction.
func TestMeasures(t *testing.T) {
	for key := range measures {
		if _, ok := MetricByKey(key); !ok {
			t.Errorf("measure %s computes no metric of figures.Metrics", key)
		}
	}
	for i, m := range Metrics {
		if m.Metric != figures.Metrics[i] || m.Trial == nil {
			t.Errorf("metric %d: %+v, want figure %+v with a Trial", i, m.Metric, figures.Metrics[i])
		}
	}
}
