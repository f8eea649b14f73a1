package results

import (
	"testing"
	"time"
)

// TestThroughputOf divides by the elapsed time, in MB of 2^20 bytes, and
// is zero when no time passed.
func TestThroughputOf(t *testing.T) {
	tests := []struct {
		name           string
		acked, bytes   int64
		elapsed        time.Duration
		records, mbPer float64
	}{
		{"two seconds", 1000, 2 * MB, 2 * time.Second, 500, 1},
		{"no time", 1000, MB, 0, 0, 0},
	}
	for _, tt := range tests {
		got := ThroughputOf(tt.acked, tt.bytes, tt.elapsed)
		if got.RecordsPerS != tt.records || got.MBPerS != tt.mbPer {
			t.Errorf("%s: %+v, want %g records/s, %g MB/s", tt.name, got, tt.records, tt.mbPer)
		}
	}
}
