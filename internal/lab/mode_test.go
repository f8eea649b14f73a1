package lab

import (
	"testing"

	"github.com/prodlab/prodlab/internal/spec"
)

// TestModes checks that every run mode of spec has the lab's part, with
// its measured schedule, and that the lab registers no mode spec lacks.
func TestModes(t *testing.T) {
	names := map[string]bool{}
	for _, m := range spec.Modes {
		names[m.Name()] = true
		lm, ok := labModes[m.Name()]
		switch {
		case !ok:
			t.Errorf("run mode %s has no lab part (registerMode in its file)", m.Name())
		case lm.measured == nil:
			t.Errorf("run mode %s has no measured schedule", m.Name())
		}
	}
	for name := range labModes {
		if !names[name] {
			t.Errorf("lab mode %s is not a spec.Modes entry", name)
		}
	}
}
