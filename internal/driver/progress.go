package driver

import (
	"sync/atomic"
	"time"
)

// progressInterval is how often drivers report Progress.
const progressInterval = time.Second

// progressMeter is the in-process side of Trial.Progress: the producing
// loop and the acknowledgement callbacks update atomics (no lock on the hot
// path), and a ticker goroutine turns them into Progress reports.
//
// The counters are read one by one, so a report may see a record's count
// without its latency (or the reverse); the next report includes the rest,
// so windows summed over several reports are exact.
type progressMeter struct {
	sent, acked, failed atomic.Int64
	latSumUs            atomic.Int64
	latMaxUs            atomic.Int64 // since the previous report; swapped to 0 by it
}

// ack counts one acknowledged record with its latency in µs.
func (m *progressMeter) ack(latUs int64) {
	m.acked.Add(1)
	m.latSumUs.Add(latUs)
	for {
		cur := m.latMaxUs.Load()
		if latUs <= cur || m.latMaxUs.CompareAndSwap(cur, latUs) {
			return
		}
	}
}

// report calls fn every interval from a new goroutine, with Elapsed measured
// from start, until the returned stop function is called; stop waits for the
// goroutine, so fn is never called after it returns.
func (m *progressMeter) report(fn func(Progress), start time.Time, interval time.Duration) (stop func()) {
	var prevAcked, prevSum int64 // only the ticking goroutine touches them
	return tickEvery(interval, func(now time.Time) {
		acked, sum := m.acked.Load(), m.latSumUs.Load()
		p := Progress{
			Elapsed:            now.Sub(start),
			Sent:               m.sent.Load(),
			Acked:              acked,
			Failed:             m.failed.Load(),
			WindowCount:        acked - prevAcked,
			WindowLatencySumUs: sum - prevSum,
			WindowLatencyMaxUs: m.latMaxUs.Swap(0),
		}
		prevAcked, prevSum = acked, sum
		fn(p)
	})
}
