package netem

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Config is the impairment of a proxy. The zero value forwards untouched.
type Config struct {
	// RTT is the round trip added between client and broker; each direction
	// delays by RTT/2.
	RTT time.Duration
	// Jitter adds a uniform ±Jitter to each chunk's one-way delay, clamped
	// so that bytes of a connection are never reordered.
	Jitter time.Duration
	// Bandwidth is in Mbit/s per direction per connection; 0 = unlimited.
	Bandwidth float64
	// Rewrite, if non-nil, maps a broker's advertised host:port (as seen in
	// Metadata and FindCoordinator responses) to the proxy address clients
	// should use instead; for --bootstrap clusters whose advertised listeners
	// cannot be changed.
	Rewrite RewriteFunc
	// Fault, if non-nil, cuts connections after produce requests.
	Fault *Fault
	// Opaque passes the bytes through without reading Kafka's framing, for
	// connections the proxy cannot read (TLS): delay, jitter and bandwidth
	// still apply, but no produce request is counted or timed, no
	// response is rewritten and no fault can cut (see passthrough.go). It
	// is decided per connection when the connection is accepted.
	Opaque bool
}

// dialTimeout bounds connecting to the broker for each client connection.
const dialTimeout = 5 * time.Second

// Proxy is a TCP proxy in front of one broker.
type Proxy struct {
	ln     net.Listener
	cfg    atomic.Pointer[Config]
	target atomic.Pointer[string]
	stats  *collector
	events eventLog
	// spliced counts bytes moved by splice on the direct path (for tests).
	spliced atomic.Int64
	fault   faultState
	gate    gate

	ctx       context.Context // cancelled by Close: aborts dials in progress
	cancel    context.CancelFunc
	serveOnce sync.Once
	mu        sync.Mutex
	links     map[*link]struct{}
	closed    bool
	wg        sync.WaitGroup
}

// IsLoopback reports whether host names this machine's loopback interface
// ("localhost", 127.0.0.0/8, ::1): the only addresses prodlab's servers
// listen on, and the only ones a proxy or a local fleet can be reached at.
func IsLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Listen binds a proxy to listen, which must be a loopback address ("" host
// means 127.0.0.1). It binds before Serve so that the address can be
// advertised before the broker starts. If a fixed port is taken, it falls
// back to a free port: check Addr.
func Listen(listen string) (*Proxy, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, fmt.Errorf("netem: listen address %q: %w", listen, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if !IsLoopback(host) {
		return nil, fmt.Errorf("netem: listen address %q: only loopback addresses are allowed", listen)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil && port != "0" && errors.Is(err, syscall.EADDRINUSE) {
		ln, err = net.Listen("tcp", net.JoinHostPort(host, "0"))
	}
	if err != nil {
		return nil, fmt.Errorf("netem: listen on %s: %w", listen, err)
	}
	p := &Proxy{ln: ln, stats: newCollector(), links: make(map[*link]struct{})}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	p.cfg.Store(&Config{})
	return p, nil
}

// Isolate stops the proxy passing bytes, in both directions and on every
// connection (new ones included), until Heal: a network partition. Bytes
// keep arriving and wait in the delay line (each direction up to its cap,
// then TCP flow control holds the sender), as a partition shorter than
// TCP's retransmission timeout would hold them; Heal delivers them. New
// connections are still accepted (the listener is the kernel's), so a
// client's connect succeeds and its requests wait, where a real partition
// would also stall the connect. Isolations count: each needs its Heal.
func (p *Proxy) Isolate() { p.gate.close() }

// Heal ends one Isolate.
func (p *Proxy) Heal() { p.gate.open() }

// Addr is the address clients connect to, host:port.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Serve starts accepting connections and forwarding them to target with cfg.
// Calling it again changes the target for new connections and the config.
func (p *Proxy) Serve(target string, cfg Config) {
	p.target.Store(&target)
	p.SetConfig(cfg)
	p.serveOnce.Do(func() {
		p.wg.Add(1)
		go p.acceptLoop()
	})
}

// SetConfig changes the impairments. It applies to new connections and to
// live ones from their next chunk (delay, jitter, bandwidth, faults; which
// responses get rewritten is decided when the request passes). Fault
// counters and offsets restart from now.
func (p *Proxy) SetConfig(cfg Config) {
	c := cfg
	p.cfg.Store(&c)
	p.fault.reset(cfg.Fault, time.Now())
}

func (p *Proxy) config() *Config { return p.cfg.Load() }

// Stats returns the figures since the last ResetStats.
func (p *Proxy) Stats() Stats { return p.stats.snapshot().stats() }

// ResetStats zeroes the figures, e.g. between trials. Requests in flight at
// the reset still complete, so a round trip may straddle the reset.
func (p *Proxy) ResetStats() { p.stats.reset() }

// Events returns the event log (cuts, dial errors, framing and rewrite
// errors) in order.
func (p *Proxy) Events() []Event { return p.events.list() }

// Close stops accepting, closes every connection and waits for the proxy's
// goroutines to end.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	p.cancel()
	links := make([]*link, 0, len(p.links))
	for l := range p.links {
		links = append(links, l)
	}
	p.mu.Unlock()
	err := p.ln.Close()
	for _, l := range links {
		l.teardown()
	}
	p.wg.Wait()
	if err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("netem: close %s: %w", p.Addr(), err)
	}
	return nil
}

func (p *Proxy) acceptLoop() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			time.Sleep(10 * time.Millisecond) // e.g. EMFILE: do not spin
			continue
		}
		p.stats.onConn()
		p.wg.Add(1)
		go p.handle(c)
	}
}

// handle dials the broker for one client connection and starts its four
// goroutines: a reader and a writer per direction.
func (p *Proxy) handle(client net.Conn) {
	defer p.wg.Done()
	target := *p.target.Load()
	ctx, cancel := context.WithTimeout(p.ctx, dialTimeout)
	var d net.Dialer
	broker, err := d.DialContext(ctx, "tcp", target)
	cancel()
	if err != nil {
		p.events.add(EventDialError, fmt.Sprintf("client %s: dial broker %s: %v", client.RemoteAddr(), target, err))
		client.Close()
		return
	}
	setNoDelay(client)
	setNoDelay(broker)
	l := &link{
		p:       p,
		client:  client,
		broker:  broker,
		target:  target,
		opaque:  p.config().Opaque,
		pending: make(map[int32]*pendingReq),
		up:      direction{src: client, dst: broker, q: newQueue(maxQueuedBytes), counter: &p.stats.bytesUp},
		down:    direction{src: broker, dst: client, q: newQueue(maxQueuedBytes), counter: &p.stats.bytesDown},
		done:    make(chan struct{}),
	}
	l.writers.Store(2)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		client.Close()
		broker.Close()
		return
	}
	p.links[l] = struct{}{}
	p.mu.Unlock()
	p.wg.Add(4)
	go l.readUp()
	go l.readDown()
	go l.write(&l.up)
	go l.write(&l.down)
}

func setNoDelay(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true)
	}
}

// pendingReq is a request whose response the proxy must act on.
type pendingReq struct {
	key, version int16
	corr         int32
	start        time.Time // the request's last byte entered the proxy; guarded by link.mu
	produce      bool      // tracked produce request: in flight until answered
	fetch        bool      // fetch request: its round trip is timed
	cut          bool      // swallow the response and close the client connection
	rewrite      RewriteFunc
}

// link is one proxied client connection.
type link struct {
	p              *Proxy
	client, broker net.Conn
	target         string
	up, down       direction // client→broker and broker→client
	done           chan struct{}
	closeOnce      sync.Once
	writers        atomic.Int32 // writers not yet finished by an orderly half-close
	opaque         bool         // Config.Opaque when the connection was accepted

	mu       sync.Mutex
	pending  map[int32]*pendingReq
	inflight int
	holds    int // pending requests whose response is rewritten or cut
}

// teardown closes both sides and the queues; safe to call many times.
func (l *link) teardown() {
	l.closeOnce.Do(func() {
		close(l.done)
		l.client.Close()
		l.broker.Close()
		l.up.q.close()
		l.down.q.close()
		l.p.mu.Lock()
		delete(l.p.links, l)
		l.p.mu.Unlock()
	})
}

// readUp carries client→broker bytes to the broker, through the up delay
// line unless the direct path applies, following the request framing on the
// way.
func (l *link) readUp() {
	defer l.p.wg.Done()
	d := &l.up
	sched := newSchedule()
	var scan requestScanner
	var now time.Time
	var lastCorr int32
	onRequest := func(info requestInfo) {
		lastCorr = info.Corr
		l.onRequest(info, now)
	}
	for {
		direct := l.direct(d)
		limit := readBufSize
		if direct && scan.n == 0 && scan.last >= spliceMin {
			limit = headRead
		}
		data, buf, err := d.read(direct, limit)
		if len(data) > 0 {
			now = time.Now()
			cfg := l.p.config()
			if scan.err == nil && !l.opaque {
				if ferr := scan.feed(data, onRequest); ferr != nil {
					l.p.events.add(EventFramingError, fmt.Sprintf("client %s → broker %s: %v", l.client.RemoteAddr(), l.target, ferr))
				}
			}
			if !l.emit(d, chunk{data: data, buf: buf, at: sched.deliverAt(now, cfg), arrived: now}, direct) {
				return
			}
			// Splice only while nothing waits in the queue: a chunk queued
			// because the gate closed during the read must reach the broker
			// before the rest of its request.
			if rest := scan.skippable(); direct && err == nil && rest >= spliceMin && !l.p.gate.closed() && d.q.idle() {
				// Complete the frame first, so that the request is known
				// before the broker can answer it, then stamp its start when
				// its last byte has passed.
				scan.skip(rest, onRequest)
				var n int
				n, err = l.splice(d, rest)
				if n == rest {
					l.restamp(lastCorr, time.Now())
				}
			}
		}
		if err != nil {
			l.endRead(d.q, err)
			return
		}
	}
}

// endRead handles the end of one direction's source: an orderly EOF is
// forwarded as a half-close after the queued bytes; an error tears down.
func (l *link) endRead(q *queue, err error) {
	if errors.Is(err, io.EOF) && q.push(chunk{eof: true}) {
		return
	}
	l.teardown()
}

// onRequest registers a complete request whose response matters.
func (l *link) onRequest(info requestInfo, now time.Time) {
	cfg := l.p.config()
	if info.Key == apiProduce {
		if info.AcksKnown && info.Acks == 0 {
			l.p.stats.onProduce(info.Bytes, 0)
			return
		}
		r := &pendingReq{key: info.Key, version: info.Version, corr: info.Corr, start: now, produce: true}
		r.cut = l.p.fault.cut(now)
		l.mu.Lock()
		l.pending[info.Corr] = r
		if r.cut {
			l.holds++
		}
		l.inflight++
		n := l.inflight
		l.mu.Unlock()
		l.p.stats.onProduce(info.Bytes, n)
		return
	}
	if info.Key == apiFetch {
		l.mu.Lock()
		l.pending[info.Corr] = &pendingReq{key: info.Key, version: info.Version, corr: info.Corr, start: now, fetch: true}
		l.mu.Unlock()
		return
	}
	if cfg.Rewrite != nil && (info.Key == apiMetadata || info.Key == apiFindCoordinator) {
		r := &pendingReq{key: info.Key, version: info.Version, corr: info.Corr, start: now, rewrite: cfg.Rewrite}
		l.mu.Lock()
		l.pending[info.Corr] = r
		l.holds++
		l.mu.Unlock()
	}
}

// holdNeeded implements respHooks.
func (l *link) holdNeeded() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.holds > 0
}

// lookup implements respHooks: it forgets the request a response answers
// and says what to do with the response.
func (l *link) lookup(corr int32) (respAction, *pendingReq) {
	l.mu.Lock()
	r, ok := l.pending[corr]
	if ok {
		delete(l.pending, corr)
		if r.cut || r.rewrite != nil {
			l.holds--
		}
	}
	l.mu.Unlock()
	switch {
	case !ok:
		return respPass, nil
	case r.cut:
		return respCut, r
	case r.rewrite != nil:
		return respRewrite, r
	case r.produce, r.fetch:
		return respPass, r
	}
	return respPass, nil
}

// rewrite implements respHooks.
func (l *link) rewrite(r *pendingReq, frame []byte) []byte {
	out, err := rewriteFrame(r.key, r.version, frame, r.rewrite)
	if err != nil {
		l.p.events.add(EventRewriteError, fmt.Sprintf("broker %s: %v", l.target, err))
	}
	return out
}

// readDown carries broker→client bytes to the client, through the down delay
// line unless the direct path applies, following the response framing to time
// produce round trips, rewrite metadata and cut.
func (l *link) readDown() {
	defer l.p.wg.Done()
	d := &l.down
	sched := newSchedule()
	var scan respScanner
	for {
		direct := l.direct(d)
		data, buf, err := d.read(direct, readBufSize)
		if len(data) > 0 && l.opaque {
			if !l.passDown(d, data, buf, sched, direct) {
				return
			}
		} else if len(data) > 0 {
			now := time.Now()
			cfg := l.p.config()
			cut, ferr := scan.feed(data, l)
			if ferr != nil {
				l.p.events.add(EventFramingError, fmt.Sprintf("broker %s → client %s: %v", l.target, l.client.RemoteAddr(), ferr))
			}
			c := chunk{at: sched.deliverAt(now, cfg), arrived: now}
			switch {
			case len(scan.segs) == 1 && scan.segs[0].owned == nil:
				c.data, c.buf = data[scan.segs[0].from:scan.segs[0].to], buf
			default:
				for _, s := range scan.segs {
					if s.owned != nil {
						c.data = append(c.data, s.owned...)
					} else {
						c.data = append(c.data, data[s.from:s.to]...)
					}
				}
				if buf != nil {
					bufPool.Put(buf)
				}
			}
			if len(scan.marks) > 0 {
				c.marks = append([]mark(nil), scan.marks...)
			}
			if len(c.data) > 0 && !l.emit(d, c, direct) {
				return
			}
			if cut != nil {
				d.q.push(chunk{at: c.at, cut: cut})
				return
			}
		}
		if err != nil {
			l.endRead(d.q, err)
			return
		}
	}
}

// write delivers the chunks queued for one direction to its destination at
// their times, paced to the configured bandwidth.
func (l *link) write(d *direction) {
	defer l.p.wg.Done()
	dst := d.dst
	w := newWaiter(l.done)
	var pace pacer
	for {
		c, ok := d.q.pop()
		if !ok {
			return
		}
		if !w.until(c.at) || !l.p.gate.wait(l.done) {
			c.release()
			return
		}
		if c.cut != nil {
			l.p.events.add(EventCut, fmt.Sprintf("client %s: swallowed response to produce correlation id %d from broker %s and closed the connection", l.client.RemoteAddr(), c.cut.corr, l.target))
			l.teardown()
			return
		}
		if c.eof {
			if tc, ok := dst.(*net.TCPConn); ok {
				_ = tc.CloseWrite()
			}
			if l.writers.Add(-1) == 0 {
				l.teardown()
			}
			return
		}
		if err := l.deliver(c, dst, l.p.config().Bandwidth, w, &pace, d.counter); err != nil {
			c.release()
			l.teardown()
			return
		}
		l.p.stats.onDelay(d == &l.up, c.arrived)
		c.release()
	}
}

// deliver writes one chunk, in pieces of about 1 ms of transmission when
// bandwidth is limited (mbit > 0, which needs w and pace), noting the
// delivery of responses it starts.
func (l *link) deliver(c chunk, dst net.Conn, mbit float64, w *waiter, pace *pacer, counter *atomic.Int64) error {
	q := quantum(mbit)
	marks := c.marks
	for off := 0; off < len(c.data); {
		end := min(off+q, len(c.data))
		if mbit > 0 {
			if !w.until(pace.reserve(time.Now(), end-off, mbit)) {
				return net.ErrClosed
			}
		} else if pace != nil {
			pace.reserve(time.Time{}, 0, 0)
		}
		for len(marks) > 0 && marks[0].off < end {
			l.onResponse(marks[0].req)
			marks = marks[1:]
		}
		n, err := dst.Write(c.data[off:end])
		counter.Add(int64(n))
		if err != nil {
			return fmt.Errorf("netem: write to %s: %w", dst.RemoteAddr(), err)
		}
		off = end
	}
	return nil
}

// onResponse notes that the first byte of the response to r reaches the
// client now.
func (l *link) onResponse(r *pendingReq) {
	if r.fetch {
		l.p.stats.onFetchRTT(time.Since(r.start))
		return
	}
	if !r.produce {
		return
	}
	now := time.Now()
	l.mu.Lock()
	l.inflight--
	rtt := now.Sub(r.start)
	l.mu.Unlock()
	l.p.stats.onRTT(rtt)
}

// restamp sets the start of request corr, if still unanswered, to now. A
// spliced request is registered before its body passes the proxy (so that
// its response cannot overtake it) and has fully entered it only now.
func (l *link) restamp(corr int32, now time.Time) {
	l.mu.Lock()
	if r, ok := l.pending[corr]; ok {
		r.start = now
	}
	l.mu.Unlock()
}

// String names the proxy for logs.
func (p *Proxy) String() string {
	t := p.target.Load()
	if t == nil {
		return p.Addr()
	}
	return p.Addr() + "→" + *t
}
