package cli

import (
	"testing"

	"github.com/prodlab/prodlab/internal/golden"
)

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) { golden.Check(t, name, got) }
