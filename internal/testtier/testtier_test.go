package testtier

import (
	"runtime"
	"testing"
)

// TestTiers runs Quiet and Shared under every value of Env and checks
// which of them let the test go on, which run it in parallel, and that an
// unknown tier fails rather than runs.
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
			q := probe(func(f *fake) { Quiet(f) })
			if q.ran != tc.quietRuns || q.failed != tc.fails || q.parallel {
				t.Errorf("Quiet: ran %v failed %v parallel %v, want %v %v false", q.ran, q.failed, q.parallel, tc.quietRuns, tc.fails)
			}
			s := probe(func(f *fake) { Shared(f) })
			if s.ran != tc.sharedRuns || s.failed != tc.fails || s.parallel != tc.sharedRuns {
				t.Errorf("Shared: ran %v failed %v parallel %v, want %v %v %v", s.ran, s.failed, s.parallel, tc.sharedRuns, tc.fails, tc.sharedRuns)
			}
		})
	}
}

// fake is a test that records what a mark did to it; Skipf and Fatalf end
// its goroutine as testing's do.
type fake struct {
	testing.TB
	ran, skipped, failed, parallel bool
}

func (f *fake) Helper()               {}
func (f *fake) Parallel()             { f.parallel = true }
func (f *fake) Skipf(string, ...any)  { f.skipped = true; runtime.Goexit() }
func (f *fake) Fatalf(string, ...any) { f.failed = true; runtime.Goexit() }

// probe runs mark on a fake test in a goroutine of its own and says
// whether the test went on past it.
func probe(mark func(*fake)) *fake {
	f := &fake{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		mark(f)
		f.ran = true
	}()
	<-done
	return f
}
