package audit

import (
	"math"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/auditheader"
)

// FuzzHeader checks that header parsing round-trips what auditheader.Append
// writes, and that Observe never panics and keeps its counts consistent
// whatever bytes a header holds. Without -fuzz it runs on the seeds only.
func FuzzHeader(f *testing.F) {
	f.Add([]byte("run1-s0-r0/3"), int32(0), int64(0))
	f.Add([]byte("run1-s0-r0/9223372036854775807"), int32(1), int64(5))
	f.Add([]byte("run1-s0-r0/-1"), int32(-1), int64(-1))
	f.Add([]byte("/"), int32(2), int64(math.MaxInt64))
	f.Add([]byte(""), int32(math.MaxInt32), int64(math.MinInt64))
	f.Add([]byte("a/b/c/1"), int32(0), int64(1))
	f.Add([]byte{0xff, '/', '1'}, int32(0), int64(2))
	f.Fuzz(func(t *testing.T, v []byte, partition int32, offset int64) {
		tag, seq, ok := auditheader.Parse(v)
		if ok {
			if tag == "" || seq < 0 {
				t.Fatalf("auditheader.Parse(%q) accepted tag %q seq %d", v, tag, seq)
			}
			if back := auditheader.Append(nil, tag, seq); string(back) != string(v) && !leadingZeros(v, tag) {
				t.Fatalf("auditheader.Parse(%q) = %q/%d, which writes back as %q", v, tag, seq, back)
			}
		}

		c := NewChecker(testTag, 8, newTestOutcome(8).ack(span(0, 8)...).fail(7))
		h := []kgo.RecordHeader{{Key: auditheader.Key, Value: v}}
		c.Observe(partition, offset, h)
		c.Observe(partition, offset, h) // re-delivery: ignored
		if offset < math.MaxInt64 {
			c.Observe(partition, offset+1, h) // a second copy in the log
		}
		r := c.Result()
		if r.Read < 1 || r.Read > 2 {
			t.Fatalf("Read = %d after one or two records", r.Read)
		}
		if mine := r.Read - r.Foreign; mine != 0 && mine != r.Read {
			t.Fatalf("identical records counted both own and foreign: %+v", r)
		}
		if r.Duplicates+r.Foreign > r.Read || r.Lost > r.Acked || r.Phantom > 1 || r.Reordered != 0 {
			t.Fatalf("inconsistent result %+v", r)
		}
	})
}

// leadingZeros reports whether v is tag/<digits> with a zero-padded seq,
// which parses but writes back shorter.
func leadingZeros(v []byte, tag string) bool {
	rest := v[len(tag)+1:]
	return len(rest) > 1 && rest[0] == '0'
}
