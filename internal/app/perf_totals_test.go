package app

import (
	"bytes"
	"regexp"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/golden"
	"github.com/prodlab/prodlab/internal/report"
)

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
	report.PerfTestTotal(&b, steady.line(false))
	report.PerfTestTotal(&b, warm.add(steady).line(false))
	report.PerfTestTotal(&b, steady.line(true))
	golden.Check(t, "perf-final.golden", b.Bytes())

	// The line must keep perf-test's shape, which scripts parse.
	re := regexp.MustCompile(`^(\d+)( steady state)? records sent, \d+\.\d{6} records/sec \(\d+\.\d{2} MB/sec\), \d+\.\d{2} ms avg latency, \d+\.\d{2} ms max latency, \d+ ms 50th, \d+ ms 95th, \d+ ms 99th, \d+ ms 99\.9th\.$`)
	for _, line := range bytes.Split(bytes.TrimSpace(b.Bytes()), []byte("\n")) {
		if !re.Match(line) {
			t.Errorf("not perf-test's final line: %s", line)
		}
	}
}
