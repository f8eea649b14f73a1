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
