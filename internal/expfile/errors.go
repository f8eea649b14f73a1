package expfile

import (
	"fmt"
	"strings"

	"github.com/prodlab/prodlab/internal/textfmt"
)

// Error is one problem found in an experiment, located in its source.
//
// File is the experiment's file name, or the text of a --set argument
// ("--set linger.ms=x") when the problem comes from the command line. Line
// and Col are 1-based and zero when unknown.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

// Error formats the problem as "file:line:col: msg", leaving out line:col
// when they are unknown.
func (e *Error) Error() string {
	switch {
	case e.File == "" && e.Line == 0:
		return e.Msg
	case e.Line == 0:
		return e.File + ": " + e.Msg
	case e.Col == 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	default:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
}

// Errors is every problem found while loading one experiment. Validation
// collects all of them rather than stopping at the first, so that a user can
// fix a file in one pass.
type Errors []*Error

// MaxShown is the most problems Errors.Error lists: a hostile or broken
// file can hold tens of thousands, and the first few are what to fix.
const MaxShown = 20

// Error joins the problems, one a line, the first MaxShown of them and
// then how many more there are.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return JoinShown(lines)
}

// JoinShown joins problems one a line, the first MaxShown of them and
// then how many more there are; perf's flag problems are listed so too.
func JoinShown(lines []string) string {
	if len(lines) > MaxShown {
		lines = append(lines[:MaxShown:MaxShown], fmt.Sprintf("… and %d more problems", len(lines)-MaxShown))
	}
	return strings.Join(lines, "\n")
}

// Unwrap exposes the individual errors to errors.Is and errors.As.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// pos is where a setting came from: a place in a file, or a --set argument.
type pos struct {
	File      string
	Line, Col int
}

// errorf builds an Error at p. Its message is clipped (clipText), so
// that a megabyte-long key or value written by the user is not echoed
// whole.
func (p pos) errorf(format string, args ...any) *Error {
	return &Error{File: p.File, Line: p.Line, Col: p.Col, Msg: clipText(fmt.Sprintf(format, args...))}
}

// maxMessage is the most characters of one message.
const maxMessage = 10 * textfmt.MaxExcerpt

// clipText cuts each word (a run without blanks) far longer than a
// message should quote to its first textfmt.MaxExcerpt characters and
// "…", and the whole text to maxMessage characters.
func clipText(s string) string {
	if len(s) <= 2*textfmt.MaxExcerpt {
		return s
	}
	words := strings.Split(s, " ")
	for i, w := range words {
		words[i] = clip(w, 2*textfmt.MaxExcerpt, textfmt.MaxExcerpt)
	}
	return clip(strings.Join(words, " "), maxMessage, maxMessage)
}

// clip returns s when it has at most limit characters, else its first
// keep characters and "…".
func clip(s string, limit, keep int) string {
	if len(s) <= limit {
		return s
	}
	r := []rune(s)
	if len(r) <= limit {
		return s
	}
	return string(r[:keep]) + "…"
}

// collector gathers errors, dropping exact duplicates (the same contradiction
// found again in another scenario that does not change it).
type collector struct {
	errs Errors
	seen map[string]bool
}

// add records e unless an identical error was already recorded.
func (c *collector) add(e *Error) {
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	if s := e.Error(); !c.seen[s] {
		c.seen[s] = true
		c.errs = append(c.errs, e)
	}
}

// err returns the collected errors, or nil when there are none.
func (c *collector) err() error {
	if len(c.errs) == 0 {
		return nil
	}
	return c.errs
}
