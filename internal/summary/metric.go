package summary

import (
	"math"

	"github.com/prodlab/prodlab/internal/figures"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// Metric is one figure of figures.Metrics with how to compute it from
// records: what comparisons and charts iterate over.
type Metric struct {
	figures.Metric
	// Of returns the metric's summary in a ScenarioStats; nil: the
	// summary of Trial over the counted trials (see Metric.Summary).
	Of func(*ScenarioStats) stats.Summary
	// Trial returns the metric's value in one trial's record, NaN when the
	// trial did not measure it.
	Trial func(*results.Record) float64
}

// measure computes one figure: Of (optional) and Trial as in Metric.
type measure struct {
	of    func(*ScenarioStats) stats.Summary
	trial func(*results.Record) float64
}

// measures computes every figure of figures.Metrics, by key. A metric
// whose of is nil is summarised from its trial values: one entry here is
// all a figure both clients measure needs.
var measures = map[string]measure{
	"throughput": {func(s *ScenarioStats) stats.Summary { return s.Throughput },
		func(r *results.Record) float64 { return r.Throughput.RecordsPerS }},
	"mb_per_s": {func(s *ScenarioStats) stats.Summary { return s.MBPerS },
		func(r *results.Record) float64 { return r.Throughput.MBPerS }},
	"p50": {func(s *ScenarioStats) stats.Summary { return s.P50 },
		func(r *results.Record) float64 { return r.LatencyMs.P50 }},
	"p95": {func(s *ScenarioStats) stats.Summary { return s.P95 },
		func(r *results.Record) float64 { return r.LatencyMs.P95 }},
	"p99": {func(s *ScenarioStats) stats.Summary { return s.P99 },
		func(r *results.Record) float64 { return r.LatencyMs.P99 }},
	"p999": {func(s *ScenarioStats) stats.Summary { return s.P999 },
		func(r *results.Record) float64 { return r.LatencyMs.P999 }},
	"disk": {func(s *ScenarioStats) stats.Summary { return s.DiskBytes },
		func(r *results.Record) float64 { return float64(r.DiskBytes) }},
	"disk.per_record":   {nil, diskPerRecord},
	"p50.intended":      {nil, intended(func(l *results.Latency) float64 { return l.P50 })},
	"p95.intended":      {nil, intended(func(l *results.Latency) float64 { return l.P95 })},
	"p99.intended":      {nil, intended(func(l *results.Latency) float64 { return l.P99 })},
	"p999.intended":     {nil, intended(func(l *results.Latency) float64 { return l.P999 })},
	"p50.e2e":           {nil, e2e(func(l *results.Latency) float64 { return l.P50 })},
	"p95.e2e":           {nil, e2e(func(l *results.Latency) float64 { return l.P95 })},
	"p99.e2e":           {nil, e2e(func(l *results.Latency) float64 { return l.P99 })},
	"p999.e2e":          {nil, e2e(func(l *results.Latency) float64 { return l.P999 })},
	"records_per_batch": {nil, recordsPerBatch},
	"cpu.client":        {nil, cpuOf(func(c *results.CPU) float64 { return c.ClientMsPerMB })},
	"cpu.brokers":       {nil, cpuOf(func(c *results.CPU) float64 { return c.BrokersMsPerMB })},
	"cpu.total":         {nil, cpuOf(cpuTotal)},
	"zones.replication": {nil, zoneReplicationMs},
	"zones.share":       {nil, zoneShare},
}

// Metrics are the figures compared by prodlab compare, in display order
// (figures.Metrics's), each with its measure; a figure without one is a
// programming error, caught when the package loads.
var Metrics = func() []Metric {
	out := make([]Metric, len(figures.Metrics))
	for i, f := range figures.Metrics {
		m, ok := measures[f.Key]
		if !ok {
			panic("summary: no measure for metric " + f.Key)
		}
		out[i] = Metric{Metric: f, Of: m.of, Trial: m.trial}
	}
	return out
}()

// intended reads one percentile of a record's latency from the intended
// send time.
func intended(f func(*results.Latency) float64) func(*results.Record) float64 {
	return latencyOf(func(r *results.Record) *results.Latency { return r.LatencyIntendedMs }, f)
}

// e2e reads one percentile of a record's end-to-end latency.
func e2e(f func(*results.Latency) float64) func(*results.Record) float64 {
	return latencyOf(func(r *results.Record) *results.Latency { return r.LatencyE2EMs }, f)
}

// cpuTotal is the client's and the brokers' CPU per MB together (the
// client's alone on an existing cluster, whose brokers prodlab cannot
// read), or 0 (not measured) without the client's: a duet's in-process
// clients share one process, whose CPU is not one arm's.
func cpuTotal(c *results.CPU) float64 {
	if c.ClientMsPerMB <= 0 {
		return 0
	}
	return c.ClientMsPerMB + c.BrokersMsPerMB
}

// latencyOf reads one figure of an optional latency of a record.
func latencyOf(l func(*results.Record) *results.Latency, f func(*results.Latency) float64) func(*results.Record) float64 {
	return func(r *results.Record) float64 {
		if v := l(r); v != nil {
			return f(v)
		}
		return math.NaN()
	}
}

// cpuOf reads one CPU-per-MB figure of a record (NaN when CPU was not
// measured, or was 0: no MB acknowledged).
func cpuOf(f func(*results.CPU) float64) func(*results.Record) float64 {
	return func(r *results.Record) float64 {
		if r.CPU == nil || f(r.CPU) <= 0 {
			return math.NaN()
		}
		return f(r.CPU)
	}
}

// Summary is m's summary in s: Of's, or the summary of Trial over the
// counted trials that measured it.
func (m Metric) Summary(s *ScenarioStats) stats.Summary {
	if m.Of != nil {
		return m.Of(s)
	}
	return stats.Summarize(m.Values(s), stats.DefaultConfidence)
}

// Values are m's values in the counted trials of s that measured it, in
// trial order: what Welch's test compares.
func (m Metric) Values(s *ScenarioStats) []float64 {
	var xs []float64
	for i := range s.counted {
		if v := m.Trial(&s.counted[i]); !math.IsNaN(v) {
			xs = append(xs, v)
		}
	}
	return xs
}

// MetricByKey returns the metric named key (see Metric.Key).
func MetricByKey(key string) (Metric, bool) {
	for _, m := range Metrics {
		if m.Key == key {
			return m, true
		}
	}
	return Metric{}, false
}

// diskPerRecord is the topic's bytes on disk over the records it holds
// (the measured window's and the in-trial warm-up's, acknowledged).
func diskPerRecord(r *results.Record) float64 {
	n := r.Records.Acked
	if r.WarmupRecords != nil {
		n += r.WarmupRecords.Acked
	}
	if r.DiskBytes <= 0 || n <= 0 {
		return math.NaN()
	}
	return float64(r.DiskBytes) / float64(n)
}

// recordsPerBatch is a record's records per batch, NaN when the client
// counted no batches.
func recordsPerBatch(r *results.Record) float64 {
	if r.RecordsPerBatch <= 0 {
		return math.NaN()
	}
	return r.RecordsPerBatch
}
