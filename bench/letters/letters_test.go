package letters

import (
	"bytes"
	"testing"
)

// TestWindows: values have the size asked, only A–Z, and consecutive
// records get disjoint windows (no two equal among a pool's worth).
func TestWindows(t *testing.T) {
	const size = 1000
	v := Windows(size)
	seen := map[string]bool{}
	for i := int64(0); i < PoolBytes/size; i++ {
		w := v(i)
		if len(w) != size || cap(w) != size {
			t.Fatalf("record %d: len %d cap %d, want %d", i, len(w), cap(w), size)
		}
		if bytes.IndexFunc(w, func(r rune) bool { return r < 'A' || r > 'Z' }) >= 0 {
			t.Fatalf("record %d holds a byte outside A–Z", i)
		}
		if seen[string(w)] {
			t.Fatalf("record %d repeats an earlier window", i)
		}
		seen[string(w)] = true
	}
	if !bytes.Equal(v(0), v(PoolBytes/size)) {
		t.Error("the windows do not cycle over the pool")
	}
}
