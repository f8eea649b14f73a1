package driver

import (
	"testing"
	"time"
)

// TestHorizonLimit: the bound starts small, follows the completion rate
// times the horizon, and stretches the horizon to 4 of the fastest
// completions when they are slow.
func TestHorizonLimit(t *testing.T) {
	t0 := time.Unix(1000, 0)
	tests := []struct {
		name      string
		completed int64         // by t0+elapsed
		minLatUs  int64         // fastest completion
		elapsed   time.Duration // since the first hand-off
		want      int64
	}{
		{"nothing completed yet", 0, 0, 50 * time.Millisecond, horizonFloor},
		{"10k/s over 0.1 s → 0.5 s of it", 1000, 1000, 100 * time.Millisecond, 5000},
		{"750/s → 375", 75, 20_000, 100 * time.Millisecond, 375},
		{"a trickle keeps the floor", 5, 20_000, 100 * time.Millisecond, horizonFloor},
		{"150 ms round trips stretch the horizon to 600 ms", 1000, 150_000, 100 * time.Millisecond, 6000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHorizon()
			h.handOff(t0)
			h.completed.Store(tt.completed)
			h.minLatUs.Store(tt.minLatUs)
			if got := h.limit(t0.Add(tt.elapsed)); got != tt.want {
				t.Errorf("limit = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestHorizonRoom: a full queue waits for a completion, and gives up at
// the window's end or when stopped.
func TestHorizonRoom(t *testing.T) {
	full := func() *horizon {
		h := newHorizon()
		for range horizonFloor {
			h.handOff(time.Now())
		}
		return h
	}
	if h := newHorizon(); !h.room(nil, time.Time{}) {
		t.Fatal("an empty queue has no room")
	}
	h := full()
	go func() {
		time.Sleep(20 * time.Millisecond)
		h.done(1000)
	}()
	if !h.room(nil, time.Now().Add(10*time.Second)) {
		t.Error("a completion did not make room")
	}
	if full().room(nil, time.Now().Add(30*time.Millisecond)) {
		t.Error("a full queue found room without a completion")
	}
	stop := make(chan struct{})
	close(stop)
	if full().room(stop, time.Time{}) {
		t.Error("a stopped trial found room")
	}
}
