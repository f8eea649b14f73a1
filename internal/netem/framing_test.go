package netem

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/prodlab/prodlab/internal/testtier"
)

// TestParseRequestHeader reads api key, version, correlation id and acks from
// produce requests encoded by kmsg across header formats.
func TestParseRequestHeader(t *testing.T) {
	txn := "txn-1"
	for _, tc := range []struct {
		name    string
		version int16
		acks    int16
		txn     *string
	}{
		{"v2 no transactional id field", 2, 1, nil},
		{"v3 null transactional id", 3, -1, nil},
		{"v7 acks=0", 7, 0, nil},
		{"v7 transactional", 7, -1, &txn},
		{"v9 flexible header", 9, 1, nil},
		{"v11 flexible transactional acks=0", 11, 0, &txn},
		{"v13 latest", 13, -1, &txn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := produceFrame(tc.version, 42, tc.acks, 100, tc.txn)
			got := parseRequestHeader(f[4:])
			want := requestInfo{Key: apiProduce, Version: tc.version, Corr: 42, Acks: tc.acks, AcksKnown: true}
			if got != want {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
}

// TestRequestScannerChunking feeds the same stream whole, in 1-byte reads
// and in random chunks: the frames seen must be identical.
func TestRequestScannerChunking(t *testing.T) {
	var stream []byte
	var want []requestInfo
	for i := range 20 {
		f := produceFrame(int16(3+i%10), int32(i), int16(i%3-1), 10+i*37, nil)
		if i%4 == 0 { // a non-produce request between produces
			m := kmsg.NewPtrMetadataRequest()
			m.Version = 9
			f = kmsg.NewRequestFormatter().AppendRequest(nil, m, int32(i))
		}
		stream = append(stream, f...)
		info := parseRequestHeader(f[4:])
		info.Bytes = len(f)
		want = append(want, info)
	}
	chunkings := map[string]func(int) int{
		"whole":  func(int) int { return len(stream) },
		"1 byte": func(int) int { return 1 },
		"random": func(int) int { return 1 + rand.IntN(300) },
	}
	for name, next := range chunkings {
		t.Run(name, func(t *testing.T) {
			var s requestScanner
			var got []requestInfo
			for p := stream; len(p) > 0; {
				k := min(next(len(p)), len(p))
				if err := s.feed(p[:k], func(i requestInfo) { got = append(got, i) }); err != nil {
					t.Fatalf("feed: %v", err)
				}
				p = p[k:]
			}
			if !slices.Equal(got, want) {
				t.Errorf("got %+v\nwant %+v", got, want)
			}
		})
	}
}

// fakeHooks drives a respScanner without a connection.
type fakeHooks struct {
	hold    bool
	tracked map[int32]*pendingReq
}

func (h *fakeHooks) holdNeeded() bool { return h.hold }
func (h *fakeHooks) lookup(corr int32) (respAction, *pendingReq) {
	r := h.tracked[corr]
	delete(h.tracked, corr)
	return respPass, r
}
func (h *fakeHooks) rewrite(_ *pendingReq, f []byte) []byte { return f }

// TestRespScannerChunking: responses pass through byte-identical whatever
// the chunking, holding headers back or not, and every tracked response gets
// exactly one mark.
func TestRespScannerChunking(t *testing.T) {
	var stream []byte
	for i := range 30 {
		stream = append(stream, ackResponse(apiMetadata, 0, int32(i), nil)...)
		stream[len(stream)-1] = byte(i)
	}
	for _, hold := range []bool{false, true} {
		for _, step := range []int{1, 3, 7, 16, 1000} {
			h := &fakeHooks{hold: hold, tracked: map[int32]*pendingReq{}}
			for i := range int32(30) {
				if i%2 == 0 {
					h.tracked[i] = &pendingReq{corr: i, produce: true}
				}
			}
			var s respScanner
			var out []byte
			var marked []int32
			for p := stream; len(p) > 0; {
				k := min(step, len(p))
				if cut, err := s.feed(p[:k], h); cut != nil || err != nil {
					t.Fatalf("feed: cut %v err %v", cut, err)
				}
				base := len(out)
				for _, seg := range s.segs {
					if seg.owned != nil {
						out = append(out, seg.owned...)
					} else {
						out = append(out, p[seg.from:seg.to]...)
					}
				}
				for _, m := range s.marks {
					marked = append(marked, m.req.corr)
					// The mark must point at the frame's first byte when the
					// header started in this chunk.
					if off := base + m.off; off < len(out) && hold && binary.BigEndian.Uint32(out[off+4:]) != uint32(m.req.corr) {
						t.Errorf("hold=%v step %d: mark for %d points at the wrong frame", hold, step, m.req.corr)
					}
				}
				p = p[k:]
			}
			if !bytes.Equal(out, stream) {
				t.Errorf("hold=%v step %d: output differs from input", hold, step)
			}
			if len(marked) != 15 || len(h.tracked) != 0 {
				t.Errorf("hold=%v step %d: %d marks, %d requests unanswered; want 15, 0", hold, step, len(marked), len(h.tracked))
			}
		}
	}
}

// TestFramingStats runs a client sending produce requests in waves of K
// back to back, waiting for all K responses before the next wave, through the
// proxy to a fake broker answering after 20 ms, and only once all K of the
// wave have arrived. So every request of a wave passes the proxy before any
// response: the proxy must see exactly K in flight at most, the per-send
// samples 1..K per wave (mean (K+1)/2), every request, their exact mean
// size, and round trips of at least RTT + broker delay.
func TestFramingStats(t *testing.T) {
	testtier.Quiet(t) // counts the proxy's connections: beside other packages, a client retrying a stopped broker's port can land on it
	const brokerDelay = 20 * time.Millisecond
	const rtt = 10 * time.Millisecond
	for _, tc := range []struct {
		name string
		k, n int
		acks int16
	}{
		{"one at a time", 1, 10, -1},
		{"K=4 acks=all", 4, 32, -1},
		{"K=8 acks=1", 8, 40, 1},
		{"acks=0 never in flight", 5, 20, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fb := &fakeBroker{delay: brokerDelay, respond: ackResponse, wave: tc.k}
			p := startProxy(t, fb.start(t), Config{RTT: rtt})
			c := dial(t, p.Addr())
			var totalBytes int
			send := func(i int) {
				f := produceFrame(7, int32(i), tc.acks, 100+i*13, nil)
				totalBytes += len(f)
				if _, err := c.Write(f); err != nil {
					t.Fatalf("write %d: %v", i, err)
				}
			}
			if tc.acks != 0 {
				for wave := 0; wave*tc.k < tc.n; wave++ {
					for i := range tc.k {
						send(wave*tc.k + i)
					}
					for i := range tc.k {
						f, err := readFrame(c)
						if err != nil {
							t.Fatalf("response %d: %v", wave*tc.k+i, err)
						}
						if corr := int32(binary.BigEndian.Uint32(f[4:])); corr != int32(wave*tc.k+i) {
							t.Fatalf("response %d has correlation id %d", wave*tc.k+i, corr)
						}
					}
				}
			} else {
				for i := range tc.n {
					send(i)
				}
				deadline := time.Now().Add(testTimeout)
				for fb.produce.Load() < int64(tc.n) && time.Now().Before(deadline) {
					time.Sleep(time.Millisecond)
				}
			}
			s := p.Stats()
			wantMax, wantMean := tc.k, float64(tc.k+1)/2
			if tc.acks == 0 {
				wantMax, wantMean = 0, 0
			}
			if s.ProduceRequests != int64(tc.n) {
				t.Errorf("ProduceRequests = %d, want %d", s.ProduceRequests, tc.n)
			}
			if s.MaxInFlight != wantMax {
				t.Errorf("MaxInFlight = %d, want %d", s.MaxInFlight, wantMax)
			}
			if math.Abs(s.MeanInFlight-wantMean) > 1e-9 {
				t.Errorf("MeanInFlight = %v, want %v", s.MeanInFlight, wantMean)
			}
			if want := float64(totalBytes) / float64(tc.n); math.Abs(s.MeanRequestBytes-want) > 1e-9 {
				t.Errorf("MeanRequestBytes = %v, want %v", s.MeanRequestBytes, want)
			}
			if s.Connections != 1 {
				t.Errorf("Connections = %d, want 1", s.Connections)
			}
			if tc.acks != 0 {
				// Each request waits at least RTT + broker delay (the delay
				// line and the broker are never early). Load only adds, and
				// a wave's answers wait for its last request: beside two CPU
				// hogs p50 reached 66 ms and p99 257 ms, so no upper bound.
				wantRTT := float64(rtt+brokerDelay) / 1e6
				if s.RTTp50Ms < wantRTT-0.5 || s.RTTp99Ms < s.RTTp50Ms {
					t.Errorf("round trip p50 %.2f ms p99 %.2f ms, want p50 ≥ %.1f and p99 ≥ p50", s.RTTp50Ms, s.RTTp99Ms, wantRTT-0.5)
				}
			}
			t.Logf("%+v", s)
			p.ResetStats()
			if s := p.Stats(); s.ProduceRequests != 0 || s.MaxInFlight != 0 || s.RTTp50Ms != 0 {
				t.Errorf("after ResetStats: %+v", s)
			}
		})
	}
}
