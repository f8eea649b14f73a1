package textfmt

import (
	"strings"
	"testing"
)

// TestShown checks that short printable text is kept and that long or
// binary text is quoted, escaped and cut.
func TestShown(t *testing.T) {
	tests := []struct{ in, want string }{
		{"acks=2", "acks=2"},
		{"a\x1b[31m", `"a\x1b[31m"`},
		{"\x00\x01", `"\x00\x01"`},
		{strings.Repeat("x", 1<<20), `"` + strings.Repeat("x", MaxExcerpt) + `"…`},
	}
	for _, tt := range tests {
		if got := Shown(tt.in); got != tt.want {
			t.Errorf("Shown(%.20q) = %.40s, want %.40s", tt.in, got, tt.want)
		}
	}
}

// TestForeign: text from another program is one line of at most
// MaxForeign characters, its control characters escaped.
func TestForeign(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"connection refused", "connection refused"},
		{"line one\nline two", `"line one\nline two"`},
		{"\x1b[2Jcleared", `"\x1b[2Jcleared"`},
		{strings.Repeat("x", 301), `"` + strings.Repeat("x", 300) + `"…`},
		{strings.Repeat("é", 300), strings.Repeat("é", 300)},
		{"\u009b2Jcsi", `"\u009b2Jcsi"`},
		{"abc\u202edef", `"abc\u202edef"`},
	} {
		if got := Foreign(tc.in); got != tc.want {
			t.Errorf("Foreign(%.20q) = %.40q, want %.40q", tc.in, got, tc.want)
		}
	}
}
