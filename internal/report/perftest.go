package report

import (
	"fmt"
	"io"
	"math"

	"github.com/prodlab/prodlab/internal/results"
)

// perfTestFormat is the final summary line of Apache Kafka's
// kafka-producer-perf-test (org.apache.kafka.tools.ProducerPerformance,
// Stats.printTotal), Java's %f being Go's %f (six decimals). The %s is
// " steady state" on the line printed after a warm-up, "" otherwise.
const perfTestFormat = "%d%s records sent, %f records/sec (%.2f MB/sec), %.2f ms avg latency, %.2f ms max latency, %d ms 50th, %d ms 95th, %d ms 99th, %d ms 99.9th.\n"

// PerfTotal holds the figures of one kafka-producer-perf-test final line.
type PerfTotal struct {
	// Records counts the acknowledged records, as perf-test does.
	Records     int64
	RecordsPerS float64
	// MBPerS is in MB of 2^20 bytes (results.MBPerS).
	MBPerS float64
	// Latency is send → acknowledgement, in ms (stats.LatencyMs).
	Latency results.Latency
	// Steady marks the steady-state line perf-test prints after the
	// overall one when it had warm-up records ("N steady state records
	// sent, ...").
	Steady bool
}

// PerfTestTotal writes t as kafka-producer-perf-test's final line, so that
// scripts and eyes trained on that tool can read prodlab's figures. As in
// the original, percentiles are whole milliseconds, truncated as
// perf-test's millisecond clock truncates; the mean and maximum keep
// prodlab's µs precision in perf-test's two decimals. Write errors are
// ignored, as with fmt.Printf.
func PerfTestTotal(w io.Writer, t PerfTotal) {
	steady := ""
	if t.Steady {
		steady = " steady state"
	}
	l := t.Latency
	_, _ = fmt.Fprintf(w, perfTestFormat,
		t.Records, steady,
		t.RecordsPerS,
		t.MBPerS,
		l.Mean,
		l.Max,
		wholeMs(l.P50), wholeMs(l.P95), wholeMs(l.P99), wholeMs(l.P999))
}

// PerfTestLine writes a trial's record as perf-test's final line (see
// PerfTestTotal): its acknowledged records, throughput and latencies.
func PerfTestLine(w io.Writer, r results.Record) {
	PerfTestTotal(w, PerfTotal{
		Records:     r.Records.Acked,
		RecordsPerS: r.Throughput.RecordsPerS,
		MBPerS:      r.Throughput.MBPerS,
		Latency:     r.LatencyMs,
	})
}

// wholeMs truncates a latency to whole milliseconds.
func wholeMs(v float64) int64 { return int64(math.Floor(v)) }
