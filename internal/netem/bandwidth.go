package netem

import "time"

// pacer emulates the serialisation of one direction of a link of limited
// bandwidth: bytes leave one after the other at the configured rate, so a
// piece of n bytes is delivered when the link has finished sending it,
// n*8/rate after the link became free. Reservations are made against the
// emulated clock, not against when the writer actually woke up, so wake-up
// errors do not accumulate over a long transfer.
type pacer struct {
	free time.Time // when the emulated link finishes what was reserved so far
}

// paceSlack is how late a writer may be and still continue a transmission
// from where the emulated link got free rather than from now; longer gaps
// count as idle (no burst credit).
const paceSlack = 5 * time.Millisecond

// quantum is the largest piece written at once at a given rate: about 1 ms of
// transmission, at least 1 KiB, so the stream stays smooth without a wake-up
// per packet.
func quantum(mbit float64) int {
	if mbit <= 0 {
		return readBufSize
	}
	q := int(mbit * 1e6 / 8 / 1000)
	return max(q, 1024)
}

// reserve returns when n bytes offered at now are fully delivered at mbit
// Mbit/s; with mbit <= 0 it returns now.
func (p *pacer) reserve(now time.Time, n int, mbit float64) time.Time {
	if mbit <= 0 {
		p.free = time.Time{}
		return now
	}
	start := now
	if now.Sub(p.free) < paceSlack {
		// Busy link, or the writer woke a little late: continue from where
		// the link got free so the lateness is not lost.
		start = p.free
	}
	p.free = start.Add(time.Duration(float64(n) * 8 / (mbit * 1e6) * float64(time.Second)))
	return p.free
}
