package driver

import (
	"sync"
	"testing"
	"time"
)

// BenchmarkDone is the driver's own work per acknowledged record (the
// Go clients' promise or delivery report: the clock read, the tally under
// its lock, the latency histogram, the progress meter and the timeline),
// for a perf-like trial; bench/RESULTS.md puts it against a client's
// records per second to say what share of a CPU it is.
func BenchmarkDone(b *testing.B) {
	for _, tc := range []struct {
		name string
		t    Trial
	}{
		{"burst", Trial{Records: 1 << 40, RecordSize: 1024}},
		{"perf: progress and timeline", Trial{Records: 1 << 40, RecordSize: 1024, Progress: func(Progress) {}, TimelineInterval: time.Second}},
		{"steady state", Trial{Records: 1 << 40, RecordSize: 1024, Duration: time.Hour, Progress: func(Progress) {}, TimelineInterval: time.Second}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			l := newSendLoop(tc.t, nil)
			handoff := time.Now()
			seq := int64(0)
			for b.Loop() {
				l.done(seq, 0, 1024, handoff, handoff, nil)
				seq++
			}
		})
	}
}

// BenchmarkClock is the send loop's clock reading (monoClock.now) against
// time.Now, the anchor it replaced, in the same run.
func BenchmarkClock(b *testing.B) {
	b.Run("time.Now", func(b *testing.B) {
		var t time.Time
		for b.Loop() {
			t = time.Now()
		}
		_ = t
	})
	b.Run("monoClock", func(b *testing.B) {
		c := newMonoClock()
		var t time.Time
		for b.Loop() {
			t = c.now()
		}
		_ = t
	})
}

// BenchmarkRecycle is a record's way from the send loop to the client and
// back (take, then give from the reporting goroutine) through recycler,
// against sync.Pool, the anchor it replaced, in the same run.
func BenchmarkRecycle(b *testing.B) {
	type rec struct{ seq int64 }
	const inflight = 1024
	b.Run("sync.Pool", func(b *testing.B) {
		p := sync.Pool{New: func() any { return new(rec) }}
		ch := make(chan *rec, inflight)
		done := make(chan struct{})
		go func() {
			for r := range ch {
				p.Put(r)
			}
			close(done)
		}()
		for b.Loop() {
			r := p.Get().(*rec)
			r.seq++
			ch <- r
		}
		close(ch)
		<-done
	})
	b.Run("recycler", func(b *testing.B) {
		var p recycler[rec]
		ch := make(chan *rec, inflight)
		done := make(chan struct{})
		go func() {
			for r := range ch {
				p.give(r)
			}
			close(done)
		}()
		for b.Loop() {
			r := p.take()
			r.seq++
			ch <- r
		}
		close(ch)
		<-done
	})
}
