package kafkaconf

import "testing"

// TestRunsAsTransactionalID: a client's reported id keeps a constraint
// when it is the id, or the id with prodlab's suffixes; not when it only
// begins with the same letters.
func TestRunsAsTransactionalID(t *testing.T) {
	for _, tc := range []struct {
		reported, id string
		want         bool
	}{
		{"app", "app", true},
		{SuffixedTransactionalID("app", "topic-s0-r0"), "app", true},
		{SuffixedTransactionalID(SuffixedTransactionalID("app", "t"), "p1"), "app", true},
		{"application-t", "app", false},
		{"other-app", "app", false},
	} {
		if got := RunsAsTransactionalID(tc.reported, tc.id); got != tc.want {
			t.Errorf("reported %q, id %q: %v, want %v", tc.reported, tc.id, got, tc.want)
		}
	}
}
