package cli

import (
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// perfWindowFormat is kafka-producer-perf-test's periodic line
// (ProducerPerformance.Stats.printWindow), printed about every 5 seconds.
const perfWindowFormat = "%d records sent, %.1f records/sec (%.2f MB/sec), %.1f ms avg latency, %.1f ms max latency.\n"

// perfWindowEvery is perf-test's reporting interval.
const perfWindowEvery = 5 * time.Second

// windowPrinter turns a driver's Progress reports (about one a second) into
// perf-test's periodic lines: it adds the reports' windows up until at
// least every has passed, then prints one line and starts the next window.
// Unlike perf-test, whose latencies are whole milliseconds, the average and
// maximum come from µs measurements. A window in which nothing was
// acknowledged prints nothing, as in perf-test (which prints from its
// acknowledgement callback).
type windowPrinter struct {
	w           io.Writer
	every       time.Duration
	recordBytes float64 // mean value size, for MB/sec

	start time.Duration // trial time at which the window began
	count int64
	sumUs int64
	maxUs int64
}

// add accounts one progress report and prints a line when the window is full.
func (p *windowPrinter) add(pr driver.Progress) {
	p.count += pr.WindowCount
	p.sumUs += pr.WindowLatencySumUs
	p.maxUs = max(p.maxUs, pr.WindowLatencyMaxUs)
	d := pr.Elapsed - p.start
	if d < p.every {
		return
	}
	if p.count > 0 {
		secs := d.Seconds()
		_, _ = fmt.Fprintf(p.w, perfWindowFormat,
			p.count,
			float64(p.count)/secs,
			float64(p.count)*p.recordBytes/secs/results.MB,
			float64(p.sumUs)/float64(p.count)/1000,
			float64(p.maxUs)/1000)
	}
	p.start, p.count, p.sumUs, p.maxUs = pr.Elapsed, 0, 0, 0
}

// perfTotals are a trial's (or several trials') figures for the final line.
type perfTotals struct {
	acked   int64
	failed  int64
	bytes   int64 // value bytes of the acknowledged records
	elapsed time.Duration
	latency *hdrhistogram.Histogram
}

// add merges another trial's totals (the warm-up's and the measured one's
// make perf-test's overall line).
func (t perfTotals) add(o perfTotals) perfTotals {
	return perfTotals{
		acked:   t.acked + o.acked,
		failed:  t.failed + o.failed,
		bytes:   t.bytes + o.bytes,
		elapsed: t.elapsed + o.elapsed,
		latency: stats.Merge(t.latency, o.latency),
	}
}

// line renders totals as perf-test's final line's figures; steady marks
// the steady-state line perf-test adds after a warm-up.
func (t perfTotals) line(steady bool) report.PerfTotal {
	tp := results.ThroughputOf(t.acked, t.bytes, t.elapsed)
	return report.PerfTotal{
		Records:     t.acked,
		RecordsPerS: tp.RecordsPerS,
		MBPerS:      tp.MBPerS,
		Latency:     summary.LatencyMs(t.latency),
		Steady:      steady,
	}
}

// printPerfTotal writes perf-test's final line; steady marks the
// steady-state line ("N steady state records sent, ...").
func printPerfTotal(w io.Writer, t perfTotals, steady bool) {
	report.PerfTestTotal(w, t.line(steady))
}

// printPerfMetrics writes the client's metrics sorted by name, in the
// layout of perf-test's --print-metrics (ToolsUtils.printMetrics): a header,
// then "name : value" with three decimals, names padded to one width.
func printPerfMetrics(w io.Writer, metrics map[string]float64) {
	names := make([]string, 0, len(metrics))
	width := len("Metric Name")
	for k := range metrics {
		names = append(names, k)
		width = max(width, len(k))
	}
	sort.Strings(names)
	_, _ = fmt.Fprintf(w, "\n%-*s   %s\n", width, "Metric Name", "Value")
	for _, k := range names {
		v := metrics[k]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			_, _ = fmt.Fprintf(w, "%-*s : %v\n", width, k, v)
			continue
		}
		_, _ = fmt.Fprintf(w, "%-*s : %.3f\n", width, k, v)
	}
}
