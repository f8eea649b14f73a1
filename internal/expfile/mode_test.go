package expfile

import "testing"

// TestMode tells each kind of experiment's run mode from its sections,
// and each mode's answers to what the house asks of it.
func TestMode(t *testing.T) {
	for _, tc := range []struct {
		name, src, mode           string
		searches, advises, sideBy bool
	}{
		{"steady rounds", "name: x\ntrials: 3\n", "steady", false, false, false},
		{"trials: auto", "name: x\ntrials: auto\nmatrix:\n  linger.ms: [0, 5]\n", "steady", false, false, false},
		{"duet", duetBase, "duet", false, false, true},
		{"capacity", adviseBase + "capacity: {slo: {p99.ms: 50}}\n", "capacity", true, false, false},
		{"advise by sustainable rate", adviseBase + "advise:\n  space: {linger.ms: [0, 5]}\n", "advise", true, true, false},
		{"advise at a rate", rateBase + "advise:\n  objective: p99.intended\n  space: {linger.ms: [0, 5]}\n", "advise-rate", true, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := Parse("x.yaml", []byte(tc.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			m := e.Mode()
			if m.Name() != tc.mode || m.Searches() != tc.searches || m.Advises() != tc.advises || m.SideBySide() != tc.sideBy {
				t.Errorf("mode %s (searches %v, advises %v, side by side %v), want %s (%v, %v, %v)",
					m.Name(), m.Searches(), m.Advises(), m.SideBySide(), tc.mode, tc.searches, tc.advises, tc.sideBy)
			}
		})
	}
	seen := map[string]bool{}
	for _, m := range Modes {
		if seen[m.Name()] {
			t.Errorf("mode %s listed twice", m.Name())
		}
		seen[m.Name()] = true
	}
}
