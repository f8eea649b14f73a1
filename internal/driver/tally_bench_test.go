package driver

import (
	"testing"
	"time"
)

// BenchmarkDone is the driver's own work per acknowledged record (the
// Go clients' promise or delivery report: the clock read, the tally under
// its lock, the latency histogram, the progress meter and the timeline),
// for a perf-like trial; bench/RESULTS.md puts it against a client's
// records per second to say what share of a CPU it is.
func BenchmarkDone(b *testing.B) {
	for _, tc := range []struct {
		name string
		t    Trial
	}{
		{"burst", Trial{Records: 1 << 40, RecordSize: 1024}},
		{"perf: progress and timeline", Trial{Records: 1 << 40, RecordSize: 1024, Progress: func(Progress) {}, TimelineInterval: time.Second}},
		{"steady state", Trial{Records: 1 << 40, RecordSize: 1024, Duration: time.Hour, Progress: func(Progress) {}, TimelineInterval: time.Second}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			l := newSendLoop(tc.t, nil)
			handoff := time.Now()
			seq := int64(0)
			for b.Loop() {
				l.done(seq, 0, 1024, handoff, handoff, nil)
				seq++
			}
		})
	}
}
