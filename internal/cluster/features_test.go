package cluster

import (
	"strings"
	"testing"
)

// TestFeatureArgs: kafka-storage format's --feature arguments, in name
// order; none for no features.
func TestFeatureArgs(t *testing.T) {
	if got := featureArgs(nil); len(got) != 0 {
		t.Errorf("featureArgs(nil) = %q", got)
	}
	got := strings.Join(featureArgs(map[string]int{"transaction.version": 1, "group.version": 1}), " ")
	if want := "--feature group.version=1 --feature transaction.version=1"; got != want {
		t.Errorf("featureArgs = %q, want %q", got, want)
	}
}
