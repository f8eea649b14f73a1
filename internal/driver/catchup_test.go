package driver

import (
	"testing"
	"time"
)

// TestCaughtUp: a rate-limited warm-up ends once the producer is within
// Trial.CatchUp of its schedule (late hand-offs plus the records it holds
// unacknowledged at the rate), or CatchUpMax after Warmup; without CatchUp
// or a rate it ends as it always did.
func TestCaughtUp(t *testing.T) {
	start := time.Unix(1000, 0)
	now := start.Add(1100 * time.Millisecond)
	tests := []struct {
		name      string
		trial     Trial
		handed    int64
		completed int64
		lateBy    time.Duration // how late record 100 is at now
		at        time.Time
		lag0      time.Duration // the lag when the warm-up's time ended; -1: this is that moment
		want      bool
	}{
		{"50 held at 1,000/s: 50 ms behind", Trial{Rate: 1000, CatchUp: 10 * time.Millisecond, CatchUpMax: 3 * time.Second, Warmup: time.Second}, 100, 50, 0, now, -1, false},
		{"5 held: 5 ms", Trial{Rate: 1000, CatchUp: 10 * time.Millisecond, CatchUpMax: 3 * time.Second, Warmup: time.Second}, 100, 95, 0, now, -1, true},
		{"5 held, 20 ms late", Trial{Rate: 1000, CatchUp: 10 * time.Millisecond, CatchUpMax: 3 * time.Second, Warmup: time.Second}, 100, 95, 20 * time.Millisecond, now, -1, false},
		{"out of time", Trial{Rate: 1000, CatchUp: 10 * time.Millisecond, CatchUpMax: 3 * time.Second, Warmup: time.Second}, 1000, 0, 0, start.Add(4 * time.Second), -1, true},
		{"just in time", Trial{Rate: 1000, CatchUp: 10 * time.Millisecond, CatchUpMax: 3 * time.Second, Warmup: time.Second}, 1000, 0, 0, start.Add(3999 * time.Millisecond), -1, false},
		// Catching up: 50 ms behind, but no further than when it started.
		{"catching up", Trial{Rate: 1000, CatchUp: 10 * time.Millisecond, CatchUpMax: 3 * time.Second, Warmup: time.Second}, 100, 50, 0, now, 200 * time.Millisecond, false},
		// Falling behind: 50 ms now, 30 ms when the warm-up's time ended.
		{"falling behind", Trial{Rate: 1000, CatchUp: 10 * time.Millisecond, CatchUpMax: 3 * time.Second, Warmup: time.Second}, 100, 50, 0, now, 30 * time.Millisecond, true},
		{"not asked", Trial{Rate: 1000, Warmup: time.Second}, 1000, 0, 0, now, -1, true},
		{"unthrottled", Trial{CatchUp: 10 * time.Millisecond, CatchUpMax: 3 * time.Second, Warmup: time.Second}, 1000, 0, 0, now, -1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fr := &franzRun{t: tt.trial, hz: newHorizon(), clockStart: start}
			if tt.trial.Rate > 0 {
				fr.pace.every = time.Duration(float64(time.Second) / tt.trial.Rate)
			}
			// Record 100 is due lateBy before at.
			fr.pace.restart(tt.at.Add(-tt.lateBy).Add(-100*fr.pace.every), 0)
			fr.hz.handed = tt.handed
			fr.hz.completed.Store(tt.completed)
			if tt.lag0 >= 0 {
				fr.catching, fr.lag0 = true, tt.lag0
			}
			if got := fr.caughtUp(100, tt.at); got != tt.want {
				t.Errorf("caughtUp = %v, want %v (lag %v)", got, tt.want, fr.lag(100, tt.at))
			}
		})
	}
}
