package e2e

import (
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/auditheader"
)

// TestObserve checks the per-record accounting without a broker: only
// stamped records count for latency, every record moves the position, and
// the lag is what the log holds beyond the positions.
func TestObserve(t *testing.T) {
	now := time.UnixMicro(1_000_000_000)
	stamped := func(p int32, off int64, ago time.Duration) *kgo.Record {
		return &kgo.Record{Partition: p, Offset: off, Headers: []kgo.RecordHeader{
			{Key: auditheader.Key, Value: []byte("tag/1")},
			{Key: auditheader.TimeKey, Value: auditheader.AppendTime(nil, now.Add(-ago))},
		}}
	}
	for _, tc := range []struct {
		name       string
		records    []*kgo.Record
		end        map[int32]int64
		consumed   int64
		maxUs, lag int64
	}{
		{"stamped records", []*kgo.Record{stamped(0, 0, 3*time.Millisecond), stamped(1, 0, 5*time.Millisecond)},
			map[int32]int64{0: 1, 1: 1}, 2, 5000, 0},
		{"warm-up records carry no stamp", []*kgo.Record{{Partition: 0, Offset: 0}, stamped(0, 1, time.Millisecond)},
			map[int32]int64{0: 2}, 1, 1000, 0},
		{"a malformed stamp is not a latency", []*kgo.Record{{Partition: 0, Offset: 0, Headers: []kgo.RecordHeader{{Key: auditheader.TimeKey, Value: []byte("x")}}}},
			map[int32]int64{0: 1}, 0, 0, 0},
		{"lag: records beyond the positions, partitions not read included", []*kgo.Record{stamped(0, 4, time.Millisecond)},
			map[int32]int64{0: 10, 1: 3}, 1, 1000, 8},
		{"a clock step back counts 1 µs, not a negative latency", []*kgo.Record{stamped(0, 0, -time.Second)},
			map[int32]int64{0: 1}, 1, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Consumer{hist: newHistogram(), positions: map[int32]int64{}}
			for _, r := range tc.records {
				c.observe(r, now.UnixMicro())
			}
			if c.consumed != tc.consumed || c.hist.TotalCount() != tc.consumed || c.read != int64(len(tc.records)) {
				t.Errorf("consumed %d, histogram %d, read %d: want %d, %d, %d", c.consumed, c.hist.TotalCount(), c.read, tc.consumed, tc.consumed, len(tc.records))
			}
			if got := c.hist.Max(); tc.consumed > 0 && !c.hist.ValuesAreEquivalent(got, tc.maxUs) {
				t.Errorf("max latency %d µs, want %d", got, tc.maxUs)
			}
			if got := c.behind(tc.end); got != tc.lag {
				t.Errorf("lag %d, want %d", got, tc.lag)
			}
		})
	}
}
