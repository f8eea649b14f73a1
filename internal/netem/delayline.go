package netem

import (
	"math/rand/v2"
	"sync"
	"time"
)

// Sizes of the delay line.
const (
	// readBufSize is the size of one read from a socket; a chunk never
	// exceeds it (except rewritten metadata frames).
	readBufSize = 64 << 10
	// smallChunk: reads shorter than this are copied to an exact-size slice so
	// that thousands of small queued chunks do not each pin a 64 KiB buffer.
	smallChunk = 8 << 10
	// maxQueuedBytes caps the bytes waiting in one direction of one
	// connection. A reader that would exceed it blocks (backpressure reaches
	// the sender through TCP flow control) instead of buffering without bound.
	maxQueuedBytes = 64 << 20
	// fineWait bounds the remainder of a wait done with a precise sleep
	// (at most 2*fineWait) instead of a Go timer: the runtime's netpoller
	// wakes timers with millisecond granularity, which would add up to 1 ms
	// per direction.
	fineWait = time.Millisecond
	// minWait: waits shorter than this are skipped; no sleep is that precise.
	minWait = 20 * time.Microsecond
)

var bufPool = sync.Pool{New: func() any { b := make([]byte, readBufSize); return &b }}

// mark points at the first byte of a Kafka response inside a chunk whose
// delivery must be noted (produce round trip, in-flight count).
type mark struct {
	off int
	req *pendingReq
}

// chunk is one unit of the delay line: bytes read together, delivered
// together, no earlier than at.
type chunk struct {
	data []byte
	buf  *[]byte // pooled buffer backing data, returned after delivery; nil if not pooled
	at   time.Time
	// arrived is when the bytes reached the proxy: delivery minus arrival
	// is the delay the proxy applied (Stats.UpDelayP50Ms).
	arrived time.Time
	marks   []mark
	eof     bool        // the source half-closed: half-close the destination after earlier chunks
	cut     *pendingReq // fault: close the connection after earlier chunks (the response to cut is swallowed)
}

func (c *chunk) release() {
	if c.buf != nil {
		bufPool.Put(c.buf)
		c.buf = nil
	}
}

// queue is a FIFO of chunks with a byte cap. push blocks while the queued
// bytes are at or over the cap; close wakes everyone and makes both fail.
type queue struct {
	mu       sync.Mutex
	notEmpty sync.Cond
	notFull  sync.Cond
	items    []chunk
	head     int
	bytes    int
	limit    int
	closed   bool
	busy     bool // the writer holds a popped chunk it has not finished
}

func newQueue(limit int) *queue {
	q := &queue{limit: limit}
	q.notEmpty.L = &q.mu
	q.notFull.L = &q.mu
	return q
}

// push appends c, waiting for room; it reports false if the queue was closed.
func (q *queue) push(c chunk) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.bytes >= q.limit && !q.closed {
		q.notFull.Wait()
	}
	if q.closed {
		return false
	}
	q.items = append(q.items, c)
	q.bytes += len(c.data)
	q.notEmpty.Signal()
	return true
}

// pop removes the oldest chunk, waiting for one; it reports false once the
// queue is closed. Calling pop again tells the queue the writer has finished
// with the previous chunk (see idle).
func (q *queue) pop() (chunk, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.busy = false
	for q.head == len(q.items) && !q.closed {
		q.notEmpty.Wait()
	}
	if q.closed {
		return chunk{}, false
	}
	c := q.items[q.head]
	q.items[q.head] = chunk{}
	q.head++
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	} else if q.head > 1024 && q.head*2 > len(q.items) {
		n := copy(q.items, q.items[q.head:])
		q.items, q.head = q.items[:n], 0
	}
	q.bytes -= len(c.data)
	q.busy = true
	q.notFull.Signal()
	return c, true
}

// idle reports whether nothing is queued and the writer is not delivering a
// chunk, i.e. whether the queue's only pusher may write to the destination
// itself without overtaking earlier bytes.
func (q *queue) idle() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.head == len(q.items) && !q.busy && !q.closed
}

func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	for i := q.head; i < len(q.items); i++ {
		q.items[i].release()
	}
	q.items, q.head = nil, 0
	q.notEmpty.Broadcast()
	q.notFull.Broadcast()
	q.mu.Unlock()
}

// schedule assigns delivery times for one direction: arrival + RTT/2 + a
// uniform jitter in [-Jitter, +Jitter], never before arrival and never before
// the previous chunk's delivery, so bytes are never reordered. The clamp makes
// the mean delay slightly larger than RTT/2 when jitter is large compared with
// the gap between chunks.
type schedule struct {
	last time.Time
	rng  *rand.Rand
}

func newSchedule() *schedule {
	return &schedule{rng: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}
}

func (s *schedule) deliverAt(arrival time.Time, cfg *Config) time.Time {
	d := cfg.RTT / 2
	if cfg.Jitter > 0 {
		d += time.Duration(s.rng.Int64N(int64(2*cfg.Jitter)+1)) - cfg.Jitter
	}
	at := arrival
	if d > 0 {
		at = arrival.Add(d)
	}
	if at.Before(s.last) {
		at = s.last
	}
	s.last = at
	return at
}

// waiter sleeps until a deadline with ~0.1 ms precision: a cancellable Go
// timer for the whole milliseconds, then a precise sleep for the rest.
type waiter struct {
	t    *time.Timer
	done <-chan struct{}
}

func newWaiter(done <-chan struct{}) *waiter {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &waiter{t: t, done: done}
}

// until waits until at; it reports false if done was closed first.
func (w *waiter) until(at time.Time) bool {
	for {
		d := time.Until(at)
		if d < minWait {
			return true
		}
		if d <= 2*fineWait {
			preciseSleep(d)
			return true
		}
		// The netpoller sleeps whole milliseconds and may wake up to 1 ms
		// late: stop short and finish with preciseSleep.
		w.t.Reset(d - 3*fineWait/2)
		select {
		case <-w.t.C:
		case <-w.done:
			w.t.Stop()
			return false
		}
	}
}
