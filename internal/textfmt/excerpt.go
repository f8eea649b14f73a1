package textfmt

import (
	"fmt"
	"strconv"
)

// MaxExcerpt is the most characters of a user's text a message quotes.
const MaxExcerpt = 100

// Excerpt quotes s for a message (%q: control bytes and terminal escapes
// escaped), cut to its first MaxExcerpt characters and "…" when longer, so
// that a huge or binary name never floods the terminal.
func Excerpt(s string) string { return quoted(s, MaxExcerpt) }

// quoted is s as %q, cut to its first n characters and "…" when longer.
func quoted(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q…", string(r[:n]))
}

// MaxForeign is the most characters of text from outside prodlab (an
// error body from a Trogdor coordinator, a worker's stderr) a message
// shows.
const MaxForeign = 300

// Foreign is text from another program as a message shows it: one line
// of at most MaxForeign characters, unchanged when it is that already and
// printable, else quoted (control characters, line breaks and terminal
// escapes escaped) and cut with "…".
func Foreign(s string) string {
	if len([]rune(s)) <= MaxForeign && strconv.CanBackquote(s) && printable(s) {
		return s
	}
	return quoted(s, MaxForeign)
}

// printable reports whether every rune of s prints: CanBackquote lets C1
// controls (U+009B, an 8-bit terminal escape) and bidi overrides through.
func printable(s string) bool {
	for _, r := range s {
		if !strconv.IsPrint(r) {
			return false
		}
	}
	return true
}

// Shown is s as a message shows it: unchanged when it is short and
// printable, else its Excerpt.
func Shown(s string) string {
	if len(s) <= MaxExcerpt && strconv.CanBackquote(s) {
		return s
	}
	return Excerpt(s)
}
