package lab

import (
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/e2e"
	"github.com/prodlab/prodlab/internal/results"
)

// TestPlaceLag checks that each timeline point gets the lag sample nearest
// its end, and none when no sample lies within an interval of it.
func TestPlaceLag(t *testing.T) {
	clock := time.Unix(100, 0)
	tl := &results.Timeline{IntervalMs: 100, Points: []results.TimelinePoint{
		{TMs: 0, DurMs: 100}, {TMs: 100, DurMs: 100}, {TMs: 200, DurMs: 100}, {TMs: 900, DurMs: 100},
	}}
	lag := []e2e.LagSample{
		{At: clock.Add(95 * time.Millisecond), Lag: 7},
		{At: clock.Add(210 * time.Millisecond), Lag: 3},
		{At: clock.Add(290 * time.Millisecond), Lag: 1},
	}
	placeLag(tl, clock, lag)
	want := []int64{7, 3, 1, -1} // -1: none
	for i, p := range tl.Points {
		got := int64(-1)
		if p.Lag != nil {
			got = *p.Lag
		}
		if got != want[i] {
			t.Errorf("point %d: lag %d, want %d", i, got, want[i])
		}
	}
}
