package netem

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"
	"time"
)

// TestIsolate: an isolated proxy passes no bytes in either direction, on
// the direct path as on the delay line, and Heal delivers what waited,
// in order.
func TestIsolate(t *testing.T) {
	for _, cfg := range []Config{{}, {RTT: 4 * time.Millisecond}} {
		p := startProxy(t, startEcho(t), cfg)
		c := dial(t, p.Addr())
		if d := roundTrip(t, c, 10); d > testTimeout {
			t.Fatalf("RTT %v: round trip %v before isolation", cfg.RTT, d)
		}
		p.Isolate()
		if _, err := c.Write([]byte("held")); err != nil {
			t.Fatal(err)
		}
		_ = c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
		buf := make([]byte, 4)
		if n, err := c.Read(buf); err == nil || !isTimeout(err) {
			t.Fatalf("RTT %v: read %q (%v) through an isolated proxy, want a timeout", cfg.RTT, buf[:n], err)
		}
		p.Heal()
		_ = c.SetReadDeadline(time.Now().Add(testTimeout))
		if _, err := io.ReadFull(c, buf); err != nil || !bytes.Equal(buf, []byte("held")) {
			t.Fatalf("RTT %v: after Heal read %q, %v; want the held bytes", cfg.RTT, buf, err)
		}
	}
}

// TestSetConfigFunc: each broker's proxy gets its own Config.
func TestSetConfigFunc(t *testing.T) {
	s := NewSet()
	t.Cleanup(func() { s.Close() })
	s.SetConfigFunc(func(id int32) Config { return Config{RTT: time.Duration(id) * 40 * time.Millisecond} })
	for id := int32(0); id < 2; id++ {
		if _, err := s.Add(id, startEcho(t)); err != nil {
			t.Fatal(err)
		}
	}
	fast, slow := roundTrip(t, dial(t, s.Addr(0)), 10), roundTrip(t, dial(t, s.Addr(1)), 10)
	// Broker 0's proxy at RTT 0 takes the direct path, which applies no
	// delay and times none (0); broker 1's is never early.
	if st := s.Proxy(0).Stats(); st.UpDelayP50Ms != 0 || st.DownDelayP50Ms != 0 || slow < 40*time.Millisecond {
		t.Errorf("round trips %v (RTT 0, applied delay %.3f + %.3f ms) and %v (RTT 40ms): per-broker configs not applied",
			fast, st.UpDelayP50Ms, st.DownDelayP50Ms, slow)
	}
}

// TestFetchRTT: fetch round trips are timed apart from produce ones, and
// the least is the emulated round trip plus the broker's answer.
func TestFetchRTT(t *testing.T) {
	fb := &fakeBroker{respond: ackResponse}
	p := startProxy(t, fb.start(t), Config{RTT: 10 * time.Millisecond})
	c := dial(t, p.Addr())
	for corr := range int32(3) {
		frame := make([]byte, 4+10)
		binary.BigEndian.PutUint32(frame, 10)
		binary.BigEndian.PutUint16(frame[4:], uint16(apiFetch))
		binary.BigEndian.PutUint16(frame[6:], 12)
		binary.BigEndian.PutUint32(frame[8:], uint32(corr))
		if _, err := c.Write(frame); err != nil {
			t.Fatal(err)
		}
		if _, err := readFrame(c); err != nil {
			t.Fatalf("fetch %d: %v", corr, err)
		}
	}
	st := p.Stats()
	// Never below the 10 ms RTT, less the minWait a wait may end early per
	// direction; the upper bound is a loose catch for a wrong delay.
	if early := 2 * float64(minWait) / 1e6; st.Fetches != 3 || st.ProduceRequests != 0 || st.FetchRTTMinMs < 10-early || st.FetchRTTMinMs >= 100 {
		t.Errorf("stats %+v, want 3 fetches of 10–100 ms and no produce request", st)
	}
}

// TestAppliedDelay: the proxy times the delay it applies per direction;
// their medians add up to the configured round trip, and the direct path
// adds next to nothing.
func TestAppliedDelay(t *testing.T) {
	for _, rtt := range []time.Duration{0, 20 * time.Millisecond} {
		p := startProxy(t, startEcho(t), Config{RTT: rtt})
		c := dial(t, p.Addr())
		for range 20 {
			roundTrip(t, c, 100)
		}
		st := p.Stats()
		got := st.UpDelayP50Ms + st.DownDelayP50Ms
		want := float64(rtt) / float64(time.Millisecond)
		if rtt == 0 && got != 0 {
			t.Errorf("RTT 0: applied delay %.3f ms, want 0: the direct path is not timed", got)
		}
		// Timers only fire late: never under the RTT (less the minWait a
		// wait may end early per direction), and 10 ms over it only if the
		// medians of both directions are 5 ms late.
		if early := 2 * float64(minWait) / 1e6; rtt > 0 && (got < want-early || got >= want+10) {
			t.Errorf("RTT %v: applied delay %.3f + %.3f ms, want %.0f to %.0f ms", rtt, st.UpDelayP50Ms, st.DownDelayP50Ms, want, want+10)
		}
	}
}

// TestSetPut: putting a broker again keeps its proxy and address and
// points new connections at the new target (a cluster restarted on fresh
// ports).
func TestSetPut(t *testing.T) {
	s := NewSet()
	t.Cleanup(func() { s.Close() })
	first, err := s.Put(1, freeClosedAddr(t))
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.Put(1, startEcho(t))
	if err != nil || again != first {
		t.Fatalf("Put again = %q, %v; want the same proxy %q", again, err, first)
	}
	if d := roundTrip(t, dial(t, again), 10); d > testTimeout {
		t.Errorf("round trip %v through the re-pointed proxy", d)
	}
}

// TestIsolateCounts: two overlapping isolations (two zones cut off) hold
// the proxy until both have healed.
func TestIsolateCounts(t *testing.T) {
	p := startProxy(t, startEcho(t), Config{RTT: 2 * time.Millisecond})
	c := dial(t, p.Addr())
	p.Isolate()
	p.Isolate()
	p.Heal()
	if _, err := c.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	buf := make([]byte, 1)
	if _, err := c.Read(buf); err == nil || !isTimeout(err) {
		t.Fatalf("read %q (%v) after one of two heals, want a timeout", buf, err)
	}
	p.Heal()
	_ = c.SetReadDeadline(time.Now().Add(testTimeout))
	if _, err := io.ReadFull(c, buf); err != nil {
		t.Fatalf("after both heals: %v", err)
	}
}
