package lab

import (
	"testing"

	"github.com/prodlab/prodlab/internal/driver"
)

// TestAckedBytes counts a trial's bytes from its timeline when it counted
// every acknowledgement, and from record.size otherwise.
func TestAckedBytes(t *testing.T) {
	tl := []driver.Interval{{Acked: 10, AckedBytes: 1000, Warmup: true}, {Acked: 30, AckedBytes: 9000}}
	tests := []struct {
		name string
		res  driver.Result
		n    int64
		want int64
	}{
		// Mean size 250 B from the timeline, though record.size says 100.
		{"file payload", driver.Result{Acked: 30, WarmupAcked: 10, Timeline: tl}, 30, 7500},
		{"warm-up included", driver.Result{Acked: 30, WarmupAcked: 10, Timeline: tl}, 40, 10000},
		// The timeline missed acknowledgements: record.size it is.
		{"partial timeline", driver.Result{Acked: 50, WarmupAcked: 10, Timeline: tl}, 50, 5000},
		{"no timeline", driver.Result{Acked: 50}, 50, 5000},
	}
	for _, tt := range tests {
		if got := ackedBytes(&tt.res, tt.n, 100); got != tt.want {
			t.Errorf("%s: %d bytes, want %d", tt.name, got, tt.want)
		}
	}
}
