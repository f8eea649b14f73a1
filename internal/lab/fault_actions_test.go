package lab

import (
	"testing"

	"github.com/prodlab/prodlab/internal/expfile"
)

// TestFaultActions: every fault type expfile accepts has exactly one action
// here (the proxies', a broker's or the zone links'), and every action a
// expfile type.
func TestFaultActions(t *testing.T) {
	types := map[string]bool{}
	for _, ft := range expfile.FaultTypes() {
		types[ft.Name] = true
		a, ok := faultActions[ft.Name]
		if !ok {
			t.Errorf("fault type %s has no action (add lab/fault_%s.go)", ft.Name, ft.Name)
			continue
		}
		kinds := 0
		for _, set := range []bool{a.proxy != nil, a.down != nil, a.links != nil, a.fence != nil} {
			if set {
				kinds++
			}
		}
		if kinds != 1 {
			t.Errorf("fault type %s: want exactly one of proxy, down, links and fence, got %d", ft.Name, kinds)
		}
	}
	for name := range faultActions {
		if !types[name] {
			t.Errorf("fault action %s has no expfile type", name)
		}
	}
}
