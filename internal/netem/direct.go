package netem

import (
	"io"
	"net"
	"sync/atomic"
)

// The direct path. With no delay, jitter or bandwidth limit the delay line
// has nothing to do, yet handing every chunk from a reader goroutine to a
// writer goroutine costs two wake-ups, and copying large produce requests
// through user space costs two copies. On a 2-core machine that also runs
// the client and the broker, that CPU is throughput. So while a direction is
// unimpaired and its queue is idle, its reader writes each chunk itself, and
// the client→broker reader moves the body of a large produce request with
// splice(2) (Go's TCPConn.ReadFrom) once the framing scanner has the part of
// the request it keeps. Framing, statistics, rewriting and cuts work as on
// the queued path; a direction returns to the queue as soon as an impairment
// is set, and new chunks wait behind queued ones, so bytes never reorder.
const (
	// spliceMin: a request body at least this large is spliced rather than
	// read; below it the two syscalls of a splice do not pay for the copy.
	spliceMin = 16 << 10
	// headRead bounds the first read of a request after a large one, so that
	// it takes the header the scanner keeps (reqPrefixCap) and leaves the
	// body in the socket for splice.
	headRead = 4 << 10
)

// direction is one way of a link: where its reader reads, where its bytes
// go, and the queue that feeds its writer when the delay line is in use.
type direction struct {
	src, dst net.Conn
	q        *queue
	counter  *atomic.Int64
	buf      []byte // the reader's own buffer for direct chunks, allocated on first use
}

// direct reports whether the reader may write its next chunk itself: no
// impairment is configured and the writer has nothing queued or in hand.
// Only the reader pushes to its queue, so an idle queue stays idle until the
// reader pushes again.
func (l *link) direct(d *direction) bool {
	cfg := l.p.config()
	return cfg.RTT == 0 && cfg.Jitter == 0 && cfg.Bandwidth <= 0 && !l.p.gate.closed() && d.q.idle()
}

// read reads once from d.src, at most limit bytes. A direct chunk lands in
// the reader's own buffer, delivered before the next read; a queued one in a
// pooled buffer (small reads are copied out so the queue does not pin 64 KiB
// per chunk).
func (d *direction) read(direct bool, limit int) (data []byte, buf *[]byte, err error) {
	if direct {
		if d.buf == nil {
			d.buf = make([]byte, readBufSize)
		}
		n, err := d.src.Read(d.buf[:min(limit, len(d.buf))])
		return d.buf[:n], nil, err
	}
	buf = bufPool.Get().(*[]byte)
	n, err := d.src.Read(*buf)
	if n == 0 {
		bufPool.Put(buf)
		return nil, nil, err
	}
	if n < smallChunk {
		data = append([]byte(nil), (*buf)[:n]...)
		bufPool.Put(buf)
		return data, nil, err
	}
	return (*buf)[:n], buf, err
}

// emit delivers c now from the reader's goroutine if direct, else queues it
// for the writer. It reports false if the link is gone.
func (l *link) emit(d *direction, c chunk, direct bool) bool {
	if direct && l.p.gate.closed() {
		// Isolated since the read began: the chunk waits in the queue, out
		// of the reader's buffer, which the next read reuses.
		c.data = append([]byte(nil), c.data...)
		direct = false
	}
	if !direct {
		return d.q.push(c)
	}
	// The direct path adds no delay and is not timed: it is the hot path
	// of every unimpaired proxy.
	err := l.deliver(c, d.dst, 0, nil, nil, d.counter)
	c.release()
	if err != nil {
		l.teardown()
		return false
	}
	return true
}

// splice moves the next n bytes from d.src to d.dst in the kernel. It
// returns how many moved; err is io.EOF if the source ended first.
func (l *link) splice(d *direction, n int) (int, error) {
	moved, err := io.CopyN(d.dst, d.src, int64(n))
	d.counter.Add(moved)
	l.p.spliced.Add(moved)
	return int(moved), err
}
