package testtier

import (
	"testing"
)

// TestTiers runs Quiet and Shared under every value of Env and checks
// which of them skip (and that an unknown tier fails rather than runs).
func TestTiers(t *testing.T) {
	cases := []struct {
		tier                  string
		quietRuns, sharedRuns bool
		fails                 bool
	}{
		{"", true, true, false},          // both tiers
		{QuietTier, true, false, false},  // only the quiet tests
		{SharedTier, false, true, false}, // only the shared tests
		{"loud", false, false, true},     // a typo fails
	}
	for _, tc := range cases {
		t.Run("tier="+tc.tier, func(t *testing.T) {
			t.Setenv(Env, tc.tier)
			ran, failed := probe(func(t *testing.T) { Quiet(t) })
			if ran != tc.quietRuns || failed != tc.fails {
				t.Errorf("Quiet: ran %v failed %v, want %v %v", ran, failed, tc.quietRuns, tc.fails)
			}
		})
	}
	for _, tc := range cases {
		t.Run("shared tier="+tc.tier, func(t *testing.T) {
			t.Setenv(Env, tc.tier)
			ran, failed := probe(func(t *testing.T) { Shared(t) })
			if ran != tc.sharedRuns || failed != tc.fails {
				t.Errorf("Shared: ran %v failed %v, want %v %v", ran, failed, tc.sharedRuns, tc.fails)
			}
		})
	}
}

// probe runs mark in a test of its own and says whether the test went on
// past it and whether it failed.
func probe(mark func(*testing.T)) (ran, failed bool) {
	res := testing.RunTests(func(pat, str string) (bool, error) { return true, nil },
		[]testing.InternalTest{{Name: "Probe", F: func(t *testing.T) { mark(t); ran = true }}})
	return ran, !res
}
