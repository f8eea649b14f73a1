package figures

import "github.com/prodlab/prodlab/internal/stats"

// Metric names one per-trial figure of a record: what comparisons and
// charts iterate over. summary computes each (summary.Metrics).
type Metric struct {
	// Key names the metric in experiment files (compare: metric) and
	// plans: throughput, mb_per_s, p50, p95, p99, p999, disk, ….
	Key  string
	Name string // e.g. "throughput"
	Unit string // e.g. "msg/s"
	Dir  stats.Direction
}

// Metrics are the figures prodlab compares, in display order.
var Metrics = []Metric{
	{"throughput", "throughput", "msg/s", stats.HigherIsBetter},
	{"mb_per_s", "throughput", "MB/s", stats.HigherIsBetter},
	{"p50", "latency p50", "ms", stats.LowerIsBetter},
	{"p95", "latency p95", "ms", stats.LowerIsBetter},
	{"p99", "latency p99", "ms", stats.LowerIsBetter},
	{"p999", "latency p99.9", "ms", stats.LowerIsBetter},
	{"disk", "disk", "bytes", stats.LowerIsBetter},
	// Bytes on disk per record the topic holds: disk compared across
	// steady-state windows, where each scenario writes as many records as
	// its throughput allows (disk alone would rank the faster one worse).
	{"disk.per_record", "disk per record", "bytes", stats.LowerIsBetter},
	{"p50.intended", "latency p50 from the intended send time", "ms", stats.LowerIsBetter},
	{"p95.intended", "latency p95 from the intended send time", "ms", stats.LowerIsBetter},
	{"p99.intended", "latency p99 from the intended send time", "ms", stats.LowerIsBetter},
	{"p999.intended", "latency p99.9 from the intended send time", "ms", stats.LowerIsBetter},
	{"p50.e2e", "end-to-end latency p50", "ms", stats.LowerIsBetter},
	{"p95.e2e", "end-to-end latency p95", "ms", stats.LowerIsBetter},
	{"p99.e2e", "end-to-end latency p99", "ms", stats.LowerIsBetter},
	{"p999.e2e", "end-to-end latency p99.9", "ms", stats.LowerIsBetter},
	// Records per batch: how full the client's batches got, the figure
	// linger.ms and batch.size act on at a fixed rate.
	{"records_per_batch", "records per batch", "records", stats.HigherIsBetter},
	{"cpu.client", "client CPU", "ms/MB", stats.LowerIsBetter},
	{"cpu.brokers", "brokers' CPU", "ms/MB", stats.LowerIsBetter},
	{"cpu.total", "CPU, client and brokers", "ms/MB", stats.LowerIsBetter},
	// Zones: the replication link's applied round trip (what acks=all
	// waits for at least) and its share of the hand-off p50.
	{"zones.replication", "replication link round trip between zones", "ms", stats.LowerIsBetter},
	{"zones.share", "replication link's share of p50 (acks=all)", "ratio", stats.LowerIsBetter},
}

// MetricKeys lists every Metric.Key, in display order.
func MetricKeys() []string {
	out := make([]string, len(Metrics))
	for i, m := range Metrics {
		out[i] = m.Key
	}
	return out
}

// SustainableMetric is the compare: metric of a capacity run: the
// sustainable rate, a figure of a scenario's probes together rather than of
// one trial, so it is not among Metrics.
const SustainableMetric = "sustainable"

// ObjectiveSustainable is the advise objective of the highest sustainable
// rate under the SLO; any other objective is a metric key judged at a
// fixed rate.
const ObjectiveSustainable = "sustainable.rate"

// DefaultKeepUp is the share of the offered rate a trial must achieve to
// count as keeping up: capacity.keep.up's default, and the rule of runs
// without a capacity section.
const DefaultKeepUp = 0.99
