package driver

import (
	"sync/atomic"
	"time"
)

// A steady-state trial ends with its window only if the client holds no
// more records than it can acknowledge soon: an unthrottled loop would
// fill the client's whole buffer (35,714 records at a 20 ms round trip and
// 1 request in flight, 45 s to drain after a 3 s window), and the records'
// latency would be time spent in that buffer. A horizon bounds the records
// handed over but not yet completed (acknowledged or failed) to what the
// recent completion rate finishes within Horizon: about Horizon of
// queueing in the client, and about Horizon of draining after the window.
// Bursts keep perf-test's semantics (no bound).
const (
	// Horizon is the least queueing a steady-state trial allows the
	// client; it stretches to HorizonRTTs × the fastest completion seen, so
	// that a long round trip still fills the pipe.
	Horizon     = 500 * time.Millisecond
	HorizonRTTs = 4
	// horizonFloor is the bound before any record completed: small, so
	// a slow path queues little; the bound grows by Horizon / latency per
	// round trip from there.
	horizonFloor = 32
	// horizonSpan is the span the completion rate is measured over.
	horizonSpan = time.Second
	// horizonSamples is how many completion counts the span keeps.
	horizonSamples = 10
)

// horizon bounds a steady-state trial's outstanding records. The produce
// loop calls room before each hand-off; completions call done from any
// goroutine.
type horizon struct {
	handed    int64        // records handed over (produce loop only)
	completed atomic.Int64 // records whose promise or callback ran
	minLatUs  atomic.Int64 // fastest completion seen, µs; 0 when none
	wake      chan struct{}

	// samples of (time, completed), one per horizonSpan/horizonSamples,
	// for the completion rate (produce loop only).
	at    [horizonSamples]time.Time
	count [horizonSamples]int64
	n     int
	start time.Time
}

// newHorizon returns the bound for a trial starting now.
func newHorizon() *horizon { return &horizon{wake: make(chan struct{}, 1)} }

// done counts one completed record that took latUs from hand-off.
func (h *horizon) done(latUs int64) {
	h.completed.Add(1)
	for {
		m := h.minLatUs.Load()
		if (m != 0 && m <= latUs) || h.minLatUs.CompareAndSwap(m, latUs) {
			break
		}
	}
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// handOff counts one record handed over at now.
func (h *horizon) handOff(now time.Time) {
	if h.handed == 0 {
		h.start = now
	}
	h.handed++
}

// limit is the most records that may be outstanding at now: the
// completions of the last horizonSpan (scaled to a full span while the
// trial is younger) times the horizon, at least horizonFloor.
func (h *horizon) limit(now time.Time) int64 {
	c := h.completed.Load()
	step := horizonSpan / horizonSamples
	if last := (h.n - 1) % horizonSamples; h.n == 0 || now.Sub(h.at[last]) >= step {
		h.at[h.n%horizonSamples], h.count[h.n%horizonSamples] = now, c
		h.n++
	}
	oldest := 0
	if h.n > horizonSamples {
		oldest = h.n % horizonSamples
	}
	since, base := h.at[oldest], h.count[oldest]
	if h.n <= horizonSamples {
		since, base = h.start, 0
	}
	span := now.Sub(since)
	if span <= 0 {
		return horizonFloor
	}
	rate := float64(c-base) / span.Seconds()
	hz := max(Horizon, time.Duration(HorizonRTTs*h.minLatUs.Load())*time.Microsecond)
	return max(horizonFloor, int64(rate*hz.Seconds()))
}

// room waits until a record may be handed over: the outstanding records
// are under the limit. It returns false when stop (the window's end, the
// trial's context) closes first.
func (h *horizon) room(stop <-chan struct{}, deadline time.Time) bool {
	for {
		now := time.Now()
		if h.handed-h.completed.Load() < h.limit(now) {
			return true
		}
		if !deadline.IsZero() && !now.Before(deadline) {
			return false
		}
		wait := 50 * time.Millisecond // re-reads the limit as the rate moves
		if !deadline.IsZero() {
			wait = min(wait, deadline.Sub(now))
		}
		t := time.NewTimer(wait)
		select {
		case <-h.wake:
		case <-t.C:
		case <-stop:
			t.Stop()
			return false
		}
		t.Stop()
	}
}
