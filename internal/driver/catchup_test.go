package driver

import (
	"testing"
	"time"
)

// TestCaughtUp: a timed, rate-limited warm-up ends once the producer's
// client holds no more than CatchUp of records beyond its pipeline's own
// latency (the fastest completion), when it falls further behind than when
// the warm-up's time ended, or CatchUpMax after Warmup; without CatchUp, a
// rate, or a timed warm-up (one ended by its record count) it ends as it
// always did.
func TestCaughtUp(t *testing.T) {
	start := time.Unix(1000, 0)
	now := start.Add(1100 * time.Millisecond)
	asked := Trial{Rate: 1000, CatchUp: 10 * time.Millisecond, CatchUpMax: 3 * time.Second, Warmup: time.Second}
	tests := []struct {
		name              string
		trial             Trial
		handed, completed int64
		minLat            time.Duration // the fastest completion seen
		at                time.Time
		lag0              time.Duration // the lag when the warm-up's time ended; -1: this is that moment
		want              bool
	}{
		{"50 held at 1,000/s: 50 ms behind", asked, 100, 50, 0, now, -1, false},
		{"5 held: 5 ms", asked, 100, 95, 0, now, -1, true},
		// On schedule behind a 50 ms pipe: 55 held is 55 ms, 5 beyond the pipe.
		{"on schedule behind a pipe", asked, 100, 45, 50 * time.Millisecond, now, -1, true},
		{"behind, behind a pipe", asked, 200, 45, 50 * time.Millisecond, now, -1, false},
		{"catching up", asked, 100, 50, 0, now, 200 * time.Millisecond, false},
		{"falling behind", asked, 100, 50, 0, now, 30 * time.Millisecond, true},
		{"out of time", asked, 1000, 0, 0, start.Add(4 * time.Second), -1, true},
		{"just in time", asked, 1000, 0, 0, start.Add(3999 * time.Millisecond), -1, false},
		{"warm-up ended on its record count", asked, 1000, 0, 0, start.Add(500 * time.Millisecond), -1, true},
		{"not asked", Trial{Rate: 1000, Warmup: time.Second}, 1000, 0, 0, now, -1, true},
		{"unthrottled", Trial{CatchUp: 10 * time.Millisecond, CatchUpMax: 3 * time.Second, Warmup: time.Second}, 1000, 0, 0, now, -1, true},
		{"no timed warm-up", Trial{Rate: 1000, CatchUp: 10 * time.Millisecond, CatchUpMax: 3 * time.Second, WarmupRecords: 10}, 1000, 0, 0, now, -1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fr := &sendLoop{t: tt.trial, hz: newHorizon(), clockStart: start}
			fr.hz.handed = tt.handed
			fr.hz.completed.Store(tt.completed)
			fr.hz.minLatUs.Store(tt.minLat.Microseconds())
			if tt.lag0 >= 0 {
				fr.catching, fr.lag0 = true, tt.lag0
			}
			if got := fr.caughtUp(tt.at); got != tt.want {
				t.Errorf("caughtUp = %v, want %v (lag %v)", got, tt.want, fr.lag())
			}
		})
	}
}
