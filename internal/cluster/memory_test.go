package cluster

import (
	"strings"
	"testing"
)

// TestHeapFor checks the sizing rule and that it refuses what cannot fit.
func TestHeapFor(t *testing.T) {
	const gib = int64(1 << 30)
	tests := []struct {
		name    string
		nodes   int
		avail   int64
		want    int64
		wantErr string
	}{
		{"capped at 1 GiB", 3, 24 * gib, 1 << 30, ""},
		{"nine on 24 GiB", 9, 24 * gib, 1 << 30, ""},
		{"shared", 4, 4 * gib, 512 << 20, ""},
		{"just fits", 8, 4 * gib, 256 << 20, ""},
		{"refused", 9, 4 * gib, 0, "9 Kafka nodes do not fit in this machine's memory: 4096 MiB available, they need 4352 MiB"},
		{"no memory", 1, 1 * gib, 0, "do not fit"},
		{"no nodes", 0, 24 * gib, 0, "want at least one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := heapFor(tt.nodes, tt.avail)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("heapFor = %d, %v; want error containing %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("heapFor = %d, %v; want %d", got, err, tt.want)
			}
		})
	}
}

// TestParseMemAvailable checks the meminfo reader, including its failure.
func TestParseMemAvailable(t *testing.T) {
	tests := []struct {
		name, in string
		want     int64
		ok       bool
	}{
		{"present", "MemTotal:       24684084 kB\nMemAvailable:   1024 kB\n", 1 << 20, true},
		{"missing", "MemTotal:       24684084 kB\n", 0, false},
		{"garbled", "MemAvailable:   x kB\n", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseMemAvailable(strings.NewReader(tt.in))
			if (err == nil) != tt.ok || got != tt.want {
				t.Fatalf("parseMemAvailable = %d, %v; want %d, ok=%v", got, err, tt.want, tt.ok)
			}
		})
	}
}

// TestHeapArgs checks the JVM flags of a heap.
func TestHeapArgs(t *testing.T) {
	got := strings.Join(heapArgs(1<<30), " ")
	if got != "-Xms512m -Xmx1024m" {
		t.Errorf("heapArgs = %q", got)
	}
}
