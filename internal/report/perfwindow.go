package report

import (
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"github.com/prodlab/prodlab/internal/results"
)

// perfWindowFormat is kafka-producer-perf-test's periodic line
// (ProducerPerformance.Stats.printWindow), printed about every 5 seconds.
const perfWindowFormat = "%d records sent, %.1f records/sec (%.2f MB/sec), %.1f ms avg latency, %.1f ms max latency.\n"

// PerfWindowEvery is perf-test's reporting interval.
const PerfWindowEvery = 5 * time.Second

// PerfProgress is one progress report of a running trial: the records
// acknowledged since the previous report, with the sum and maximum of
// their latencies in µs, at Elapsed since the trial's clock started.
type PerfProgress struct {
	Elapsed                           time.Duration
	Count, LatencySumUs, LatencyMaxUs int64
}

// PerfWindows turns progress reports (about one a second) into perf-test's
// periodic lines: it adds the reports' windows up until at least Every has
// passed, then prints one line and starts the next window. Unlike
// perf-test, whose latencies are whole milliseconds, the average and
// maximum come from µs measurements. A window in which nothing was
// acknowledged prints nothing, as in perf-test (which prints from its
// acknowledgement callback).
type PerfWindows struct {
	W     io.Writer
	Every time.Duration
	// RecordBytes is the mean value size, for MB/sec.
	RecordBytes float64

	start time.Duration // trial time at which the window began
	count int64
	sumUs int64
	maxUs int64
}

// Add accounts one progress report and prints a line when the window is
// full.
func (p *PerfWindows) Add(pr PerfProgress) {
	p.count += pr.Count
	p.sumUs += pr.LatencySumUs
	p.maxUs = max(p.maxUs, pr.LatencyMaxUs)
	d := pr.Elapsed - p.start
	if d < p.Every {
		return
	}
	if p.count > 0 {
		secs := d.Seconds()
		_, _ = fmt.Fprintf(p.W, perfWindowFormat,
			p.count,
			float64(p.count)/secs,
			float64(p.count)*p.RecordBytes/secs/results.MB,
			float64(p.sumUs)/float64(p.count)/1000,
			float64(p.maxUs)/1000)
	}
	p.start, p.count, p.sumUs, p.maxUs = pr.Elapsed, 0, 0, 0
}

// PerfMetrics writes the client's metrics sorted by name, in the layout of
// perf-test's --print-metrics (ToolsUtils.printMetrics): a header, then
// "name : value" with three decimals, names padded to one width.
func PerfMetrics(w io.Writer, metrics map[string]float64) {
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
