package summary

import (
	"math"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// Metric names one per-trial figure of a record: what comparisons and
// charts iterate over.
type Metric struct {
	// Key names the metric in experiment files (compare: metric) and
	// plans: throughput, mb_per_s, p50, p95, p99, p999, disk.
	Key  string
	Name string // e.g. "throughput"
	Unit string // e.g. "msg/s"
	Dir  stats.Direction
	// Of returns the metric's summary in a ScenarioStats; nil: the
	// summary of Trial over the counted trials (see Metric.Summary).
	Of func(*ScenarioStats) stats.Summary
	// Trial returns the metric's value in one trial's record, NaN when the
	// trial did not measure it.
	Trial func(*results.Record) float64
}

// Metrics are the figures compared by prodlab compare, in display order.
var Metrics = []Metric{
	{"throughput", "throughput", "msg/s", stats.HigherIsBetter, func(s *ScenarioStats) stats.Summary { return s.Throughput },
		func(r *results.Record) float64 { return r.Throughput.RecordsPerS }},
	{"mb_per_s", "throughput", "MB/s", stats.HigherIsBetter, func(s *ScenarioStats) stats.Summary { return s.MBPerS },
		func(r *results.Record) float64 { return r.Throughput.MBPerS }},
	{"p50", "latency p50", "ms", stats.LowerIsBetter, func(s *ScenarioStats) stats.Summary { return s.P50 },
		func(r *results.Record) float64 { return r.LatencyMs.P50 }},
	{"p95", "latency p95", "ms", stats.LowerIsBetter, func(s *ScenarioStats) stats.Summary { return s.P95 },
		func(r *results.Record) float64 { return r.LatencyMs.P95 }},
	{"p99", "latency p99", "ms", stats.LowerIsBetter, func(s *ScenarioStats) stats.Summary { return s.P99 },
		func(r *results.Record) float64 { return r.LatencyMs.P99 }},
	{"p999", "latency p99.9", "ms", stats.LowerIsBetter, func(s *ScenarioStats) stats.Summary { return s.P999 },
		func(r *results.Record) float64 { return r.LatencyMs.P999 }},
	{"disk", "disk", "bytes", stats.LowerIsBetter, func(s *ScenarioStats) stats.Summary { return s.DiskBytes },
		func(r *results.Record) float64 { return float64(r.DiskBytes) }},
	// Bytes on disk per record the topic holds: disk compared across
	// steady-state windows, where each scenario writes as many records as
	// its throughput allows (disk alone would rank the faster one worse).
	{"disk.per_record", "disk per record", "bytes", stats.LowerIsBetter, nil, diskPerRecord},
	// A metric whose Of is nil is summarised from its Trial values: one
	// entry here is all a figure both clients measure needs.
	{"p50.intended", "latency p50 from the intended send time", "ms", stats.LowerIsBetter, nil,
		latencyOf(func(r *results.Record) *results.Latency { return r.LatencyIntendedMs }, func(l *results.Latency) float64 { return l.P50 })},
	{"p95.intended", "latency p95 from the intended send time", "ms", stats.LowerIsBetter, nil,
		latencyOf(func(r *results.Record) *results.Latency { return r.LatencyIntendedMs }, func(l *results.Latency) float64 { return l.P95 })},
	{"p99.intended", "latency p99 from the intended send time", "ms", stats.LowerIsBetter, nil,
		latencyOf(func(r *results.Record) *results.Latency { return r.LatencyIntendedMs }, func(l *results.Latency) float64 { return l.P99 })},
	{"p999.intended", "latency p99.9 from the intended send time", "ms", stats.LowerIsBetter, nil,
		latencyOf(func(r *results.Record) *results.Latency { return r.LatencyIntendedMs }, func(l *results.Latency) float64 { return l.P999 })},
	{"p50.e2e", "end-to-end latency p50", "ms", stats.LowerIsBetter, nil,
		latencyOf(func(r *results.Record) *results.Latency { return r.LatencyE2EMs }, func(l *results.Latency) float64 { return l.P50 })},
	{"p95.e2e", "end-to-end latency p95", "ms", stats.LowerIsBetter, nil,
		latencyOf(func(r *results.Record) *results.Latency { return r.LatencyE2EMs }, func(l *results.Latency) float64 { return l.P95 })},
	{"p99.e2e", "end-to-end latency p99", "ms", stats.LowerIsBetter, nil,
		latencyOf(func(r *results.Record) *results.Latency { return r.LatencyE2EMs }, func(l *results.Latency) float64 { return l.P99 })},
	{"p999.e2e", "end-to-end latency p99.9", "ms", stats.LowerIsBetter, nil,
		latencyOf(func(r *results.Record) *results.Latency { return r.LatencyE2EMs }, func(l *results.Latency) float64 { return l.P999 })},
	// Records per batch: how full the client's batches got, the figure
	// linger.ms and batch.size act on at a fixed rate.
	{"records_per_batch", "records per batch", "records", stats.HigherIsBetter, nil, recordsPerBatch},
	{"cpu.client", "client CPU", "ms/MB", stats.LowerIsBetter, nil,
		cpuOf(func(c *results.CPU) float64 { return c.ClientMsPerMB })},
	{"cpu.brokers", "brokers' CPU", "ms/MB", stats.LowerIsBetter, nil,
		cpuOf(func(c *results.CPU) float64 { return c.BrokersMsPerMB })},
	{"cpu.total", "CPU, client and brokers", "ms/MB", stats.LowerIsBetter, nil,
		cpuOf(cpuTotal)},
	// Zones: the replication link's applied round trip (what acks=all
	// waits for at least) and its share of the hand-off p50.
	{"zones.replication", "replication link round trip between zones", "ms", stats.LowerIsBetter, nil, zoneReplicationMs},
	{"zones.share", "replication link's share of p50 (acks=all)", "ratio", stats.LowerIsBetter, nil, zoneShare},
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

// MetricKeys lists every Metric.Key, in display order.
func MetricKeys() []string {
	out := make([]string, len(Metrics))
	for i, m := range Metrics {
		out[i] = m.Key
	}
	return out
}

// recordsPerBatch is a record's records per batch, NaN when the client
// counted no batches.
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

func recordsPerBatch(r *results.Record) float64 {
	if r.RecordsPerBatch <= 0 {
		return math.NaN()
	}
	return r.RecordsPerBatch
}
