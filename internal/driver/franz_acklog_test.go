package driver

import (
	"errors"
	"math"
	"sync"
	"testing"
	"time"
)

// TestAckLog: the log covers whatever sequence numbers it is given, sized
// up front or not, and keeps the two states apart.
func TestAckLog(t *testing.T) {
	tests := []struct {
		name   string
		size   int64   // NewAckLog's hint
		acked  []int64 // marked acknowledged
		failed []int64 // marked failed
	}{
		{name: "sized", size: 128, acked: []int64{0, 1, 63, 64, 127}, failed: []int64{2, 100}},
		{name: "grows from empty", size: 0, acked: []int64{0, 5, 64, 1000}, failed: []int64{7, 4096}},
		{name: "grows past its size", size: 10, acked: []int64{9, 10, 64, 200_000}, failed: []int64{11}},
		{name: "sparse far seq", size: 0, acked: []int64{5_000_000}, failed: []int64{3}},
		{name: "negative ignored", size: 0, acked: []int64{-1, 0}, failed: []int64{-64}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := NewAckLog(tt.size)
			want := map[int64]string{}
			for _, s := range tt.acked {
				a.Ack(s)
				if s >= 0 {
					want[s] = "acked"
				}
			}
			for _, s := range tt.failed {
				a.Fail(s)
				if s >= 0 {
					want[s] = "failed"
				}
			}
			var hi int64
			for s := range want {
				hi = max(hi, s)
			}
			if a.Len() <= hi {
				t.Errorf("Len %d does not cover seq %d", a.Len(), hi)
			}
			// Every marked seq, its neighbours, and seqs far past the end.
			probe := []int64{-1, hi + 1, hi + 64, hi + 1<<20, math.MaxInt64}
			for s := range want {
				probe = append(probe, s, s-1, s+1)
			}
			for _, s := range probe {
				if got := state(a, s); got != want[s] {
					t.Errorf("seq %d: %q, want %q", s, got, want[s])
				}
			}
		})
	}
}

func state(a *AckLog, seq int64) string {
	switch ack, fail := a.Acked(seq), a.Failed(seq); {
	case ack && fail:
		return "both"
	case ack:
		return "acked"
	case fail:
		return "failed"
	}
	return ""
}

// TestAckLogGrowthAmortised: filling a log in order from empty reallocates
// a logarithmic number of times, not once per word.
func TestAckLogGrowthAmortised(t *testing.T) {
	const n = 1 << 20
	allocs := testing.AllocsPerRun(1, func() {
		a := NewAckLog(0)
		for s := int64(0); s < n; s++ {
			a.Ack(s)
		}
	})
	// Two bitsets per growth, doubling from 16 words to n/64: ~2×11.
	if allocs > 40 {
		t.Errorf("%v allocations to fill %d seqs in order, want a logarithmic number", allocs, n)
	}
}

// TestAckLogConcurrentGrowth: promises mark from many goroutines while the
// log grows; nothing marked may be lost to a reallocation.
func TestAckLogConcurrentGrowth(t *testing.T) {
	a := NewAckLog(0)
	const workers, per = 8, 20_000
	var wg sync.WaitGroup
	for w := int64(0); w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int64(0); i < per; i++ {
				s := i*workers + w
				if s%7 == 0 {
					a.Fail(s)
				} else {
					a.Ack(s)
				}
			}
		}()
	}
	wg.Wait()
	for s := int64(0); s < workers*per; s++ {
		if want := s%7 != 0; a.Acked(s) != want || a.Failed(s) == want {
			t.Fatalf("seq %d: acked %v failed %v, want acked %v", s, a.Acked(s), a.Failed(s), want)
		}
	}
}

// TestTallyWarmup: the tally classifies records by sequence number
// against the first measured one, not by when they were acknowledged:
// warm-up acks and failures arriving after the measured window began stay
// out of the measured figures, while the ack log and timeline see them all.
func TestTallyWarmup(t *testing.T) {
	ty := newTally(Trial{Tag: "t", Records: 10, WarmupRecords: 5, TimelineInterval: time.Second, Rate: 100}, nil)
	if ty.firstMeasured.Load() != math.MaxInt64 {
		t.Fatalf("first measured %d while warming up, want MaxInt64", ty.firstMeasured.Load())
	}
	start := time.Now()
	rec := func(seq int64, err error) {
		ty.record(seq, 0, 100, start.Add(time.Duration(seq+1)*time.Millisecond), start, seq+1, err)
	}
	rec(0, nil) // acked during the warm-up
	rec(1, errors.New("boom"))
	ty.firstMeasured.Store(5) // the measured window begins with seq 5
	for seq := int64(2); seq < 5; seq++ {
		rec(seq, nil) // warm-up records acknowledged late
	}
	for seq := int64(5); seq < 14; seq++ {
		rec(seq, nil)
	}
	rec(14, errors.New("bang"))

	if ty.acked != 9 || ty.failed != 1 || ty.warmAck != 4 || ty.warmFail != 1 {
		t.Errorf("acked %d failed %d, warm-up acked %d failed %d; want 9 1 4 1", ty.acked, ty.failed, ty.warmAck, ty.warmFail)
	}
	if ty.warmHist.TotalCount() != 4 || ty.warmHist.Max() > 5 {
		t.Errorf("warm-up latency count %d max %d: want its 4 acknowledged records, 1-5 µs", ty.warmHist.TotalCount(), ty.warmHist.Max())
	}
	if len(ty.warmErrs) != 1 || ty.warmErrs["boom"] != 1 {
		t.Errorf("warm-up errors %v, want the warm-up's one failure", ty.warmErrs)
	}
	if len(ty.errs) != 1 || ty.errs["bang"] != 1 {
		t.Errorf("errors %v, want the measured failure only", ty.errs)
	}
	if ty.hist.TotalCount() != 9 || ty.hist.Min() < 6 || ty.intended.TotalCount() != 9 {
		t.Errorf("latency count %d min %d, intended count %d: want 9 measured records from 6 µs",
			ty.hist.TotalCount(), ty.hist.Min(), ty.intended.TotalCount())
	}
	for seq := int64(0); seq < 15; seq++ {
		if want := seq != 1 && seq != 14; ty.acks.Acked(seq) != want || ty.acks.Failed(seq) == want {
			t.Errorf("ack log seq %d: acked %v failed %v", seq, ty.acks.Acked(seq), ty.acks.Failed(seq))
		}
	}
	if ty.tl.acked != 13 || ty.tl.failed != 2 || ty.tl.ackedBytes != 1300 || ty.tl.hist.TotalCount() != 13 {
		t.Errorf("timeline acked %d failed %d bytes %d, want 13 2 1300", ty.tl.acked, ty.tl.failed, ty.tl.ackedBytes)
	}
}

// TestTallyIntended: latency from the intended send time is the wait
// before the hand-off plus the latency after it, without a clock of the
// tally's own.
func TestTallyIntended(t *testing.T) {
	ty := newTally(Trial{Records: 10, Rate: 100}, nil)
	ty.firstMeasured.Store(0)
	intended := time.Now()
	ty.record(0, 0, 100, intended.Add(5*time.Millisecond), intended, 100, nil)
	if got := ty.intended.Max(); got < 5100 || got > 5100+5100/100 {
		t.Errorf("intended latency %d µs, want 5100 (5 ms waiting, 100 µs after the hand-off)", got)
	}
	if got := ty.hist.Max(); got < 100 || got > 101 {
		t.Errorf("latency %d µs, want 100", got)
	}
}
