package expfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostileFiles checks that files built to hang or flood the parser are
// refused early, with one located message and a bounded error list. The
// location shows where the check stopped (the 65th bracket, the 20,001st
// line or item), far before the end of the file; the clock is a hang guard.
func TestHostileFiles(t *testing.T) {
	const head = "name: x\nclient: java\n"
	var merges strings.Builder
	merges.WriteString(head + "producer: &p {linger.ms: 5}\nfaults:\n")
	for range 200_000 {
		merges.WriteString("- <<: *p\n")
	}
	var items strings.Builder
	items.WriteString(head + "matrix: {linger.ms: [")
	for range 300_000 {
		items.WriteString("1,")
	}
	items.WriteString("1]}\n")
	tests := []struct {
		name, src, want string
	}{
		{"100,000 nested brackets", head + "description: " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "\n",
			"x.yaml:3:78: nesting deeper than 64 levels"},
		{"nested brackets after an apostrophe", head + "description: it's " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "\n",
			"x.yaml:3:83: nesting deeper than 64 levels"},
		{"200,000 merge keys", merges.String(), "x.yaml:20001:9: more than 20000 lines and list items"},
		{"300,000 list items", items.String(), "x.yaml:3:40019: more than 20000 lines and list items"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := Parse("x.yaml", []byte(tt.src), nil)
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %s, want under 10s", d)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
			if n := strings.Count(err.Error(), "\n"); n > MaxShown {
				t.Errorf("%d lines of errors, want at most %d", n+1, MaxShown+1)
			}
		})
	}
}

// TestErrorsShownBounded checks that a long error list is cut to MaxShown
// lines and a count of the rest.
func TestErrorsShownBounded(t *testing.T) {
	var src strings.Builder
	src.WriteString("name: x\nclient: java\nworkload:\n")
	for i := range 50 {
		src.WriteString("  bad" + strings.Repeat("x", i) + ": 1\n")
	}
	_, err := Parse("x.yaml", []byte(src.String()), nil)
	if err == nil {
		t.Fatal("accepted")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != MaxShown+1 || lines[MaxShown] != "… and 30 more problems" {
		t.Errorf("%d lines, last %q; want %d and \"… and 30 more problems\"", len(lines), lines[len(lines)-1], MaxShown+1)
	}
}

// TestMergeKeys checks that YAML merge keys bring in the entries they name,
// keys written out winning, and that an anchor merged into itself stops.
func TestMergeKeys(t *testing.T) {
	e := mustParse(t, "name: x\nclient: java\nproducer: &p {linger.ms: 5, batch.size: 100}\nmatrix:\n  l:\n    - {label: a, <<: *p, linger.ms: 7}\n")
	scs, err := e.Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	if got := scs[0].Exp.Producer; got["linger.ms"] != "7" || got["batch.size"] != "100" {
		t.Errorf("merged producer settings %v, want linger.ms 7 and batch.size 100", got)
	}
	_, err = Parse("x.yaml", []byte("name: x\nproducer: {<<: 5}\n"), nil)
	if err == nil || !strings.Contains(err.Error(), "x.yaml:2:16: a merge key (<<) must name a mapping") {
		t.Errorf("merge of a scalar: %v", err)
	}
}

// TestLoadRefusesSpecialFiles checks that Load refuses a FIFO and devices
// at once rather than blocking or reading forever.
func TestLoadRefusesSpecialFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "exp.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, "/dev/zero", "/dev/urandom"} {
		done := make(chan error, 1)
		go func() { _, err := Load(path, nil); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("Load(%s) = %v, want not a regular file", path, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Load(%s) still running after 10s", path)
		}
	}
	if _, err := os.Stat(fifo); err != nil {
		t.Fatal(err)
	}
}

// TestNarrowedCompareAxisRoundTrip checks that a compare axis narrowed to
// one value by --set is left out of the written experiment, which must
// parse again (an axis of one value is refused as written).
func TestNarrowedCompareAxisRoundTrip(t *testing.T) {
	src := "name: x\nclient: java\nmatrix: {linger.ms: [0, 5], batch.size: [1000, 2000]}\ncompare: [{axis: linger.ms}, {axis: batch.size}]\n"
	e := mustParse(t, src, "linger.ms=5")
	out, err := e.YAML()
	if err != nil {
		t.Fatal(err)
	}
	again := mustParse(t, string(out))
	if len(again.Compare) != 1 || again.Compare[0].Axis != "batch.size" {
		t.Errorf("compare after the round trip: %+v, want the batch.size entry only", again.Compare)
	}
}
