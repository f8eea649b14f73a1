package kafkaconf

import "testing"

// TestEffective: the readers of a client's reported settings, one row a
// rule, each with a case that the rule refuses.
func TestEffective(t *testing.T) {
	e := Effective{Acks: "-1", MaxInFlight: " 5 ", MaxBufferedRecords: "10000", QueueBufferingMaxMessages: "100000", TransactionalID: "tx-topic-p0", "linger.ms": " 5"}
	if !e.AcksAll() || (Effective{Acks: "1"}).AcksAll() || (Effective{}).AcksAll() {
		t.Error("AcksAll: want -1 and all to wait for the replicas, 1 and unreported not")
	}
	for _, tc := range []struct {
		e    Effective
		want int
		ok   bool
	}{
		{e, 5, true},
		{Effective{}, 0, false},
		{Effective{MaxInFlight: "0"}, 0, false},
		{Effective{MaxInFlight: "many"}, 0, false},
	} {
		if n, ok := tc.e.InFlight(); ok != tc.ok || (ok && n != tc.want) {
			t.Errorf("InFlight of %v = %d, %v; want %d, %v", tc.e, n, ok, tc.want, tc.ok)
		}
	}
	if n, ok := e.BufferedRecords(); !ok || n != 10000 {
		t.Errorf("BufferedRecords = %v, %v; want the fewer, 10000", n, ok)
	}
	if _, ok := (Effective{MaxBufferedRecords: "unbounded"}).BufferedRecords(); ok {
		t.Error("BufferedRecords read a value that is not a number")
	}
	if !e.Transactional() || (Effective{}).Transactional() {
		t.Error("Transactional: want it with an id and not without")
	}
	for _, tc := range []struct {
		key, want      string
		same, reported bool
	}{
		{Acks, "all", true, true},
		{Acks, "1", false, true},
		{TransactionalID, "tx", true, true},
		{TransactionalID, "t", false, true},
		{"linger.ms", "5", true, true},
		{"linger.ms", "50", false, true},
		{"batch.size", "1", false, false},
	} {
		if same, reported := e.Same(tc.key, tc.want); same != tc.same || reported != tc.reported {
			t.Errorf("Same(%s, %s) = %v, %v; want %v, %v", tc.key, tc.want, same, reported, tc.same, tc.reported)
		}
	}
}
