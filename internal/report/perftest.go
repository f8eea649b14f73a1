package report

import (
	"fmt"
	"io"
	"math"

	"github.com/prodlab/prodlab/internal/results"
)

// perfTestFormat is the final summary line of Apache Kafka's
// kafka-producer-perf-test (org.apache.kafka.tools.ProducerPerformance,
// Stats.printTotal), Java's %f being Go's %f (six decimals).
const perfTestFormat = "%d records sent, %f records/sec (%.2f MB/sec), %.2f ms avg latency, %.2f ms max latency, %d ms 50th, %d ms 95th, %d ms 99th, %d ms 99.9th.\n"

// PerfTestLine writes r as kafka-producer-perf-test's final line, so that
// scripts and eyes trained on that tool can read prodlab's results. As in
// the original, the count is of acknowledged records and percentiles are
// whole milliseconds, truncated as perf-test's millisecond clock truncates;
// the maximum keeps prodlab's µs precision in perf-test's two decimals.
// MB/sec is r.Throughput.MBPerS. Write errors are ignored, as with
// fmt.Printf.
func PerfTestLine(w io.Writer, r results.Record) {
	l := r.LatencyMs
	_, _ = fmt.Fprintf(w, perfTestFormat,
		r.Records.Acked,
		r.Throughput.RecordsPerS,
		r.Throughput.MBPerS,
		l.Mean,
		l.Max,
		wholeMs(l.P50), wholeMs(l.P95), wholeMs(l.P99), wholeMs(l.P999))
}

// wholeMs truncates a latency to whole milliseconds.
func wholeMs(v float64) int64 { return int64(math.Floor(v)) }
