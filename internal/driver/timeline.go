package driver

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// timeline cuts a trial's clock into Intervals (Trial.TimelineInterval).
//
// The producing loop counts sends with an atomic. The acknowledgement path
// counts acks, failures, value bytes and latency while it holds the tally's
// lock, which it takes anyway for the trial's totals. The cutter swaps the
// interval's figures out under that same lock as hdrhistogram's Recorder
// does: the histogram being filled is exchanged for a spare allocated
// beforehand, so the lock is held for a few assignments and the
// acknowledgement path never allocates.
type timeline struct {
	mu *sync.Mutex // the tally's lock; guards acked through hist
	// The current interval's figures, under mu.
	acked, failed, ackedBytes int64
	hist                      *hdrhistogram.Histogram

	sent atomic.Int64 // records handed over in the current interval
	// measuredFrom is when the measured window began, in ns since the
	// clock's start, or -1 while the warm-up runs.
	measuredFrom atomic.Int64
	// inflight, when non-nil, gauges produce requests in flight; nil when
	// the client cannot tell (the points then carry -1).
	inflight *inflightGauge

	// Owned by whoever cuts (the cutter goroutine, then its stop function).
	spare  *hdrhistogram.Histogram
	last   time.Duration // end of the previous point
	points []Interval
}

// newTimeline returns a timeline whose acknowledgement figures are guarded
// by mu. inflight may be nil.
func newTimeline(mu *sync.Mutex, inflight *inflightGauge) *timeline {
	tl := &timeline{mu: mu, hist: NewLatencyHistogram(), spare: NewLatencyHistogram(), inflight: inflight}
	tl.measuredFrom.Store(-1)
	return tl
}

// ackLocked counts one acknowledged record; the caller holds tl.mu.
func (tl *timeline) ackLocked(latUs, valueBytes int64) {
	tl.acked++
	tl.ackedBytes += valueBytes
	_ = tl.hist.RecordValue(latUs)
}

// failLocked counts one failed record; the caller holds tl.mu.
func (tl *timeline) failLocked() { tl.failed++ }

// markMeasured records that the measured window began at offset at of the
// trial's clock: intervals that began before it are warm-up intervals.
func (tl *timeline) markMeasured(at time.Duration) { tl.measuredFrom.Store(int64(at)) }

// cut closes the interval [tl.last, at) of the trial's clock and appends its
// point. Only one goroutine cuts at a time.
func (tl *timeline) cut(at time.Duration) {
	next := tl.spare
	if next == nil {
		next = NewLatencyHistogram()
	}
	sent := tl.sent.Swap(0)
	tl.mu.Lock()
	p := Interval{Acked: tl.acked, Failed: tl.failed, AckedBytes: tl.ackedBytes, Latency: tl.hist}
	tl.acked, tl.failed, tl.ackedBytes, tl.hist = 0, 0, 0, next
	tl.mu.Unlock()
	tl.spare = nil

	mf := tl.measuredFrom.Load()
	p.Start, p.Length = tl.last, at-tl.last
	p.Warmup = mf < 0 || mf > int64(tl.last)
	p.Sent = sent
	p.Retries = -1 // kgo exposes no retry count: no hook reports retried records or batches
	p.InFlight = -1
	if tl.inflight != nil {
		p.InFlight = tl.inflight.takePeak()
	}
	tl.points = append(tl.points, p)
	tl.last = at
	tl.spare = NewLatencyHistogram() // for the next cut, outside the lock
}

// run cuts a point every interval of the clock that started at start, from
// a new goroutine, until stop is called. stop waits for the goroutine, cuts
// the last, partial interval at end and returns the points, which end at
// end: a tick that fired after end, before stop stopped the ticks, has its
// point shortened to end, and what was counted after the last cut joins
// the last point rather than make one of no length. stop may be called
// once.
func (tl *timeline) run(start time.Time, every time.Duration) (stop func(end time.Time) []Interval) {
	stopTicks := tickEvery(every, func(now time.Time) { tl.cut(now.Sub(start)) })
	return func(end time.Time) []Interval {
		stopTicks()
		at := end.Sub(start)
		for n := len(tl.points); n > 1 && tl.points[n-1].Start >= at; n-- { // cut wholly after end
			tl.points[n-2].add(tl.points[n-1])
			tl.points = tl.points[:n-1]
		}
		if n := len(tl.points); n > 0 && tl.last > at && at > tl.points[n-1].Start {
			tl.points[n-1].Length = at - tl.points[n-1].Start
			tl.last = at
		}
		switch {
		case at > tl.last:
			tl.cut(at)
		case tl.pending() && len(tl.points) > 0:
			tl.foldPending(&tl.points[len(tl.points)-1])
		case tl.pending():
			tl.cut(tl.last)
		}
		return tl.points
	}
}

// add counts q's figures into p, which q follows.
func (p *Interval) add(q Interval) {
	p.Length += q.Length
	p.Sent, p.Acked, p.Failed, p.AckedBytes = p.Sent+q.Sent, p.Acked+q.Acked, p.Failed+q.Failed, p.AckedBytes+q.AckedBytes
	p.Latency.Merge(q.Latency)
	p.InFlight = max(p.InFlight, q.InFlight)
}

// foldPending adds what was counted since the last cut to point p.
func (tl *timeline) foldPending(p *Interval) {
	p.Sent += tl.sent.Swap(0)
	tl.mu.Lock()
	defer tl.mu.Unlock()
	p.Acked, p.Failed, p.AckedBytes = p.Acked+tl.acked, p.Failed+tl.failed, p.AckedBytes+tl.ackedBytes
	p.Latency.Merge(tl.hist)
	tl.acked, tl.failed, tl.ackedBytes = 0, 0, 0
	tl.hist.Reset()
}

// pending reports whether the current interval has counted anything.
func (tl *timeline) pending() bool {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	return tl.sent.Load() != 0 || tl.acked != 0 || tl.failed != 0
}

// inflightGauge counts requests in flight and the most seen since the
// previous takePeak.
type inflightGauge struct {
	cur, peak atomic.Int64
}

func (g *inflightGauge) inc() {
	n := g.cur.Add(1)
	for {
		p := g.peak.Load()
		if n <= p || g.peak.CompareAndSwap(p, n) {
			return
		}
	}
}

func (g *inflightGauge) dec() { g.cur.Add(-1) }

// takePeak returns the most requests in flight since the previous call and
// starts the next period at the current level.
func (g *inflightGauge) takePeak() int64 {
	return max(g.peak.Swap(max(g.cur.Load(), 0)), 0)
}
