package secret

import (
	"bytes"
	"encoding/json"
	"html"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Secrets are hidden by key where prodlab writes properties (Mask), but a
// value also travels inside text nobody keyed: a client's error quoting the
// URL it could not reach, a worker's log line. The process therefore keeps
// every secret value the run knows (Remember, once the inputs are read)
// and scrubs them by value from what it prints and writes (Scrub,
// ScrubJSON, Writer).

// MinScrubbed is the shortest value scrubbed by value: a shorter one would
// match innocent text (a scenario's "acks=all", a count) and damage it; a
// secret that short, or one of digits only (it could be any figure of a
// report), is hidden by its key only.
const MinScrubbed = 6

// known holds the remembered values, longest first, so that a password
// inside a longer secret (a JAAS configuration) does not break the
// replacement of the whole.
var known struct {
	sync.RWMutex
	values []string
}

// Remember adds values to the secrets scrubbed from everything the
// process prints and writes from now on; values shorter than MinScrubbed
// are ignored. The list is replaced, never changed in place, so a Scrub
// running meanwhile reads a whole one.
func Remember(values ...string) {
	known.Lock()
	defer known.Unlock()
	next := slices.Clone(known.values)
	for _, v := range values {
		if v = strings.TrimSpace(v); len(v) >= MinScrubbed && !allDigits(v) && !slices.Contains(next, v) {
			next = append(next, v)
		}
	}
	slices.SortFunc(next, func(a, b string) int { return len(b) - len(a) })
	known.values = next
}

// allDigits reports whether s is made of ASCII digits only.
func allDigits(s string) bool {
	return strings.Trim(s, "0123456789") == ""
}

// remembered returns the remembered values (shared: do not modify).
func remembered() []string {
	known.RLock()
	defer known.RUnlock()
	return known.values
}

// Scrub returns s with every remembered secret replaced by Hidden.
func Scrub(s string) string {
	for _, v := range remembered() {
		s = strings.ReplaceAll(s, v, Hidden)
	}
	return s
}

// ScrubHTML returns an HTML page with every remembered secret replaced by
// Hidden, as written and as HTML escapes it (html.EscapeString's form, and
// html/template's, which also writes + as &#43;).
func ScrubHTML(page string) string {
	for _, v := range remembered() {
		esc := html.EscapeString(v)
		for _, form := range []string{v, esc, strings.ReplaceAll(esc, "+", "&#43;")} {
			page = strings.ReplaceAll(page, form, Hidden)
		}
	}
	return page
}

// ScrubJSON returns a JSON document with every remembered secret replaced
// by Hidden inside its string values: each is decoded, scrubbed and
// written again only when it held one, so escapes stay whole; object keys,
// numbers, literals and the document's structure are left as they are,
// so a results line stays valid and its figures and names unchanged.
func ScrubJSON(doc []byte) []byte {
	if len(remembered()) == 0 {
		return doc
	}
	var out []byte
	for i := 0; i < len(doc); {
		if doc[i] != '"' {
			out = append(out, doc[i])
			i++
			continue
		}
		end := stringEnd(doc, i)
		if end == len(doc) { // not JSON (a torn line): scrubbed as text
			return append(out, Scrub(string(doc[i:]))...)
		}
		out = append(out, scrubJSONString(doc[i:end+1], isKey(doc, end+1))...)
		i = end + 1
	}
	return out
}

// scrubJSONString is the JSON string lit scrubbed (lit itself when it is
// a key, holds no secret, or does not decode).
func scrubJSONString(lit []byte, key bool) []byte {
	var s string
	if key || json.Unmarshal(lit, &s) != nil {
		return lit
	}
	scrubbed := Scrub(s)
	if scrubbed == s {
		return lit
	}
	b, err := json.Marshal(scrubbed)
	if err != nil {
		return lit
	}
	return b
}

// isKey reports whether the JSON string ending before doc[after] is an
// object key: a colon follows it.
func isKey(doc []byte, after int) bool {
	for ; after < len(doc); after++ {
		switch doc[after] {
		case ' ', '\t', '\n', '\r':
			continue
		case ':':
			return true
		}
		return false
	}
	return false
}

// stringEnd is the index of the quote closing the JSON string that opens
// at doc[start], or len(doc) when it never closes.
func stringEnd(doc []byte, start int) int {
	for i := start + 1; i < len(doc); i++ {
		switch doc[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(doc)
}

// Writer wraps w so that every Write is scrubbed. prodlab writes whole
// lines per call, so a secret is not split across writes. A file keeps its
// Fd, so that a terminal is still known as one.
func Writer(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok {
		return scrubFile{scrubWriter{f}, f}
	}
	return scrubWriter{w}
}

// scrubFile is a scrubbed *os.File.
type scrubFile struct {
	scrubWriter
	f *os.File
}

// Fd is the file's descriptor.
func (s scrubFile) Fd() uintptr { return s.f.Fd() }

type scrubWriter struct{ w io.Writer }

func (s scrubWriter) Write(p []byte) (int, error) {
	if len(remembered()) == 0 {
		return s.w.Write(p)
	}
	if _, err := io.WriteString(s.w, Scrub(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// jaasSecret finds the quoted option values of a JAAS configuration that
// are secrets (password="...", and similar).
var jaasSecret = regexp.MustCompile(`(?i)(?:password|secret|token)\w*\s*=\s*"([^"]*)"`)

// Values returns the secret values of props: whole values of secret keys,
// the passwords inside a JAAS configuration, and the password of any URL
// whatever its key.
func Values(props map[string]string) []string {
	var out []string
	for k, v := range props {
		out = append(out, UserinfoPasswords(v)...)
		if !IsKey(k) {
			continue
		}
		out = append(out, v)
		for _, m := range jaasSecret.FindAllStringSubmatch(v, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// JVMOptValues returns the secret values in JVM options: a system
// property whose name holds a secret's word, and URL passwords.
func JVMOptValues(opts []string) []string {
	var out []string
	for _, o := range opts {
		out = append(out, UserinfoPasswords(o)...)
		if name, v, ok := strings.Cut(strings.TrimPrefix(o, "-D"), "="); ok && strings.HasPrefix(o, "-D") && IsKey(name) {
			out = append(out, v)
		}
	}
	return out
}

// maxHeld bounds what a LineWriter holds waiting for a line's end.
const maxHeld = 64 << 10

// LineWriter scrubs another program's output by whole lines: what it is
// given is held until its line ends (or maxHeld bytes pile up), so that a
// secret split across two reads of a pipe is still found. Flush writes
// what is held once the output has ended.
type LineWriter struct {
	mu   sync.Mutex
	w    io.Writer
	held []byte
}

// NewLineWriter returns a LineWriter onto w.
func NewLineWriter(w io.Writer) *LineWriter { return &LineWriter{w: w} }

func (l *LineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.held = append(l.held, p...)
	cut := bytes.LastIndexByte(l.held, '\n') + 1
	if cut == 0 {
		if len(l.held) < maxHeld {
			return len(p), nil
		}
		cut = len(l.held)
	}
	_, err := io.WriteString(l.w, Scrub(string(l.held[:cut])))
	l.held = append(l.held[:0], l.held[cut:]...)
	return len(p), err
}

// Flush writes, scrubbed, what is held of an unfinished last line.
func (l *LineWriter) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.held) == 0 {
		return nil
	}
	_, err := io.WriteString(l.w, Scrub(string(l.held)))
	l.held = l.held[:0]
	return err
}
