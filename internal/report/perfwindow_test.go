package report

import (
	"bytes"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/golden"
)

// TestPerfWindowLines: progress reports about once a second become
// perf-test's 5-second lines; windows add up (sums add, maxima take the
// max), a window with no acknowledgements prints nothing.
func TestPerfWindowLines(t *testing.T) {
	var b bytes.Buffer
	w := &PerfWindows{W: &b, Every: PerfWindowEvery, RecordBytes: 1024}
	sec := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	reports := []PerfProgress{
		// first window: 0 → 5.002 s, 250,000 records, 1.5 ms mean, 9.1 ms max
		{Elapsed: sec(1.001), Count: 50000, LatencySumUs: 50000 * 1500, LatencyMaxUs: 9100},
		{Elapsed: sec(2.000), Count: 50000, LatencySumUs: 50000 * 1500, LatencyMaxUs: 3000},
		{Elapsed: sec(3.001), Count: 50000, LatencySumUs: 50000 * 1500, LatencyMaxUs: 2000},
		{Elapsed: sec(4.002), Count: 50000, LatencySumUs: 50000 * 1500, LatencyMaxUs: 1000},
		{Elapsed: sec(5.002), Count: 50000, LatencySumUs: 50000 * 1500, LatencyMaxUs: 4000},
		// second window: a stall, nothing acknowledged for 5 s: no line
		{Elapsed: sec(7.5), Count: 0},
		{Elapsed: sec(10.1), Count: 0},
		// third window: slow recovery, 3 records, sub-millisecond latencies
		{Elapsed: sec(12.0), Count: 1, LatencySumUs: 450, LatencyMaxUs: 450},
		{Elapsed: sec(15.1), Count: 2, LatencySumUs: 1000, LatencyMaxUs: 600},
		// an unfinished window at the end prints nothing
		{Elapsed: sec(16.0), Count: 7, LatencySumUs: 7000, LatencyMaxUs: 1000},
	}
	for _, p := range reports {
		w.Add(p)
	}
	golden.Check(t, "perf-window.golden", b.Bytes())
}

func TestPerfMetrics(t *testing.T) {
	var b bytes.Buffer
	PerfMetrics(&b, map[string]float64{"record-send-total": 20000, "batch-size-avg": 65123.25, "requests-in-flight": 5})
	golden.Check(t, "perf-metrics.golden", b.Bytes())
}
