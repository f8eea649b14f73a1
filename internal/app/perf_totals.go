package app

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// perfTotals are a trial's (or several trials') figures for the final line.
type perfTotals struct {
	acked   int64
	failed  int64
	bytes   int64 // value bytes of the acknowledged records
	elapsed time.Duration
	latency *hdrhistogram.Histogram
}

// totals extracts the final-line figures of a trial's measured window,
// whose records follow the warm-up's in the payload's order.
func (req PerfRequest) totals(res *driver.Result) perfTotals {
	return perfTotals{
		acked:   res.Acked,
		failed:  res.Failed,
		bytes:   req.ValueBytes(req.Warmup+res.Acked) - req.ValueBytes(req.Warmup),
		elapsed: res.Elapsed,
		latency: res.Latency,
	}
}

// warmupTotals extracts the final-line figures of a trial's warm-up.
func (req PerfRequest) warmupTotals(res *driver.Result) perfTotals {
	return perfTotals{
		acked:   res.WarmupAcked,
		failed:  res.WarmupFailed(),
		bytes:   req.ValueBytes(res.WarmupAcked),
		elapsed: res.MeasuredFrom,
		latency: res.WarmupLatency,
	}
}

// add merges another part's totals (the warm-up's and the measured
// window's make perf-test's overall line).
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
