package expfile

import (
	"strings"
	"testing"
)

// TestRefusedInput checks input refused for its form: invalid UTF-8,
// ambiguous keys, settings written at the top level.
func TestRefusedInput(t *testing.T) {
	tests := []refusal{
		// Invalid UTF-8 in a name is refused at its byte, not turned into U+FFFD.
		{name: "utf-8 name", src: "name: caf\xe9\n",
			want: []string{`x.yaml:1:10: invalid UTF-8 (byte 0xe9); save the file as UTF-8`}},
		// Likewise in a description, on a later line.
		{name: "utf-8 description", src: "name: x\ndescription: \"\xff\"\n",
			want: []string{`x.yaml:2:15: invalid UTF-8 (byte 0xff); save the file as UTF-8`}},
		// And in --set.
		{name: "utf-8 set", src: "name: x\n", sets: []string{"name=a\xffb"},
			want: []string{"--set name=a\uFFFDb: invalid UTF-8; keys and values must be UTF-8"}},
		// "size" ends three keys: all are listed.
		{name: "ambiguous set", src: "name: x\n", sets: []string{"size=5"},
			want: []string{`--set size=5: unknown key "size" is ambiguous; did you mean one of producer.batch.size, producer.max.request.size, workload.keys.size, workload.record.size?`}},
		// The same in a matrix axis.
		{name: "ambiguous axis", src: "name: x\nmatrix:\n  size: [1]\n",
			want: []string{`x.yaml:3:3: unknown key "size" in matrix is ambiguous; did you mean one of producer.batch.size, producer.max.request.size, workload.keys.size, workload.record.size?`}},
		// The dotted tail of one key suggests it.
		{name: "tail of one key", src: "name: x\n", sets: []string{"idempotence=true"},
			want: []string{`--set idempotence=true: unknown key "idempotence"; did you mean "producer.enable.idempotence"?`}},
		// A section's setting written at the top level is shown where it goes.
		{name: "top-level payload", src: "name: x\npayload: json\nlinger.ms: 5\nworkload.records: 5\n",
			want: []string{
				`x.yaml:2:1: unknown key "payload" at the top level; did you mean workload.payload, written workload: {payload: …}?`,
				`x.yaml:3:1: unknown key "linger.ms" at the top level; did you mean producer.linger.ms, written producer: {linger.ms: …}?`,
				`x.yaml:4:1: unknown key "workload.records" at the top level; did you mean workload.records, written workload: {records: …}?`,
			}},
	}
	runRefusals(t, tests)
}

// TestAcceptedInput checks UTF-8 beyond ASCII.
func TestAcceptedInput(t *testing.T) {
	runAccepted(t, []acceptance{
		// UTF-8 beyond ASCII, U+FFFD included.
		{"utf-8", "name: café ☕\ndescription: \"\uFFFD\"\n"},
	})
}

// TestNameAndBOM: a name with control characters would reach directory
// and topic names, so it is refused; a UTF-8 byte order mark is skipped.
func TestNameAndBOM(t *testing.T) {
	if _, err := Parse("x.yaml", []byte("name: \"a\\0b\"\n"), nil); err == nil || !strings.Contains(err.Error(), "control characters") {
		t.Errorf("name with NUL: %v, want refused", err)
	}
	if _, err := Parse("x.yaml", []byte("name: \"a\\tb\"\n"), nil); err == nil {
		t.Error("name with a tab accepted")
	}
	e, err := Parse("x.yaml", []byte("\ufeffname: bom\n"), nil)
	if err != nil || e.Name != "bom" {
		t.Errorf("file with a byte order mark: %v, %v", e, err)
	}
}
