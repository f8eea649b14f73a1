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
func Excerpt(s string) string {
	r := []rune(s)
	if len(r) <= MaxExcerpt {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q…", string(r[:MaxExcerpt]))
}

// Shown is s as a message shows it: unchanged when it is short and
// printable, else its Excerpt.
func Shown(s string) string {
	if len(s) <= MaxExcerpt && strconv.CanBackquote(s) {
		return s
	}
	return Excerpt(s)
}
