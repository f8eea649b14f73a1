// Package javaprops reads the text format of java.util.Properties: the
// producer .properties files users already have (kafka-producer-perf-test's
// --producer.config, prodlab advise's current settings).
package javaprops

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/prodlab/prodlab/internal/inputfile"
)

// File is a parsed properties file: its properties, and the line each
// was set on (the last one, as later keys win), for messages that point
// at it.
type File struct {
	Props map[string]string
	Lines map[string]int
	// Repeated are the keys set more than once, in file order: Parse
	// keeps the last, as Properties.load does; Read refuses them.
	Repeated []Repeat
}

// Repeat is a key set again: on line Again, after line First.
type Repeat struct {
	Key          string
	First, Again int
}

// bom is the UTF-8 byte order mark some editors put before the text.
var bom = []byte("\xef\xbb\xbf")

// Read reads the properties file at path; hostile files (FIFOs, devices,
// files too large) are refused by inputfile, and binary ones by the text
// check, before parsing. A UTF-8 byte order mark before the text is
// dropped (it would be read as part of the first key). A key set twice
// is refused, naming both lines: one of the two settings would be
// ignored without a word.
func Read(path string) (File, error) {
	b, err := inputfile.Read(path)
	if err != nil {
		return File{}, err
	}
	b = bytes.TrimPrefix(b, bom)
	if err := checkText(b); err != nil {
		return File{}, fmt.Errorf("%s: %w", path, err)
	}
	f, err := Parse(string(b))
	if err != nil {
		return File{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(f.Repeated) > 0 {
		r := f.Repeated[0]
		return File{}, fmt.Errorf("%s: line %d sets %s again (first set on line %d): keep one", path, r.Again, r.Key, r.First)
	}
	return f, nil
}

// checkText refuses a file that is not UTF-8 text (a binary given by
// mistake), naming the line and the byte rather than quoting it: its
// properties would each be refused, quoting kilobytes of binary.
func checkText(b []byte) error {
	i := textEnd(b)
	if i == len(b) {
		return nil
	}
	line := 1 + bytes.Count(b[:i], []byte("\n"))
	return fmt.Errorf("line %d holds byte 0x%02x: not a text properties file (UTF-8)", line, b[i])
}

// textEnd is the offset of the first NUL byte or invalid UTF-8 in b, or
// len(b) when there is none.
func textEnd(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == 0 || r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// Parse parses the text format of java.util.Properties.load,
// so that files written for the Java tools mean the same here: '#' and '!'
// comments, "key=value", "key: value" and "key value" separators, a
// trailing backslash continuing a line (leading blanks of the continuation
// dropped), and the escapes \t \n \r \f \uXXXX and \<char>. Later keys win.
// Error messages name the line but never quote values, which may be secrets.
func Parse(text string) (File, error) {
	f := File{Props: map[string]string{}, Lines: map[string]int{}}
	lines := splitNaturalLines(text)
	for i := 0; i < len(lines); i++ {
		first := i + 1 // 1-based number of the logical line's first natural line
		line := strings.TrimLeft(lines[i], " \t\f")
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		// Join continuation lines: an odd number of trailing backslashes.
		for endsWithContinuation(line) && i+1 < len(lines) {
			i++
			line = line[:len(line)-1] + strings.TrimLeft(lines[i], " \t\f")
		}
		if endsWithContinuation(line) { // continuation at end of file
			line = line[:len(line)-1]
		}
		rawKey, rawValue := splitKeyValue(line)
		key, err := unescapeJavaProp(rawKey)
		if err != nil {
			return File{}, fmt.Errorf("line %d: key: %w", first, err)
		}
		value, err := unescapeJavaProp(rawValue)
		if err != nil {
			return File{}, fmt.Errorf("line %d: value of %s: %w", first, key, err)
		}
		if line, ok := f.Lines[key]; ok {
			f.Repeated = append(f.Repeated, Repeat{Key: key, First: line, Again: first})
		}
		f.Props[key] = value
		f.Lines[key] = first
	}
	return f, nil
}

// splitNaturalLines splits at \n, \r\n and \r, as Properties.load does.
func splitNaturalLines(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	return strings.Split(text, "\n")
}

// endsWithContinuation reports whether line ends in an odd number of backslashes.
func endsWithContinuation(line string) bool {
	n := 0
	for i := len(line) - 1; i >= 0 && line[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// splitKeyValue splits a logical line at the first unescaped '=', ':' or
// blank; blanks around the separator, and one '=' or ':' after blanks, are
// not part of the value.
func splitKeyValue(line string) (key, value string) {
	end := len(line)
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == '\\' {
			i++ // skip the escaped character
			continue
		}
		if c == '=' || c == ':' || c == ' ' || c == '\t' || c == '\f' {
			end = i
			break
		}
	}
	key = line[:end]
	rest := line[end:]
	rest = strings.TrimLeft(rest, " \t\f")
	if rest != "" && (rest[0] == '=' || rest[0] == ':') {
		rest = strings.TrimLeft(rest[1:], " \t\f")
	}
	return key, rest
}

// unescapeJavaProp resolves the escapes of the properties format.
func unescapeJavaProp(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if i+5 > len(s) {
				return "", fmt.Errorf(`malformed \uXXXX escape`)
			}
			n, err := strconv.ParseUint(s[i+1:i+5], 16, 16)
			if err != nil {
				return "", fmt.Errorf(`malformed \uXXXX escape`)
			}
			b.WriteRune(rune(n))
			i += 4
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}
