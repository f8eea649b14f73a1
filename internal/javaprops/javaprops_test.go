package javaprops

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseJavaProperties(t *testing.T) {
	tests := []struct {
		name string
		text string
		want map[string]string
	}{
		// the three separators, blanks around them
		{"separators", "a=1\nb: 2\nc 3\n  d  =  4  \n", map[string]string{"a": "1", "b": "2", "c": "3", "d": "4  "}},
		// comments and blank lines are skipped
		{"comments", "# x=1\n! y=2\n\n   \nz=3", map[string]string{"z": "3"}},
		// a value may contain '=' and ':'
		{"separator in value", "sasl.jaas.config=a b=\"c\";", map[string]string{"sasl.jaas.config": "a b=\"c\";"}},
		// a trailing backslash continues the line; the continuation's leading blanks go
		{"continuation", "k=one \\\n    two\\\n three", map[string]string{"k": "one twothree"}},
		// an even number of backslashes is an escaped backslash, not a continuation
		{"escaped backslash", "k=C:\\\\dir\\\\\nx=1", map[string]string{"k": `C:\dir\`, "x": "1"}},
		// escapes, including in keys
		{"escapes", "a\\=b=\\t\\u0041\\n\\q", map[string]string{"a=b": "\tA\nq"}},
		// CRLF and CR line ends
		{"line ends", "a=1\r\nb=2\rc=3", map[string]string{"a": "1", "b": "2", "c": "3"}},
		// a key without a value
		{"empty value", "k\nj=", map[string]string{"k": "", "j": ""}},
		// later keys win
		{"override", "k=1\nk=2", map[string]string{"k": "2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Props; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseJavaPropertiesErrorsHideValues(t *testing.T) {
	_, err := Parse("ok=1\nssl.key.password=hunter2\\uZZ")
	if err == nil {
		t.Fatal("malformed \\u escape accepted")
	}
	if !strings.Contains(err.Error(), "line 2") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error %q should name line 2 and not quote the value", err)
	}
}

// TestReadRefusesAndStrips: Read drops a UTF-8 byte order mark (else
// part of the first key) and refuses a key set twice, naming both lines.
func TestReadRefusesAndStrips(t *testing.T) {
	tests := []struct {
		name, text string
		want       map[string]string
		wantErr    string
	}{
		{"byte order mark", "\ufeffacks=all\nlinger.ms=5\n", map[string]string{"acks": "all", "linger.ms": "5"}, ""},
		{"key set twice", "acks=all\n# tuned\nlinger.ms=5\nacks=1\n", nil, "line 4 sets acks again (first set on line 1): keep one"},
		{"escaped key set twice", "a\\=b=1\na\\=b=2\n", nil, "line 2 sets a=b again (first set on line 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "p.properties")
			if err := os.WriteFile(path, []byte(tt.text), 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := Read(path)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Read: %v, want an error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(f.Props, tt.want) {
				t.Errorf("got %q, want %q", f.Props, tt.want)
			}
		})
	}
}
