package netem

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"
	"time"
)

// patternedFrame is a version 7 produce request (acks=all) whose record
// bytes, the last payload bytes of the frame, follow a pattern of corr, so
// that a receiver can tell a misplaced or corrupted byte.
func patternedFrame(corr int32, payload int) []byte {
	f := produceFrame(7, corr, -1, payload, nil)
	body := f[len(f)-payload:]
	for i := range body {
		body[i] = byte(int(corr)*31 + i)
	}
	return f
}

// checkPatterned verifies a request built by patternedFrame and that
// correlation ids arrive in order.
func checkPatterned(sizes []int) func([]byte) error {
	next := int32(0)
	return func(req []byte) error {
		corr := int32(binary.BigEndian.Uint32(req[4:]))
		if corr != next {
			return fmt.Errorf("request with correlation id %d arrived, want %d", corr, next)
		}
		next++
		body := req[len(req)-sizes[corr]:]
		for i, b := range body {
			if b != byte(int(corr)*31+i) {
				return fmt.Errorf("request %d: record byte %d is %d, want %d", corr, i, b, byte(int(corr)*31+i))
			}
		}
		return nil
	}
}

// TestDirectPath sends pipelined produce requests of mixed sizes through a
// proxy that starts unimpaired (direct path: the reader writes itself and
// splices large bodies), gets a 20 ms RTT on the live connection, and
// loses it again while requests wait in the delay line. Every byte must reach the broker in order, the framing
// statistics must stay exact across the switches, the delay must apply
// while set, and the large bodies must really have been spliced.
func TestDirectPath(t *testing.T) {
	const k, waves = 5, 12
	sizes := make([]int, k*waves)
	for i := range sizes {
		sizes[i] = []int{200 << 10, 70 << 10, 1000, 20 << 10, 5 << 10, 64 << 10}[i%6]
	}
	// The broker answers a wave once all k requests arrived, so that all k
	// are in flight at once whatever the scheduling (MaxInFlight below).
	fb := &fakeBroker{respond: ackResponse, check: checkPatterned(sizes), wave: k}
	p := startProxy(t, fb.start(t), Config{})
	c := dial(t, p.Addr())
	var total int
	for wave := range waves {
		if wave == 4 {
			p.SetConfig(Config{RTT: 20 * time.Millisecond})
		}
		start := time.Now()
		for i := range k {
			if wave == 8 && i == 2 {
				// Two requests wait in the delay line: the next ones must
				// queue behind them, not overtake them on the direct path.
				time.Sleep(time.Millisecond)
				p.SetConfig(Config{})
			}
			f := patternedFrame(int32(wave*k+i), sizes[wave*k+i])
			total += len(f)
			if _, err := c.Write(f); err != nil {
				t.Fatalf("write request %d: %v", wave*k+i, err)
			}
		}
		for i := range k {
			f, err := readFrame(c)
			if err != nil {
				t.Fatalf("response %d: %v", wave*k+i, err)
			}
			if corr := int32(binary.BigEndian.Uint32(f[4:])); corr != int32(wave*k+i) {
				t.Fatalf("response %d has correlation id %d", wave*k+i, corr)
			}
		}
		// The first wave after the switch may still start on the direct
		// path; from the next one on the delay must apply.
		if d := time.Since(start); wave >= 5 && wave < 8 && d < 20*time.Millisecond {
			t.Errorf("wave %d took %v with RTT 20ms set", wave, d)
		}
	}
	if errp := fb.checkErr.Load(); errp != nil {
		t.Fatal(*errp)
	}
	// The proxy counts a write's bytes once the write returns, which can be
	// after the broker's answer reached the client: wait (at most 10 s) for
	// the last count.
	s := p.Stats()
	for deadline := time.Now().Add(testTimeout); s.BytesUp < int64(total) && time.Now().Before(deadline); s = p.Stats() {
		time.Sleep(time.Millisecond)
	}
	if s.ProduceRequests != int64(len(sizes)) || s.MaxInFlight != k {
		t.Errorf("ProduceRequests %d MaxInFlight %d, want %d and %d", s.ProduceRequests, s.MaxInFlight, len(sizes), k)
	}
	if want := float64(total) / float64(len(sizes)); math.Abs(s.MeanRequestBytes-want) > 1e-9 {
		t.Errorf("MeanRequestBytes %v, want %v", s.MeanRequestBytes, want)
	}
	if s.BytesUp != int64(total) {
		t.Errorf("BytesUp %d, want %d", s.BytesUp, total)
	}
	if s.RTTp50Ms <= 0 || s.RTTp99Ms < 20 {
		t.Errorf("round trip p50 %.3f ms p99 %.3f ms, want > 0 and ≥ 20 ms (a third of the requests were delayed)", s.RTTp50Ms, s.RTTp99Ms)
	}
	if n := p.spliced.Load(); n < 512<<10 {
		t.Errorf("%d bytes spliced, want most large bodies of the unimpaired waves (> 512 KiB)", n)
	}
	t.Logf("%+v, %d bytes spliced of %d", s, p.spliced.Load(), total)
}
