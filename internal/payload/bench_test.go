package payload

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkNext measures generator throughput on the producer's hot path.
// Run with: go test -run '^$' -bench . ./internal/payload/
func BenchmarkNext(b *testing.B) {
	path := filepath.Join(b.TempDir(), "values.txt")
	line := strings.Repeat("x", 1023) + "\n"
	if err := os.WriteFile(path, []byte(strings.Repeat(line, 64)), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, kind := range []string{"json", "random", "text", "file:" + path} {
		for _, size := range []int{200, 1024, 16384} {
			name := kind
			if strings.HasPrefix(kind, "file:") {
				if size != 1024 {
					continue
				}
				name = "file"
			}
			b.Run(fmt.Sprintf("%s/%d", name, size), func(b *testing.B) {
				g, err := New(kind, size, 1)
				if err != nil {
					b.Fatal(err)
				}
				buf := make([]byte, 0, size)
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					buf = g.Next(int64(i), buf)
				}
			})
		}
	}
}
