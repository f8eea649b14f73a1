package secret

import (
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
// are ignored.
func Remember(values ...string) {
	known.Lock()
	defer known.Unlock()
	for _, v := range values {
		if v = strings.TrimSpace(v); len(v) >= MinScrubbed && !allDigits(v) && !slices.Contains(known.values, v) {
			known.values = append(known.values, v)
		}
	}
	slices.SortFunc(known.values, func(a, b string) int { return len(b) - len(a) })
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
// Hidden, as written and as HTML escapes it.
func ScrubHTML(page string) string {
	for _, v := range remembered() {
		page = strings.ReplaceAll(page, v, Hidden)
		page = strings.ReplaceAll(page, html.EscapeString(v), Hidden)
	}
	return page
}

// ScrubJSON returns a JSON document with every remembered secret replaced
// by Hidden inside its strings, in the form JSON escapes it; numbers,
// literals and the document's structure are left as they are, so a
// results line stays valid and its figures unchanged.
func ScrubJSON(doc []byte) []byte {
	vs := remembered()
	if len(vs) == 0 {
		return doc
	}
	escaped := make([]string, 0, len(vs))
	for _, v := range vs {
		b, err := json.Marshal(v)
		if err == nil {
			escaped = append(escaped, string(b[1:len(b)-1]))
		}
	}
	var out []byte
	for i := 0; i < len(doc); {
		if doc[i] != '"' {
			out = append(out, doc[i])
			i++
			continue
		}
		end := stringEnd(doc, i)
		body := string(doc[i+1 : end])
		for _, e := range escaped {
			body = strings.ReplaceAll(body, e, Hidden)
		}
		out = append(out, '"')
		out = append(out, body...)
		if end < len(doc) {
			out = append(out, '"')
		}
		i = end + 1
	}
	return out
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
