package app

import (
	"bytes"
	"regexp"
	"strings"
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

// TestPerfWarmupTotals: one trial's result gives the warm-up's and the
// measured window's figures apart, the measured records' bytes counted
// from where the warm-up left the payload file's cycle, and the whole-run
// line's time from the first send to the last acknowledgement.
func TestPerfWarmupTotals(t *testing.T) {
	warmLat, lat := driver.NewLatencyHistogram(), driver.NewLatencyHistogram()
	for _, v := range []int64{2000, 4000, 30000} {
		_ = warmLat.RecordValue(v)
	}
	for _, v := range []int64{1000, 1100} {
		_ = lat.RecordValue(v)
	}
	res := &driver.Result{
		WarmupSent: 4, WarmupAcked: 3, WarmupLatency: warmLat, MeasuredFrom: 500 * time.Millisecond,
		Sent: 2, Acked: 2, Latency: lat, Elapsed: 250 * time.Millisecond,
		Metrics: map[string]float64{driver.MetricWarmupFailed: 1},
	}
	req := PerfRequest{Warmup: 4, FileSizes: []int{10, 20, 30}}
	warm, steady := req.warmupTotals(res), req.totals(res)
	if warm.acked != 3 || warm.failed != 1 || warm.bytes != 60 || warm.elapsed != 500*time.Millisecond || warm.latency.TotalCount() != 3 {
		t.Errorf("warm-up totals %+v, want 3 acked, 1 failed, 60 bytes (10+20+30), 500ms, 3 latencies", warm)
	}
	// Records 4 and 5 are the cycle's second and third: 20 + 30 bytes.
	if steady.acked != 2 || steady.bytes != 50 || steady.elapsed != 250*time.Millisecond || steady.latency.TotalCount() != 2 {
		t.Errorf("steady totals %+v, want 2 acked, 50 bytes, 250ms, 2 latencies", steady)
	}
	if all := warm.add(steady); all.acked != 5 || all.failed != 1 || all.elapsed != 750*time.Millisecond || all.latency.TotalCount() != 5 {
		t.Errorf("whole-run totals %+v, want 5 acked, 1 failed, 750ms, 5 latencies", all)
	}
}

// TestPerfAllErrors: perf names the commonest reasons among every failed
// record, the warm-up's too (a run whose only failures were warm-up records
// said "no error message").
func TestPerfAllErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  driver.Result
		want string
	}{
		{"warm-up only", driver.Result{WarmupErrors: map[string]int64{"timeout": 2}}, "timeout"},
		{"both", driver.Result{Errors: map[string]int64{"timeout": 1}, WarmupErrors: map[string]int64{"timeout": 2, "too large": 1}}, "timeout"},
		{"none", driver.Result{}, ""},
	} {
		got := allErrors(&tc.res)
		if msg := driver.TopErrors(got, 1); !strings.Contains(msg, tc.want) || (tc.want == "" && msg != "") {
			t.Errorf("%s: top error %q of %v, want %q", tc.name, msg, got, tc.want)
		}
		if tc.name == "both" && got["timeout"] != 3 {
			t.Errorf("both: timeout counted %d, want 3", got["timeout"])
		}
		if tc.res.Errors != nil && tc.res.Errors["timeout"] != 1 {
			t.Error("allErrors changed the result's own map")
		}
	}
}
