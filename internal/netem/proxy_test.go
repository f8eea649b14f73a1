package netem

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/testtier"
)

// freeClosedAddr returns a loopback address nothing listens on.
func freeClosedAddr(t *testing.T) string {
	t.Helper()
	// A port outside the kernel's ephemeral range: dialing a closed port
	// inside it can pick that very port as the source and connect to
	// itself (TCP self-connect), which once made a dead broker answer
	// (TestDialError read until its timeout).
	low := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil {
				low = n
			}
		}
	}
	for range 100 {
		port := 1024 + rand.IntN(max(1, low-1024))
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			continue // taken: try another
		}
		addr := ln.Addr().String()
		ln.Close()
		return addr
	}
	t.Fatalf("no free port below the ephemeral range (%d)", low)
	return ""
}

// TestListen: loopback only, and a taken fixed port falls back to a free one.
func TestListen(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	for _, tc := range []struct {
		name    string
		listen  string
		wantErr bool
	}{
		{"free port", "127.0.0.1:0", false},
		{"empty host means loopback", ":0", false},
		{"taken port falls back", taken.Addr().String(), false},
		{"non-loopback refused", "0.0.0.0:0", true},
		{"garbage", "nope", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Listen(tc.listen)
			if tc.wantErr {
				if err == nil {
					p.Close()
					t.Fatalf("Listen(%q) succeeded, want an error", tc.listen)
				}
				return
			}
			if err != nil {
				t.Fatalf("Listen(%q): %v", tc.listen, err)
			}
			defer p.Close()
			if !strings.HasPrefix(p.Addr(), "127.0.0.1:") || p.Addr() == taken.Addr().String() {
				t.Errorf("Addr() = %s", p.Addr())
			}
		})
	}
}

// TestDialError: a proxy whose broker is down closes the client connection
// and records an event naming the target; Set.Check names broker and address.
func TestDialError(t *testing.T) {
	dead := freeClosedAddr(t)
	s := NewSet()
	t.Cleanup(func() { s.Close() })
	if _, err := s.Add(1, startEcho(t)); err != nil {
		t.Fatal(err)
	}
	addr, err := s.Add(2, dead)
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, addr)
	if _, err := c.Read(make([]byte, 1)); !errors.Is(err, io.EOF) && (err == nil || isTimeout(err)) {
		t.Fatalf("read from proxy of a dead broker: %v, want the connection closed", err)
	}
	ev := s.Events()
	if len(ev) != 1 || ev[0].Kind != EventDialError || !strings.Contains(ev[0].Detail, dead) || !strings.HasPrefix(ev[0].Detail, "broker 2:") {
		t.Errorf("events %+v, want one dial_error for broker 2 at %s", ev, dead)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	err = s.Check(ctx)
	if err == nil || !strings.Contains(err.Error(), "broker 2 at "+dead) || strings.Contains(err.Error(), "broker 1") {
		t.Errorf("Check() = %v, want an error naming broker 2 at %s only", err, dead)
	}
}

// TestSet: proxies of a set share the config, aggregate stats, and the
// Rewriter maps targets to proxy addresses.
func TestSet(t *testing.T) {
	testtier.Quiet(t) // counts the proxy's connections: beside other packages, a client retrying a stopped broker's port can land on it
	s := NewSet()
	t.Cleanup(func() { s.Close() })
	s.SetConfig(Config{RTT: 20 * time.Millisecond})
	var targets []string
	for id := int32(0); id < 2; id++ {
		fb := &fakeBroker{respond: ackResponse}
		target := fb.start(t)
		targets = append(targets, target)
		if _, err := s.Add(id, target); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Add(0, targets[0]); err == nil {
		t.Error("adding broker 0 twice succeeded")
	}
	for id := int32(0); id < 2; id++ {
		c := dial(t, s.Addr(id))
		start := time.Now()
		for i := range int(id) + 1 {
			if !produceOnce(t, c, int32(i)) {
				t.Fatalf("broker %d: connection closed", id)
			}
		}
		if d := time.Since(start); d < 20*time.Millisecond*time.Duration(id+1) {
			t.Errorf("broker %d: %d round trips in %v, config not applied", id, id+1, d)
		}
	}
	st := s.Stats()
	if st.ProduceRequests != 3 || st.Connections != 2 || st.MaxInFlight != 1 || st.RTTp50Ms < 20 {
		t.Errorf("aggregated stats %+v, want 3 requests, 2 connections, max in flight 1, p50 ≥ 20 ms", st)
	}
	host, portStr, _ := net.SplitHostPort(targets[1])
	port, _ := strconv.Atoi(portStr)
	h, pn, ok := s.Rewriter()(host, int32(port))
	if got := net.JoinHostPort(h, strconv.Itoa(int(pn))); !ok || got != s.Addr(1) {
		t.Errorf("Rewriter(%s) = %s, %v; want %s", targets[1], got, ok, s.Addr(1))
	}
	if _, _, ok := s.Rewriter()("10.9.9.9", 9092); ok {
		t.Error("Rewriter mapped an address outside the set")
	}
}

// TestSetConfigLive: a live connection picks up a new RTT.
func TestSetConfigLive(t *testing.T) {
	p := startProxy(t, startEcho(t), Config{RTT: 100 * time.Millisecond})
	c := dial(t, p.Addr())
	if d := roundTrip(t, c, 10); d < 99*time.Millisecond {
		t.Fatalf("round trip %v before SetConfig, want ≥ 100ms", d)
	}
	p.SetConfig(Config{})
	roundTrip(t, c, 10) // the proxy times a chunk after writing it: let the last delayed one land before the reset
	p.ResetStats()
	for range 5 {
		roundTrip(t, c, 10)
	}
	// The proxy's own timing of the delay it applied: under the old config
	// every chunk is held ≥ 50 ms each way (the delay line is never early);
	// now only for a hand-off between its goroutines, or not at all on the
	// direct path (0). A median of 5 rides out a stall or two.
	if st := p.Stats(); st.UpDelayP50Ms >= 50 || st.DownDelayP50Ms >= 50 {
		t.Errorf("applied delay %.3f ms up, %.3f ms down after SetConfig(RTT 0) on a live connection, want under 50 ms each", st.UpDelayP50Ms, st.DownDelayP50Ms)
	}
}

// TestClose: Close ends live connections and is safe to call twice.
func TestClose(t *testing.T) {
	var n atomic.Int64
	p, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.Serve(startSink(t, &n), Config{RTT: time.Second})
	c := dial(t, p.Addr())
	if _, err := c.Write([]byte("pending")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	done := make(chan error, 1)
	go func() { done <- p.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(testTimeout):
		t.Fatal("Close did not return")
	}
	if _, err := c.Read(make([]byte, 1)); err == nil || isTimeout(err) {
		t.Errorf("read after Close: %v, want closed", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}
