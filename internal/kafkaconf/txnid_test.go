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

// TestWithTransactionSchedule: a transactional producer's request names
// its commit interval, the default written out when neither bound is; the
// props passed in are never changed, and others pass as they are.
func TestWithTransactionSchedule(t *testing.T) {
	tests := []struct {
		name  string
		props map[string]string
		want  string // transaction.duration.ms in the result; "-" absent
	}{
		{name: "neither bound: the default", props: map[string]string{TransactionalID: "t"}, want: "3000"},
		{name: "a duration", props: map[string]string{TransactionalID: "t", TransactionDurationMs: "250"}, want: "250"},
		{name: "records only", props: map[string]string{TransactionalID: "t", TransactionRecords: "10"}, want: "-"},
		{name: "not transactional", props: map[string]string{"acks": "all"}, want: "-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(tt.props)
			got, ok := WithTransactionSchedule(tt.props)[TransactionDurationMs]
			if !ok {
				got = "-"
			}
			if got != tt.want || len(tt.props) != before {
				t.Errorf("transaction.duration.ms %q (props %v), want %q and the props unchanged", got, tt.props, tt.want)
			}
		})
	}
}
