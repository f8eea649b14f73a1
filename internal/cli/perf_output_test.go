package cli

import (
	"bytes"
	"regexp"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/driver"
)

// TestPerfWindowLines: progress reports about once a second become
// perf-test's 5-second lines; windows add up (sums add, maxima take the
// max), a window with no acknowledgements prints nothing.
func TestPerfWindowLines(t *testing.T) {
	var b bytes.Buffer
	w := &windowPrinter{w: &b, every: perfWindowEvery, recordBytes: 1024}
	sec := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	reports := []driver.Progress{
		// first window: 0 → 5.002 s, 250,000 records, 1.5 ms mean, 9.1 ms max
		{Elapsed: sec(1.001), WindowCount: 50000, WindowLatencySumUs: 50000 * 1500, WindowLatencyMaxUs: 9100},
		{Elapsed: sec(2.000), WindowCount: 50000, WindowLatencySumUs: 50000 * 1500, WindowLatencyMaxUs: 3000},
		{Elapsed: sec(3.001), WindowCount: 50000, WindowLatencySumUs: 50000 * 1500, WindowLatencyMaxUs: 2000},
		{Elapsed: sec(4.002), WindowCount: 50000, WindowLatencySumUs: 50000 * 1500, WindowLatencyMaxUs: 1000},
		{Elapsed: sec(5.002), WindowCount: 50000, WindowLatencySumUs: 50000 * 1500, WindowLatencyMaxUs: 4000},
		// second window: a stall, nothing acknowledged for 5 s: no line
		{Elapsed: sec(7.5), WindowCount: 0},
		{Elapsed: sec(10.1), WindowCount: 0},
		// third window: slow recovery, 3 records, sub-millisecond latencies
		{Elapsed: sec(12.0), WindowCount: 1, WindowLatencySumUs: 450, WindowLatencyMaxUs: 450},
		{Elapsed: sec(15.1), WindowCount: 2, WindowLatencySumUs: 1000, WindowLatencyMaxUs: 600},
		// an unfinished window at the end prints nothing
		{Elapsed: sec(16.0), WindowCount: 7, WindowLatencySumUs: 7000, WindowLatencyMaxUs: 1000},
	}
	for _, p := range reports {
		w.add(p)
	}
	checkGolden(t, "perf-window.golden", b.Bytes())
}

// TestPerfFinalLines: the final line (report.PerfTestLine), the
// steady-state variant after a warm-up, and the totals merged from the
// warm-up and measured trials.
func TestPerfFinalLines(t *testing.T) {
	hist := func(us ...int64) *perfTotals {
		h := driver.NewLatencyHistogram()
		for _, v := range us {
			_ = h.RecordValue(v)
		}
		return &perfTotals{latency: h}
	}
	warm := *hist(2000, 4000, 30000)
	warm.acked, warm.bytes, warm.elapsed = 3, 3*1024, 500*time.Millisecond
	steady := *hist(1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 12500)
	steady.acked, steady.bytes, steady.elapsed = 10, 10*1024, 250*time.Millisecond

	var b bytes.Buffer
	printPerfTotal(&b, steady, false)
	printPerfTotal(&b, warm.add(steady), false)
	printPerfTotal(&b, steady, true)
	checkGolden(t, "perf-final.golden", b.Bytes())

	// The line must keep perf-test's shape, which scripts parse.
	re := regexp.MustCompile(`^(\d+)( steady state)? records sent, \d+\.\d{6} records/sec \(\d+\.\d{2} MB/sec\), \d+\.\d{2} ms avg latency, \d+\.\d{2} ms max latency, \d+ ms 50th, \d+ ms 95th, \d+ ms 99th, \d+ ms 99\.9th\.$`)
	for _, line := range bytes.Split(bytes.TrimSpace(b.Bytes()), []byte("\n")) {
		if !re.Match(line) {
			t.Errorf("not perf-test's final line: %s", line)
		}
	}
}

func TestPerfMetrics(t *testing.T) {
	var b bytes.Buffer
	printPerfMetrics(&b, map[string]float64{"record-send-total": 20000, "batch-size-avg": 65123.25, "requests-in-flight": 5})
	checkGolden(t, "perf-metrics.golden", b.Bytes())
}
