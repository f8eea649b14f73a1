package netem

import (
	"strings"
	"testing"
	"time"
)

// produceOnce sends one acks=all produce request and reads its response; it
// reports false if the connection was closed instead.
func produceOnce(t *testing.T, c interface {
	Write([]byte) (int, error)
	Read([]byte) (int, error)
}, corr int32) bool {
	t.Helper()
	if _, err := c.Write(produceFrame(7, corr, -1, 64, nil)); err != nil {
		t.Fatalf("write produce %d: %v", corr, err)
	}
	_, err := readFrame(c)
	if err != nil && isTimeout(err) {
		t.Fatalf("produce %d: neither response nor close: %v", corr, err)
	}
	return err == nil
}

// TestCutEveryN: with EveryProduce 3, the 3rd produce request reaches the
// broker (it is counted there) but the client sees its connection closed
// without a response; a new connection works again until the 6th.
func TestCutEveryN(t *testing.T) {
	fb := &fakeBroker{delay: time.Millisecond, respond: ackResponse}
	p := startProxy(t, fb.start(t), Config{RTT: 2 * time.Millisecond, Fault: &Fault{EveryProduce: 3}})
	c := dial(t, p.Addr())
	for i := int32(1); i <= 2; i++ {
		if !produceOnce(t, c, i) {
			t.Fatalf("produce %d: connection closed, want a response", i)
		}
	}
	if produceOnce(t, c, 3) {
		t.Fatal("produce 3: got a response, want the connection cut")
	}
	if got := fb.produce.Load(); got != 3 {
		t.Errorf("broker received %d produce requests, want 3 (the cut one included)", got)
	}
	c2 := dial(t, p.Addr())
	for i := int32(4); i <= 5; i++ {
		if !produceOnce(t, c2, i) {
			t.Fatalf("produce %d on a new connection: closed, want a response", i)
		}
	}
	if produceOnce(t, c2, 6) {
		t.Fatal("produce 6: got a response, want the connection cut")
	}
	var cuts []Event
	for _, e := range p.Events() {
		if e.Kind == EventCut {
			cuts = append(cuts, e)
		}
	}
	if len(cuts) != 2 || !strings.Contains(cuts[0].Detail, "correlation id 3") || cuts[0].Time.IsZero() {
		t.Errorf("cut events %+v, want 2, the first for correlation id 3", cuts)
	}
}

// TestCutAt: a cut set 80 ms after SetConfig on a live connection cuts the
// first produce request after that time, once. (Which requests an offset
// spares, without a clock to race, is TestFaultState's.)
func TestCutAt(t *testing.T) {
	fb := &fakeBroker{respond: ackResponse}
	p := startProxy(t, fb.start(t), Config{})
	c := dial(t, p.Addr())
	if !produceOnce(t, c, 1) {
		t.Fatal("produce before the cut was armed: connection closed")
	}
	p.SetConfig(Config{Fault: &Fault{At: []time.Duration{80 * time.Millisecond}}})
	time.Sleep(85 * time.Millisecond) // past the offset, which counts from SetConfig
	if produceOnce(t, c, 2) {
		t.Fatal("produce after the cut time: got a response, want the connection cut")
	}
	c2 := dial(t, p.Addr())
	if !produceOnce(t, c2, 3) {
		t.Fatal("produce after the one cut: connection closed, want a response")
	}
}

// TestFaultState checks the cut schedule without a network.
func TestFaultState(t *testing.T) {
	t0 := time.Now()
	for _, tc := range []struct {
		name  string
		f     *Fault
		times []time.Duration // produce request times since reset
		want  []bool
	}{
		{"nil fault never cuts", nil, []time.Duration{0, 1, 2}, []bool{false, false, false}},
		{"every 2", &Fault{EveryProduce: 2}, []time.Duration{0, 1, 2, 3}, []bool{false, true, false, true}},
		{"at offsets, unsorted", &Fault{At: []time.Duration{30, 10}}, []time.Duration{5, 10, 12, 29, 31, 40}, []bool{false, true, false, false, true, false}},
		{"passed offsets collapse into one cut", &Fault{At: []time.Duration{1, 2, 3}}, []time.Duration{10, 11}, []bool{true, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s faultState
			s.reset(tc.f, t0)
			for i, d := range tc.times {
				if got := s.cut(t0.Add(d)); got != tc.want[i] {
					t.Errorf("request %d at %v: cut=%v, want %v", i, d, got, tc.want[i])
				}
			}
		})
	}
}
