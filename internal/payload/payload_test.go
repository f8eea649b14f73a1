package payload

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name, kind string
		size       int
		want       string // substring of the error
	}{
		// An unknown kind names the accepted ones.
		{"unknown kind", "binary", 100, "want json, random, text or file:PATH"},
		// A size of zero cannot be honoured by fixed-size kinds.
		{"zero size", "random", 0, "must be positive"},
		// Negative sizes are rejected too.
		{"negative size", "text", -1, "must be positive"},
		// json states the minimum it needs.
		{"json too small", "json", MinJSONSize - 1, "at least " + itoa(MinJSONSize)},
		// file: without a path is an error, not the current directory.
		{"file without path", "file:", 0, "missing file path"},
		// A missing file is reported with its path.
		{"missing file", "file:/nonexistent/values.txt", 0, "/nonexistent/values.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.kind, tt.size, 1)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New(%q, %d) error = %v, want it to contain %q", tt.kind, tt.size, err, tt.want)
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestFixedSize(t *testing.T) {
	tests := []struct {
		name string
		kind string
		size int
	}{
		// The smallest json value: no padding at all for the widest parts.
		{"json minimum", "json", MinJSONSize},
		// A typical 1 KB json event.
		{"json 1KiB", "json", 1024},
		// Sizes that are not a multiple of 8 or 16 exercise the tail loops.
		{"json odd", "json", 1001},
		{"random 1 byte", "random", 1},
		{"random odd", "random", 1027},
		{"text 1 byte", "text", 1},
		{"text odd", "text", 1027},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := New(tt.kind, tt.size, 42)
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 0, tt.size)
			// Sequence numbers stay below workload.records ≤ 1e9; the json
			// layout reserves 10 digits.
			for _, seq := range []int64{0, 1, 9, 10, 12345, 1e9 - 1, 9_999_999_999} {
				v := g.Next(seq, buf)
				if len(v) != tt.size {
					t.Fatalf("seq %d: len = %d, want %d", seq, len(v), tt.size)
				}
				if &v[0] != &buf[:1][0] {
					t.Fatalf("seq %d: value does not reuse the caller's buffer", seq)
				}
				switch tt.kind {
				case "json":
					if !json.Valid(v) {
						t.Fatalf("seq %d: invalid JSON: %s", seq, v)
					}
				case "text":
					for i, c := range v {
						if c < 'A' || c > 'Z' {
							t.Fatalf("seq %d: byte %d = %q, want A-Z", seq, i, c)
						}
					}
				}
			}
		})
	}
}

// TestJSONFields checks the structure of an event and that seq and id are
// what the docs promise.
func TestJSONFields(t *testing.T) {
	g, err := New("json", 512, 7)
	if err != nil {
		t.Fatal(err)
	}
	g.(*jsonGen).now = func() int64 { return 1_700_000_000_123 }
	var ev struct {
		Seq     int64  `json:"seq"`
		ID      string `json:"id"`
		TS      int64  `json:"ts"`
		Event   string `json:"event"`
		Payload string `json:"payload"`
	}
	v := g.Next(31, nil)
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ev); err != nil {
		t.Fatalf("decode %s: %v", v, err)
	}
	if ev.Seq != 31 || ev.TS != 1_700_000_000_123 {
		t.Errorf("seq, ts = %d, %d; want 31, 1700000000123", ev.Seq, ev.TS)
	}
	if len(ev.ID) != 16 || strings.Trim(ev.ID, "0123456789abcdef") != "" {
		t.Errorf("id %q is not 16 lowercase hex digits", ev.ID)
	}
	if !strings.HasPrefix(ev.Event, "order_") {
		t.Errorf("event = %q, want an order event", ev.Event)
	}
	if strings.Trim(ev.Payload, hexDigits) != "" {
		t.Errorf("payload %q is not lowercase hex", ev.Payload)
	}
}

// TestDeterministicAndUnique checks that values depend only on (seed, seq):
// the same record is the same in any order, and different records or seeds
// differ.
func TestDeterministicAndUnique(t *testing.T) {
	for _, kind := range []string{"json", "random", "text"} {
		t.Run(kind, func(t *testing.T) {
			mk := func(seed int64) Generator {
				g, err := New(kind, 256, seed)
				if err != nil {
					t.Fatal(err)
				}
				if j, ok := g.(*jsonGen); ok {
					j.now = func() int64 { return 1_700_000_000_000 }
				}
				return g
			}
			a, b := mk(1), mk(1)
			first := string(a.Next(5, nil))
			a.Next(6, nil)
			if again := string(a.Next(5, nil)); again != first {
				t.Errorf("record 5 changed after generating record 6")
			}
			b.Next(99, nil)
			if other := string(b.Next(5, nil)); other != first {
				t.Errorf("record 5 differs between generators with the same seed")
			}
			if string(mk(2).Next(5, nil)) == first {
				t.Errorf("record 5 is the same under seeds 1 and 2")
			}
			seen := map[string]int64{}
			buf := make([]byte, 0, 256)
			for seq := int64(0); seq < 20000; seq++ {
				v := string(a.Next(seq, buf))
				if prev, dup := seen[v]; dup {
					t.Fatalf("records %d and %d have the same value", prev, seq)
				}
				seen[v] = seq
			}
		})
	}
}

// TestTextUniform checks that all 26 letters occur with about equal
// frequency, as perf-test's random.nextInt(26) gives.
func TestTextUniform(t *testing.T) {
	g, err := New("text", 1<<16, 3)
	if err != nil {
		t.Fatal(err)
	}
	var counts [26]int
	buf := make([]byte, 0, 1<<16)
	for seq := int64(0); seq < 16; seq++ {
		for _, c := range g.Next(seq, buf) {
			counts[c-'A']++
		}
	}
	want := float64(16<<16) / 26
	for i, n := range counts {
		if d := float64(n)/want - 1; d > 0.02 || d < -0.02 {
			t.Errorf("letter %c: %d occurrences, want %.0f ± 2%%", 'A'+i, n, want)
		}
	}
}

// TestTextCompressesLikeFreshLetters: a batch of consecutive text records
// must compress no better than the same number of letters drawn afresh, so
// that the letter pool never shows a compressor a repeat. DEFLATE sees 32
// KiB back, so the batch is 32 records of 1 KiB.
func TestTextCompressesLikeFreshLetters(t *testing.T) {
	deflated := func(b []byte) int {
		var out bytes.Buffer
		w, err := flate.NewWriter(&out, flate.BestCompression)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(b); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return out.Len()
	}
	g, err := New("text", 1024, 9)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	fresh := make([]byte, 32<<10)
	for i := range fresh {
		fresh[i] = byte('A' + r.IntN(26))
	}
	want := deflated(fresh)
	for _, first := range []int64{0, 1000, int64(textPoolBytes/1024) - 16} { // the last batch wraps around the pool
		var batch []byte
		for seq := first; seq < first+32; seq++ {
			batch = append(batch, g.Next(seq, nil)...)
		}
		if got := deflated(batch); float64(got) < 0.98*float64(want) {
			t.Errorf("records %d..%d deflate to %d bytes, fresh letters to %d: the batch repeats itself", first, first+31, got, want)
		}
	}
}

func TestFile(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    []string // values of records 0, 1, 2, ...
	}{
		// Lines are cycled in order.
		{"cycle", "a\nbb\nccc\n", []string{"a", "bb", "ccc", "a", "bb"}},
		// Empty lines are skipped; a last line without newline counts.
		{"blank lines", "\n\none\n\ntwo", []string{"one", "two", "one"}},
		// CRLF endings are not part of the value; inner spaces are.
		{"crlf", "x y\r\n z \r\n", []string{"x y", " z ", "x y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "values.txt")
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			g, err := New("file:"+path, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			var buf []byte
			for seq, want := range tt.want {
				buf = g.Next(int64(seq), buf)
				if string(buf) != want {
					t.Errorf("record %d = %q, want %q", seq, buf, want)
				}
			}
		})
	}
}

func TestFileWithoutLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.txt")
	if err := os.WriteFile(path, []byte("\n\r\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New("file:"+path, 0, 1); err == nil || !strings.Contains(err.Error(), "no non-empty lines") {
		t.Fatalf("error = %v, want no non-empty lines", err)
	}
}

// TestNoAllocs pins the hot-path promise: once the buffer is big enough,
// Next does not allocate.
func TestNoAllocs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "values.txt")
	if err := os.WriteFile(path, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"json", "random", "text", "file:" + path} {
		g, err := New(kind, 1024, 1)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 0, 1024)
		seq := int64(0)
		if n := testing.AllocsPerRun(1000, func() { buf = g.Next(seq, buf); seq++ }); n != 0 {
			t.Errorf("%s: %.1f allocations per Next, want 0", kind, n)
		}
	}
}

// TestHex8 checks the branch-free hex digits against the obvious ones.
func TestHex8(t *testing.T) {
	for _, x := range []uint32{0, 0x01234567, 0x89abcdef, 0xffffffff, 0xa0b1c2d3} {
		got := make([]byte, 8)
		binary.LittleEndian.PutUint64(got, hex8(x))
		want := make([]byte, 8)
		for i := range want {
			want[i] = hexDigits[x>>(4*i)&15]
		}
		if string(got) != string(want) {
			t.Errorf("hex8(%#x) = %q, want %q", x, got, want)
		}
	}
}

// TestJSONMinimumIs100 pins the smallest json event at 100 bytes, the
// smallest record size of the record-size experiment.
func TestJSONMinimumIs100(t *testing.T) {
	if MinJSONSize != 100 {
		t.Errorf("MinJSONSize = %d, want 100", MinJSONSize)
	}
}

// TestFillIsNext: Fill gives Next's bytes for every kind; text and file
// give their own bytes (Viewer) and leave the caller's buffer alone,
// json and random write into it.
func TestFillIsNext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lines.txt")
	if err := os.WriteFile(path, []byte("one\ntwo\r\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{KindJSON, KindRandom, KindText, KindFile + path} {
		g, err := New(kind, 200, 7)
		if err != nil {
			t.Fatal(err)
		}
		_, viewer := g.(Viewer)
		if want := kind == KindText || strings.HasPrefix(kind, KindFile); viewer != want {
			t.Errorf("%s: Viewer %v, want %v", kind, viewer, want)
		}
		var buf []byte
		for _, seq := range []int64{0, 1, 2, 3, 81919, 1 << 40} {
			got := Fill(g, seq, &buf)
			want := g.Next(seq, nil)
			if kind == KindJSON { // its "ts" moves; the first 40 bytes end before it
				got, want = got[:40], want[:40]
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s seq %d: Fill %q, Next %q", kind, seq, got, want)
			}
			if viewer && buf != nil {
				t.Errorf("%s: Fill wrote into the caller's buffer", kind)
			}
			if !viewer && len(buf) == 0 {
				t.Errorf("%s: Fill left the caller's buffer empty", kind)
			}
		}
	}
}
