package lab

import (
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/spec"
)

// TestByClass: a cluster's scenarios run class by class, classes in order
// of first appearance, each class's scenarios in their order.
func TestByClass(t *testing.T) {
	tests := []struct {
		name  string
		ids   string // scenario IDs, in plan order
		class string // their classes
		want  string
	}{
		{"idempotence's shape: two kinds interleaved", "on/none on/cuts off/none off/cuts", "c f c f", "on/none off/none on/cuts off/cuts"},
		{"one class keeps its order", "a b c", "x x x", "a b c"},
		{"first appearance decides", "a b c d e", "y x y z x", "a c b e d"},
		{"none", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ids, classes := strings.Fields(tt.ids), strings.Fields(tt.class)
			var scs []spec.Scenario
			class := map[string]string{}
			for i, id := range ids {
				scs = append(scs, spec.Scenario{ID: id})
				class[id] = classes[i]
			}
			var got []string
			for _, sc := range byClass(scs, class) {
				got = append(got, sc.ID)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("%v, want %s", got, tt.want)
			}
		})
	}
}
