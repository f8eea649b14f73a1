package netem

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// testTimeout bounds every blocking step of a test.
const testTimeout = 10 * time.Second

// listenLoopback starts a loopback listener that serves each connection with
// handle, closed by t.Cleanup.
func listenLoopback(t testing.TB, handle func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Add(1)
			go func() { defer wg.Done(); defer c.Close(); handle(c) }()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return ln.Addr().String()
}

// startEcho is a server echoing every byte back until EOF.
func startEcho(t testing.TB) string {
	return listenLoopback(t, func(c net.Conn) { _, _ = io.Copy(c, c) })
}

// startSink is a server discarding everything, counting bytes in n.
func startSink(t testing.TB, n *atomic.Int64) string {
	return listenLoopback(t, func(c net.Conn) {
		buf := make([]byte, 256<<10)
		for {
			k, err := c.Read(buf)
			n.Add(int64(k))
			if err != nil {
				return
			}
		}
	})
}

// startProxy serves a proxy to target with cfg, closed by t.Cleanup.
func startProxy(t testing.TB, target string, cfg Config) *Proxy {
	t.Helper()
	p, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	p.Serve(target, cfg)
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return p
}

func dial(t testing.TB, addr string) net.Conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, testTimeout)
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(testTimeout))
	return c
}

// fakeBroker is a TCP server that speaks just enough Kafka framing: it reads
// size-prefixed requests and answers each (in order, per connection) after
// delay with the frame built by respond, or not at all if respond returns
// nil. Requests are counted.
type fakeBroker struct {
	delay   time.Duration
	respond func(key, version int16, corr int32, req []byte) []byte
	// wave, if > 1, holds the answers of a connection until wave requests
	// have arrived since the last release, so that a client's wave is all in
	// flight at once however late its writes are scheduled.
	wave int
	// check, if set, inspects each request (without its size prefix) as it
	// arrives, in order; the first error it returns is kept in checkErr.
	check    func(req []byte) error
	checkErr atomic.Pointer[error]
	requests atomic.Int64
	produce  atomic.Int64
}

func (fb *fakeBroker) start(t testing.TB) string {
	return listenLoopback(t, fb.serve)
}

type due struct {
	at    time.Time
	frame []byte
}

func (fb *fakeBroker) serve(c net.Conn) {
	out := make(chan due, 1024)
	defer close(out)
	go func() {
		for d := range out {
			time.Sleep(time.Until(d.at))
			if _, err := c.Write(d.frame); err != nil {
				for range out { // drain
				}
				return
			}
		}
	}()
	var size [4]byte
	var held []due
	for n := 1; ; n++ {
		if _, err := io.ReadFull(c, size[:]); err != nil {
			return
		}
		req := make([]byte, binary.BigEndian.Uint32(size[:]))
		if _, err := io.ReadFull(c, req); err != nil {
			return
		}
		fb.requests.Add(1)
		if fb.check != nil {
			if err := fb.check(req); err != nil {
				fb.checkErr.CompareAndSwap(nil, &err)
			}
		}
		key := int16(binary.BigEndian.Uint16(req))
		if key == apiProduce {
			fb.produce.Add(1)
		}
		resp := fb.respond(key, int16(binary.BigEndian.Uint16(req[2:])), int32(binary.BigEndian.Uint32(req[4:])), req)
		if resp != nil {
			held = append(held, due{at: time.Now().Add(fb.delay), frame: resp})
		}
		if fb.wave <= 1 || n%fb.wave == 0 {
			for _, d := range held {
				out <- d
			}
			held = held[:0]
		}
	}
}

// ackResponse answers every request but acks=0 produce with a frame holding
// only the correlation id and 8 bytes of body.
func ackResponse(key, version int16, corr int32, req []byte) []byte {
	if key == apiProduce {
		if info := parseRequestHeader(req); info.AcksKnown && info.Acks == 0 {
			return nil
		}
	}
	f := make([]byte, 16)
	binary.BigEndian.PutUint32(f, 12)
	binary.BigEndian.PutUint32(f[4:], uint32(corr))
	return f
}

// produceFrame encodes a produce request with kmsg, with a record batch of
// payload bytes (opaque to everyone here).
func produceFrame(version int16, corr int32, acks int16, payload int, txnID *string) []byte {
	req := kmsg.NewPtrProduceRequest()
	req.Version = version
	req.Acks = acks
	req.TransactionID = txnID
	req.TimeoutMillis = 30000
	topic := kmsg.NewProduceRequestTopic()
	topic.Topic = "prodlab-test"
	part := kmsg.NewProduceRequestTopicPartition()
	part.Records = make([]byte, payload)
	topic.Partitions = append(topic.Partitions, part)
	req.Topics = append(req.Topics, topic)
	return kmsg.NewRequestFormatter(kmsg.FormatterClientID("prodlab")).AppendRequest(nil, req, corr)
}

// readFrame reads one size-prefixed frame.
func readFrame(r io.Reader) ([]byte, error) {
	var size [4]byte
	if _, err := io.ReadFull(r, size[:]); err != nil {
		return nil, err
	}
	f := make([]byte, 4+binary.BigEndian.Uint32(size[:]))
	copy(f, size[:])
	if _, err := io.ReadFull(r, f[4:]); err != nil {
		return nil, err
	}
	return f, nil
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
