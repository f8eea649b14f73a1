package auditheader

import (
	"math"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
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
			tag, seq, ok := Parse([]byte(tt.in))
			if tag != tt.tag || seq != tt.seq || ok != tt.ok {
				t.Errorf("Parse(%q) = %q, %d, %v; want %q, %d, %v", tt.in, tag, seq, ok, tt.tag, tt.seq, tt.ok)
			}
		})
	}
}

// TestTime round-trips hand-off times and refuses what is not one.
func TestTime(t *testing.T) {
	now := time.UnixMicro(1_763_900_000_123_456)
	if us, ok := ParseTime(AppendTime(nil, now)); !ok || us != now.UnixMicro() {
		t.Errorf("round trip: %d %v, want %d", us, ok, now.UnixMicro())
	}
	for _, bad := range []string{"", "-5", "12a", "1234567890123456789"} {
		if _, ok := ParseTime([]byte(bad)); ok {
			t.Errorf("ParseTime(%q) accepted", bad)
		}
	}
}
