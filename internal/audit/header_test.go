package audit

import (
	"math"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

func TestParseHeader(t *testing.T) {
	tests := []struct {
		name, in string
		tag      string
		seq      int64
		ok       bool
	}{
		// The format both drivers write.
		{"plain", "run-s1-r2/42", "run-s1-r2", 42, true},
		// Zero is a valid seq.
		{"zero", "t/0", "t", 0, true},
		// The tag may contain '/': the last one splits.
		{"slash in tag", "a/b/7", "a/b", 7, true},
		// Largest int64 still parses.
		{"max int64", "t/9223372036854775807", "t", math.MaxInt64, true},
		// One past it overflows.
		{"overflow", "t/9223372036854775808", "", 0, false},
		// Far past it as well.
		{"overflow long", "t/99999999999999999999999", "", 0, false},
		// Empty tag.
		{"no tag", "/5", "", 0, false},
		// Empty seq.
		{"no seq", "t/", "", 0, false},
		// No separator.
		{"no slash", "t5", "", 0, false},
		// Signs are never written, so never accepted.
		{"minus", "t/-5", "", 0, false},
		{"plus", "t/+5", "", 0, false},
		// Non-digits after the slash.
		{"letters", "t/5a", "", 0, false},
		{"space", "t/ 5", "", 0, false},
		// Empty value.
		{"empty", "", "", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tag, seq, ok := ParseHeader([]byte(tt.in))
			if tag != tt.tag || seq != tt.seq || ok != tt.ok {
				t.Errorf("ParseHeader(%q) = %q, %d, %v; want %q, %d, %v", tt.in, tag, seq, ok, tt.tag, tt.seq, tt.ok)
			}
		})
	}
}

// FuzzHeader checks that header parsing round-trips what AppendHeader
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
		tag, seq, ok := ParseHeader(v)
		if ok {
			if tag == "" || seq < 0 {
				t.Fatalf("ParseHeader(%q) accepted tag %q seq %d", v, tag, seq)
			}
			if back := AppendHeader(nil, tag, seq); string(back) != string(v) && !leadingZeros(v, tag) {
				t.Fatalf("ParseHeader(%q) = %q/%d, which writes back as %q", v, tag, seq, back)
			}
		}

		c := NewChecker(testTag, 8, newTestOutcome(8).ack(span(0, 8)...).fail(7))
		h := []kgo.RecordHeader{{Key: HeaderKey, Value: v}}
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
