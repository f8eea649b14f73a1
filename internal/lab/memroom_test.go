package lab

import (
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/cluster"
)

// TestMemoryRoom: a trial on a tmpfs needs the most a trial has stored
// with half again to spare, and cluster.MinMemoryFree before any has.
func TestMemoryRoom(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name         string
		free, stored int64
		refused      bool
	}{
		{"nothing stored yet, the floor free", cluster.MinMemoryFree, 0, false},
		{"nothing stored yet, below the floor", cluster.MinMemoryFree - mib, 0, true},
		{"room for 1.5 times the most stored", 3000 * mib, 2000 * mib, false},
		{"not room for 1.5 times the most stored", 2999 * mib, 2000 * mib, true},
		{"small trials keep the floor", cluster.MinMemoryFree - mib, 10 * mib, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := memoryRoom(tt.free, tt.stored)
			if (err != nil) != tt.refused {
				t.Fatalf("memoryRoom(%d MiB free, %d MiB stored) = %v, refused want %v", tt.free/mib, tt.stored/mib, err, tt.refused)
			}
			if err != nil && !strings.Contains(err.Error(), "cluster.storage: disk") {
				t.Errorf("error %q does not say what to do", err)
			}
		})
	}
}
