package driver

import (
	"sync"
	"testing"
	"time"
)

// TestProgressMeterWindowsAddUp checks that windows reported while acks
// arrive concurrently add up to the exact totals, and that no report comes
// after stop returns.
func TestProgressMeterWindowsAddUp(t *testing.T) {
	var tallyMu sync.Mutex // the tally's lock, in a trial
	m := newProgressMeter(&tallyMu)
	var (
		mu      sync.Mutex
		reports []Progress
		stopped bool
	)
	stop := m.report(func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			t.Error("progress reported after stop")
		}
		reports = append(reports, p)
	}, time.Now(), 2*time.Millisecond)

	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := int64(1); i <= 250; i++ {
				m.sent.Add(1)
				tallyMu.Lock()
				m.ackLocked(int64(g)*250 + i) // latencies 1..1000 µs
				tallyMu.Unlock()
				if i%50 == 0 {
					time.Sleep(time.Millisecond)
				}
			}
		}(g)
	}
	wg.Wait()
	deadline := time.Now().Add(time.Minute) // a hang guard: a report that saw everything comes in ms
	for {
		mu.Lock()
		n := len(reports)
		done := n > 0 && reports[n-1].Acked == 1000 && reports[n-1].WindowLatencyMaxUs == 0
		mu.Unlock()
		if done || time.Now().After(deadline) {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	stop()
	mu.Lock()
	stopped = true
	defer mu.Unlock()

	var count, sum, maxUs int64
	var prev time.Duration
	for _, p := range reports {
		count += p.WindowCount
		sum += p.WindowLatencySumUs
		maxUs = max(maxUs, p.WindowLatencyMaxUs)
		if p.Elapsed < prev {
			t.Errorf("elapsed went back: %v after %v", p.Elapsed, prev)
		}
		prev = p.Elapsed
	}
	if count != 1000 || sum != 1000*1001/2 || maxUs != 1000 {
		t.Errorf("windows add up to count %d sum %d max %d, want 1000 %d 1000", count, sum, maxUs, 1000*1001/2)
	}
	if last := reports[len(reports)-1]; last.Sent != 1000 || last.Acked != 1000 {
		t.Errorf("last report %+v, want sent and acked 1000", last)
	}
	stop() // idempotent
}
