package driver

import (
	"testing"

	"github.com/prodlab/prodlab/internal/clients"
)

// TestKindsRegistered: every client kind has a driver and every driver a
// client kind, so a name expfile accepts can always be started.
func TestKindsRegistered(t *testing.T) {
	named := map[string]bool{}
	for _, k := range clients.Kinds() {
		named[k.Name] = true
		d, ok := kinds[k.Name]
		if !ok {
			t.Errorf("client kind %s has no driver (register it in the driver's init)", k.Name)
			continue
		}
		if d.check == nil || d.start == nil {
			t.Errorf("client kind %s: driver lacks check or start", k.Name)
		}
	}
	for name := range kinds {
		if !named[name] {
			t.Errorf("driver %s is not a client kind in internal/clients", name)
		}
	}
}
