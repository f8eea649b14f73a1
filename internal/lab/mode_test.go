package lab

import (
	"testing"

	"github.com/prodlab/prodlab/internal/expfile"
)

// TestModes checks that every run mode of expfile has the lab's part, with
// its measured schedule, and that the lab registers no mode expfile lacks.
func TestModes(t *testing.T) {
	names := map[string]bool{}
	for _, m := range expfile.Modes {
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
			t.Errorf("lab mode %s is not an expfile.Modes entry", name)
		}
	}
}
