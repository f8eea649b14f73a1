package secret

import (
	"bytes"
	"encoding/json"
	"html/template"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestScrub: remembered values are replaced in text, in JSON strings in
// their escaped form, and nowhere else: a JSON document stays valid, its
// numbers and structure unchanged; a value shorter than MinScrubbed is not
// remembered (it would damage innocent text).
func TestScrub(t *testing.T) {
	const quoted = `pa"ss\word-42`
	Remember("scrub-marker-1", quoted, "1234567", "short", "  ")
	if slices.Contains(remembered(), "short") || slices.Contains(remembered(), "1234567") {
		t.Errorf("a 5-character or a digits-only value was remembered: %q", remembered())
	}
	Remember("tok+en/ab==")
	var page bytes.Buffer
	tmpl := template.Must(template.New("p").Parse(`<td>{{.}}</td><td>{{.}}</td>`))
	if err := tmpl.Execute(&page, "token tok+en/ab== and "+quoted); err != nil {
		t.Fatal(err)
	}
	if got := ScrubHTML(page.String()); strings.Contains(got, "en/ab") || strings.Contains(got, "word-42") {
		t.Errorf("ScrubHTML left a secret of an html/template page: %q", got)
	}
	tests := []struct {
		name, in, want string
		json           bool
	}{
		{name: "text", in: "login failed for https://app:scrub-marker-1@idp/token", want: "login failed for https://app:[hidden]@idp/token"},
		{name: "text, twice", in: "scrub-marker-1 scrub-marker-1", want: "[hidden] [hidden]"},
		{name: "short value left", in: "short", want: "short"},
		{name: "json string", json: true,
			in:   `{"error":"bad password scrub-marker-1","n":1234567,"id":"x"}`,
			want: `{"error":"bad password [hidden]","n":1234567,"id":"x"}`},
		{name: "json escaped value", json: true,
			in:   mustJSON(t, map[string]any{"error": "quoted " + quoted + " here", "rate": 1234567}),
			want: `{"error":"quoted [hidden] here","rate":1234567}`},
		{name: "digits-only value not remembered", json: true,
			in: `{"note":"sent 1234567 records"}`, want: `{"note":"sent 1234567 records"}`},
		{name: "unterminated json string", json: true, in: `{"e":"scrub-marker-1`, want: `{"e":"[hidden]`},
		{name: "secret after an escape", json: true, in: `{"e":"line1\nscrub-marker-1"}`, want: `{"e":"line1\n[hidden]"}`},
		{name: "keys left as they are", json: true, in: `{"scrub-marker-1" : "scrub-marker-1", "k": ["scrub-marker-1"]}`,
			want: `{"scrub-marker-1" : "[hidden]", "k": ["[hidden]"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got string
			if tt.json {
				got = string(ScrubJSON([]byte(tt.in)))
				if json.Valid([]byte(tt.in)) && !json.Valid([]byte(got)) {
					t.Errorf("ScrubJSON made invalid JSON: %s", got)
				}
			} else {
				got = Scrub(tt.in)
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestValues: the secret values of properties and JVM options are those
// of secret keys, JAAS passwords and URL passwords, and no others.
func TestValues(t *testing.T) {
	props := map[string]string{
		"sasl.jaas.config":                    `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="jaas-pw-1";`,
		"ssl.truststore.password":             "trust-pw-1",
		"sasl.oauthbearer.token.endpoint.url": "https://app:url-pw-1@idp.example/token",
		"linger.ms":                           "5",
	}
	got := Values(props)
	for _, want := range []string{props["sasl.jaas.config"], "jaas-pw-1", "trust-pw-1", "url-pw-1"} {
		if !slices.Contains(got, want) {
			t.Errorf("Values lacks %q: %q", want, got)
		}
	}
	if slices.Contains(got, "5") || slices.Contains(got, props["sasl.oauthbearer.token.endpoint.url"]) {
		t.Errorf("Values has a value that is no secret: %q", got)
	}
	opts := JVMOptValues([]string{"-Xmx1g", "-Djavax.net.ssl.keyStorePassword=jvm-pw-1", "-Dproxy=http://u:jvm-url-pw@p:3128", "-Dfoo=bar"})
	if !slices.Equal(opts, []string{"jvm-pw-1", "jvm-url-pw"}) {
		t.Errorf("JVMOptValues = %q", opts)
	}
}

// TestWriterKeepsFd: a scrubbed file still says which descriptor it
// writes (the progress bar asks whether it is a terminal), and scrubs.
func TestWriterKeepsFd(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := Writer(f)
	fd, ok := w.(interface{ Fd() uintptr })
	if !ok || fd.Fd() != f.Fd() {
		t.Fatalf("Writer(file) has no Fd of the file")
	}
	Remember("fd-marker-1")
	if _, err := w.Write([]byte("x fd-marker-1 y\n")); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	_, _ = Writer(&buf).Write([]byte("fd-marker-1"))
	b, _ := os.ReadFile(f.Name())
	if strings.Contains(string(b)+buf.String(), "fd-marker-1") {
		t.Errorf("written %q and %q, want the marker hidden", b, buf.String())
	}
}

// TestLineWriter: a secret split across two writes (two reads of a pipe)
// is still scrubbed, and a last line without its newline comes out on
// Flush.
func TestLineWriter(t *testing.T) {
	Remember("split-marker-pw")
	var out bytes.Buffer
	lw := NewLineWriter(&out)
	for _, part := range []string{"one split-ma", "rker-pw line\ntwo ", "split-marker-pw"} {
		if _, err := lw.Write([]byte(part)); err != nil {
			t.Fatal(err)
		}
	}
	if err := lw.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "one [hidden] line\ntwo [hidden]"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}
