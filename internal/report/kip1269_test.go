package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
)

// TestEmulatedColumn: the table and Markdown label scenarios run on
// patched Kafka, and show no such column when nothing was patched.
func TestEmulatedColumn(t *testing.T) {
	patched := rec(5, "none", 0, 1)
	patched.Emulated = "emulated KIP-1269: broker retains 20, client cap lifted"
	for _, tc := range []struct {
		name string
		recs []results.Record
		want []string // substrings of both outputs
		not  []string
	}{
		{"stock", []results.Record{rec(5, "none", 0, 1)}, nil, []string{"EMULATED", "emulated", "KIP-1269"}},
		{"patched beside stock", []results.Record{patched, rec(0, "none", 0, 1)},
			[]string{"KIP-1269: broker retains 20, client cap lifted"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for fname, f := range map[string]func(*bytes.Buffer, []results.Record) error{
				"table":    func(b *bytes.Buffer, r []results.Record) error { return Table(b, r) },
				"markdown": func(b *bytes.Buffer, r []results.Record) error { return Markdown(b, r) },
			} {
				var b bytes.Buffer
				if err := f(&b, tc.recs); err != nil {
					t.Fatal(err)
				}
				out := b.String()
				for _, w := range tc.want {
					if !strings.Contains(out, w) {
						t.Errorf("%s lacks %q:\n%s", fname, w, out)
					}
				}
				for _, w := range tc.not {
					if strings.Contains(out, w) {
						t.Errorf("%s has %q:\n%s", fname, w, out)
					}
				}
			}
		})
	}
}
