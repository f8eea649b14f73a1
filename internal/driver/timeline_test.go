package driver

import (
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

const ms = time.Millisecond

// TestTimelineCut feeds synthetic sends, acks and in-flight changes and
// cuts by hand: each point must hold its own interval's figures only, and
// be marked warm-up exactly when it began before the measured window.
func TestTimelineCut(t *testing.T) {
	type step struct {
		sent, acked, failed int64
		latUs               int64 // of every ack of the step
		inc, dec            int   // in-flight requests started and finished
		measured            bool  // the measured window begins at the step's start + 30ms
		cutAt               time.Duration
	}
	type want struct {
		start, length              time.Duration
		warmup                     bool
		sent, acked, failed, bytes int64
		inflight                   int64
		p50                        int64
	}
	tests := []struct {
		name  string
		gauge bool
		steps []step
		want  []want
		// fromStart marks the measured window from 0 (no warm-up); steps
		// can mark it later.
		fromStart bool
	}{
		{
			name:  "warm-up then measured",
			gauge: true,
			steps: []step{
				{sent: 10, acked: 8, failed: 1, latUs: 100, inc: 3, dec: 1, cutAt: 100 * ms},
				{sent: 5, acked: 6, latUs: 2000, inc: 1, dec: 3, measured: true, cutAt: 200 * ms},
				{sent: 7, acked: 7, latUs: 50, cutAt: 300 * ms},
				{cutAt: 350 * ms}, // an idle, partial last interval
			},
			want: []want{
				{0, 100 * ms, true, 10, 8, 1, 800, 3, 100},
				{100 * ms, 100 * ms, true, 5, 6, 0, 600, 3, 2000}, // began before the window: warm-up
				{200 * ms, 100 * ms, false, 7, 7, 0, 700, 0, 50},
				{300 * ms, 50 * ms, false, 0, 0, 0, 0, 0, 0},
			},
		},
		{
			name: "no gauge, measured from the start",
			steps: []step{
				{sent: 4, acked: 4, latUs: 10, cutAt: 10 * ms},
				{sent: 1, acked: 0, failed: 1, cutAt: 25 * ms},
			},
			fromStart: true,
			want: []want{
				{0, 10 * ms, false, 4, 4, 0, 400, -1, 10},
				{10 * ms, 15 * ms, false, 1, 0, 1, 0, -1, 0},
			},
		},
		{
			name:  "warm-up never ends",
			steps: []step{{sent: 2, acked: 2, latUs: 5, cutAt: 10 * ms}, {cutAt: 20 * ms}},
			want:  []want{{0, 10 * ms, true, 2, 2, 0, 200, -1, 5}, {10 * ms, 10 * ms, true, 0, 0, 0, 0, -1, 0}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var g *inflightGauge
			if tt.gauge {
				g = &inflightGauge{}
			}
			tl := newTimeline(&mu, g)
			if tt.fromStart {
				tl.markMeasured(0)
			}
			var last time.Duration
			for _, s := range tt.steps {
				if s.measured {
					tl.markMeasured(last + 30*ms)
				}
				for range s.inc {
					g.inc()
				}
				for range s.dec {
					g.dec()
				}
				tl.sent.Add(s.sent)
				mu.Lock()
				for range s.acked {
					tl.ackLocked(s.latUs, 100)
				}
				for range s.failed {
					tl.failLocked()
				}
				mu.Unlock()
				tl.cut(s.cutAt)
				last = s.cutAt
			}
			if len(tl.points) != len(tt.want) {
				t.Fatalf("%d points, want %d: %+v", len(tl.points), len(tt.want), tl.points)
			}
			for i, w := range tt.want {
				p := tl.points[i]
				got := want{p.Start, p.Length, p.Warmup, p.Sent, p.Acked, p.Failed, p.AckedBytes, p.InFlight, p.Latency.ValueAtQuantile(50)}
				if got.p50 != w.p50 && (w.p50 == 0 || got.p50 < w.p50*999/1000 || got.p50 > w.p50*1001/1000) {
					t.Errorf("point %d: p50 %d µs, want %d", i, got.p50, w.p50)
				}
				got.p50 = w.p50
				if got != w {
					t.Errorf("point %d = %+v\nwant      %+v", i, got, w)
				}
				if p.Latency.TotalCount() != p.Acked {
					t.Errorf("point %d: latency count %d, acked %d", i, p.Latency.TotalCount(), p.Acked)
				}
				if p.Retries != -1 {
					t.Errorf("point %d: retries %d, want -1 (unknown)", i, p.Retries)
				}
			}
		})
	}
}

// TestTimelineRun cuts with the ticker while acks arrive from several
// goroutines: the points must tile the clock and add up to the totals.
func TestTimelineRun(t *testing.T) {
	var mu sync.Mutex
	tl := newTimeline(&mu, &inflightGauge{})
	start := time.Now()
	tl.markMeasured(0)
	stop := tl.run(start, 3*ms)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int64(1); i <= 500; i++ {
				tl.sent.Add(1)
				mu.Lock()
				tl.ackLocked(i, 10)
				mu.Unlock()
				if i%50 == 0 {
					time.Sleep(ms)
				}
			}
		}()
	}
	wg.Wait()
	end := time.Now()
	points := stop(end)
	if len(points) < 2 {
		t.Fatalf("%d points, want several", len(points))
	}
	var sent, acked, bytes, hist int64
	var at time.Duration
	for i, p := range points {
		if p.Start != at || p.Length <= 0 || p.Warmup {
			t.Errorf("point %d starts at %v (want %v), length %v, warm-up %v", i, p.Start, at, p.Length, p.Warmup)
		}
		at += p.Length
		sent, acked, bytes, hist = sent+p.Sent, acked+p.Acked, bytes+p.AckedBytes, hist+p.Latency.TotalCount()
	}
	if at != end.Sub(start) {
		t.Errorf("points end at %v, want the stop time %v", at, end.Sub(start))
	}
	if sent != 2000 || acked != 2000 || bytes != 20000 || hist != 2000 {
		t.Errorf("points add up to sent %d acked %d bytes %d latencies %d, want 2000 2000 20000 2000", sent, acked, bytes, hist)
	}
}

// TestTimelineStopsAtEnd: ticks that fire after the trial's end, before
// stop stops them, do not carry the points past the end (a fresh clone
// once saw "points end at 15.097434ms, want the stop time 14.603379ms",
// bench/RESULTS.md §63): their points fold into the one the end falls
// in, shortened to it, and what they counted stays counted.
func TestTimelineStopsAtEnd(t *testing.T) {
	var mu sync.Mutex
	tl := newTimeline(&mu, &inflightGauge{})
	start := time.Now()
	tl.markMeasured(0)
	stop := tl.run(start, 2*ms)
	time.Sleep(5 * ms)
	end := time.Now()
	time.Sleep(7 * ms) // three ticks or so after the end
	for i := int64(1); i <= 10; i++ {
		tl.sent.Add(1)
		mu.Lock()
		tl.ackLocked(i, 10)
		mu.Unlock()
	}
	points := stop(end)
	var at time.Duration
	var sent, acked, hist int64
	for i, p := range points {
		if p.Start != at || p.Length <= 0 {
			t.Errorf("point %d starts at %v (want %v), length %v", i, p.Start, at, p.Length)
		}
		at += p.Length
		sent, acked, hist = sent+p.Sent, acked+p.Acked, hist+p.Latency.TotalCount()
	}
	if at != end.Sub(start) {
		t.Errorf("points end at %v, want the stop time %v", at, end.Sub(start))
	}
	if sent != 10 || acked != 10 || hist != 10 {
		t.Errorf("points add up to sent %d acked %d latencies %d, want 10 each", sent, acked, hist)
	}
}

// TestTimelineAckAllocatesNothing: the acknowledgement path stays
// allocation-free with a timeline.
func TestTimelineAckAllocatesNothing(t *testing.T) {
	var mu sync.Mutex
	tl := newTimeline(&mu, nil)
	if n := testing.AllocsPerRun(1000, func() {
		tl.sent.Add(1)
		mu.Lock()
		tl.ackLocked(1234, 100)
		tl.failLocked()
		mu.Unlock()
	}); n != 0 {
		t.Errorf("%v allocations per ack, want 0", n)
	}
}

// TestInflightGauge: the peak of a period is the most in flight during it,
// and the next period starts from the level left.
func TestInflightGauge(t *testing.T) {
	var g inflightGauge
	g.inc()
	g.inc()
	g.inc()
	g.dec()
	g.dec()
	if p := g.takePeak(); p != 3 {
		t.Errorf("peak %d, want 3", p)
	}
	if p := g.takePeak(); p != 1 {
		t.Errorf("peak of an idle period %d, want the level left, 1", p)
	}
	g.dec()
	if p := g.takePeak(); p != 1 {
		t.Errorf("peak %d, want 1", p)
	}
	if p := g.takePeak(); p != 0 {
		t.Errorf("peak %d, want 0", p)
	}
}

// TestFranzHooksInflight drives the hooks as kgo calls them for produce
// requests: written and answered, written and failed on a dead connection,
// failed before any byte was written, and other request keys.
func TestFranzHooksInflight(t *testing.T) {
	var h franzHooks
	var meta kgo.BrokerMetadata
	h.OnBrokerWrite(meta, 0, 100, 0, 0, nil)                                  // request 1 written
	h.OnBrokerWrite(meta, 0, 100, 0, 0, nil)                                  // request 2 written
	h.OnBrokerWrite(meta, 3, 50, 0, 0, nil)                                   // metadata: not produce
	h.OnBrokerWrite(meta, 0, 0, 0, 0, errFake)                                // request 3 never on the wire
	h.OnBrokerE2E(meta, 0, kgo.BrokerE2E{BytesWritten: 0, WriteErr: errFake}) // its end
	if got := h.inflight.takePeak(); got != 2 || h.requests.Load() != 2 {
		t.Errorf("peak %d requests %d, want 2 and 2", got, h.requests.Load())
	}
	h.OnBrokerE2E(meta, 0, kgo.BrokerE2E{BytesWritten: 100, BytesRead: 40})     // 1 answered
	h.OnBrokerE2E(meta, 0, kgo.BrokerE2E{BytesWritten: 100, WriteErr: errFake}) // 2: connection died
	h.OnBrokerE2E(meta, 3, kgo.BrokerE2E{BytesWritten: 50, BytesRead: 40})      // metadata
	if h.inflight.cur.Load() != 0 {
		t.Errorf("%d in flight after every request ended, want 0", h.inflight.cur.Load())
	}
}

var errFake = fakeErr("broken pipe")

type fakeErr string

func (e fakeErr) Error() string { return string(e) }
