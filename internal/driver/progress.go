package driver

import (
	"sync"
	"sync/atomic"
	"time"
)

// progressInterval is how often drivers report Progress.
const progressInterval = time.Second

// progressMeter is the in-process side of Trial.Progress: the producing
// loop counts hand-offs in an atomic, the tally counts completions under
// the lock it already holds for each (ackLocked, failLocked: no atomic of
// their own on an acknowledgement's path), and a ticker goroutine turns
// them into Progress reports, taking that lock once a report.
type progressMeter struct {
	sent atomic.Int64
	mu   *sync.Mutex // the tally's; guards the figures below
	// acked, failed and latSumUs count from the start; latMaxUs since the
	// previous report.
	acked, failed, latSumUs, latMaxUs int64
}

// newProgressMeter returns a meter whose completions are counted under mu.
func newProgressMeter(mu *sync.Mutex) *progressMeter { return &progressMeter{mu: mu} }

// ackLocked counts one acknowledged record with its latency in µs; the
// caller holds m.mu.
func (m *progressMeter) ackLocked(latUs int64) {
	m.acked++
	m.latSumUs += latUs
	m.latMaxUs = max(m.latMaxUs, latUs)
}

// failLocked counts one failed record; the caller holds m.mu.
func (m *progressMeter) failLocked() { m.failed++ }

// report calls fn every interval from a new goroutine, with Elapsed measured
// from start, until the returned stop function is called; stop waits for the
// goroutine, so fn is never called after it returns.
func (m *progressMeter) report(fn func(Progress), start time.Time, interval time.Duration) (stop func()) {
	var prevAcked, prevSum int64 // only the ticking goroutine touches them
	return tickEvery(interval, func(now time.Time) {
		m.mu.Lock()
		acked, sum, failed, maxUs := m.acked, m.latSumUs, m.failed, m.latMaxUs
		m.latMaxUs = 0
		m.mu.Unlock()
		sent := m.sent.Load() // after: a record is sent before it completes
		p := Progress{
			Elapsed:            now.Sub(start),
			Sent:               sent,
			Acked:              acked,
			Failed:             failed,
			WindowCount:        acked - prevAcked,
			WindowLatencySumUs: sum - prevSum,
			WindowLatencyMaxUs: maxUs,
		}
		prevAcked, prevSum = acked, sum
		fn(p)
	})
}
