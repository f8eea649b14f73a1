package audit

import (
	"testing"

	"github.com/prodlab/prodlab/internal/auditheader"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/twmb/franz-go/pkg/kgo"
)

func TestChecker(t *testing.T) {
	all5 := func() Outcome { return newTestOutcome(5).ack(span(0, 5)...) }
	tests := []struct {
		name    string
		sent    int64
		out     func() Outcome
		records []obs
		want    Result
	}{
		{
			// Every acked record once, in order: only Acked and Read.
			name: "clean run", sent: 5, out: all5,
			records: ownRun(0, 0, 1, 2, 3, 4),
			want:    Result{Acked: 5, Read: 5},
		},
		{
			// Clean over three partitions, interleaved as a consumer
			// would deliver them.
			name: "clean run, three partitions", sent: 6,
			out:     func() Outcome { return newTestOutcome(6).ack(span(0, 6)...) },
			records: cat(ownRun(1, 1, 4), ownRun(0, 0, 3), ownRun(2, 2, 5)),
			want:    Result{Acked: 6, Read: 6},
		},
		{
			// Seq 2 acked but never written: one loss.
			name: "one loss", sent: 5, out: all5,
			records: ownRun(0, 0, 1, 3, 4),
			want:    Result{Acked: 5, Lost: 1, Read: 4},
		},
		{
			// Seq 1 three times, seq 3 twice: (3-1)+(2-1) = 3 extra copies;
			// re-deliveries go backwards but count only as duplicates.
			name: "duplicates k copies count k-1", sent: 5, out: all5,
			records: ownRun(0, 0, 1, 2, 1, 3, 1, 3, 4),
			want:    Result{Acked: 5, Duplicates: 3, Read: 8},
		},
		{
			// The same seq in two partitions is a duplicate too.
			name: "duplicate across partitions", sent: 5, out: all5,
			records: cat(ownRun(0, 0, 1, 2), ownRun(1, 2, 3, 4)),
			want:    Result{Acked: 5, Duplicates: 1, Read: 6},
		},
		{
			// Seq 2 copied to the end of partition 1 and partition 1 read
			// first: its out-of-order copy is seen first, but the in-order
			// copy in partition 0 is the original. One duplicate, not
			// reordered: the counts don't depend on read order.
			name: "cross-partition duplicate, out-of-order copy read first", sent: 6,
			out:     func() Outcome { return newTestOutcome(6).ack(span(0, 6)...) },
			records: cat(ownRun(1, 1, 3, 5, 2), ownRun(0, 0, 2, 4)),
			want:    Result{Acked: 6, Duplicates: 1, Read: 7},
		},
		{
			// The same records with partition 0 read first.
			name: "cross-partition duplicate, in-order copy read first", sent: 6,
			out:     func() Outcome { return newTestOutcome(6).ack(span(0, 6)...) },
			records: cat(ownRun(0, 0, 2, 4), ownRun(1, 1, 3, 5, 2)),
			want:    Result{Acked: 6, Duplicates: 1, Read: 7},
		},
		{
			// Both copies of seq 2 out of order in their partitions: one
			// reordered record and one duplicate, in either read order.
			name: "cross-partition duplicate, both out of order", sent: 6,
			out:     func() Outcome { return newTestOutcome(6).ack(span(0, 6)...) },
			records: cat(ownRun(1, 1, 3, 5, 2), ownRun(0, 0, 4, 2)),
			want:    Result{Acked: 6, Duplicates: 1, Reordered: 1, Read: 7},
		},
		{
			// The previous case, partition 0 read first.
			name: "cross-partition duplicate, both out of order, swapped", sent: 6,
			out:     func() Outcome { return newTestOutcome(6).ack(span(0, 6)...) },
			records: cat(ownRun(0, 0, 4, 2), ownRun(1, 1, 3, 5, 2)),
			want:    Result{Acked: 6, Duplicates: 1, Reordered: 1, Read: 7},
		},
		{
			// 0 2 1 3: seq 1 comes after 2 in the same partition.
			name: "one reordered", sent: 5, out: all5,
			records: ownRun(0, 0, 2, 1, 3, 4),
			want:    Result{Acked: 5, Reordered: 1, Read: 5},
		},
		{
			// 4 0 1 2 3: every record after 4 is below the running max,
			// each counted once.
			name: "reordered, each record once", sent: 5, out: all5,
			records: ownRun(0, 4, 0, 1, 2, 3),
			want:    Result{Acked: 5, Reordered: 4, Read: 5},
		},
		{
			// High seqs in partition 0 read before low seqs in partition 1:
			// ordering is per partition, so nothing is reordered.
			name: "no false reordering across partitions", sent: 5, out: all5,
			records: cat(ownRun(0, 3, 4), ownRun(1, 0, 1, 2)),
			want:    Result{Acked: 5, Read: 5},
		},
		{
			// Seq 4 reported failed but written: a phantom, not a loss.
			name: "phantom", sent: 5,
			out:     func() Outcome { return newTestOutcome(5).ack(0, 1, 2, 3).fail(4) },
			records: ownRun(0, 0, 1, 2, 3, 4),
			want:    Result{Acked: 4, Phantom: 1, Read: 5},
		},
		{
			// A phantom written twice: one phantom, one duplicate.
			name: "phantom twice", sent: 5,
			out:     func() Outcome { return newTestOutcome(5).ack(0, 1, 2, 3).fail(4) },
			records: ownRun(0, 0, 1, 2, 3, 4, 4),
			want:    Result{Acked: 4, Phantom: 1, Duplicates: 1, Read: 6},
		},
		{
			// Failed and absent is the correct outcome of a failure.
			name: "failed and absent", sent: 5,
			out:     func() Outcome { return newTestOutcome(5).ack(0, 1, 2, 3).fail(4) },
			records: ownRun(0, 0, 1, 2, 3),
			want:    Result{Acked: 4, Read: 4},
		},
		{
			// Reported both acked and failed (a driver bug) and present:
			// acked, not lost, and phantom.
			name: "acked and failed, present", sent: 3,
			out:     func() Outcome { return newTestOutcome(3).ack(0, 1, 2).fail(1) },
			records: ownRun(0, 0, 1, 2),
			want:    Result{Acked: 3, Phantom: 1, Read: 3},
		},
		{
			// Reported both acked and failed and absent: lost, since the
			// application was told it was acknowledged.
			name: "acked and failed, absent", sent: 3,
			out:     func() Outcome { return newTestOutcome(3).ack(0, 1, 2).fail(1) },
			records: ownRun(0, 0, 2),
			want:    Result{Acked: 3, Lost: 1, Read: 2},
		},
		{
			// Neither acked nor failed (in flight at a timeout) and absent:
			// not lost; present: not phantom.
			name: "unresolved seqs", sent: 4,
			out:     func() Outcome { return newTestOutcome(4).ack(0, 1) },
			records: ownRun(0, 0, 1, 2),
			want:    Result{Acked: 2, Read: 3},
		},
		{
			// Records that are not this run's, in every form; the run's own
			// records are unaffected.
			name: "foreign", sent: 3,
			out: func() Outcome { return newTestOutcome(3).ack(0, 1, 2) },
			records: cat(ownRun(0, 0, 1, 2),
				[]obs{
					{p: 0}, // no headers at all
					{p: 0, h: []kgo.RecordHeader{{Key: "other", Value: []byte(testTag + "/1")}}}, // other key only
					raw(0, "nonsense"),                      // no slash
					raw(0, testTag+"/"),                     // no seq
					raw(0, "/1"),                            // no tag
					raw(0, testTag+"/-1"),                   // negative
					raw(0, testTag+"/+1"),                   // sign
					raw(0, testTag+"/1x"),                   // trailing garbage
					raw(0, testTag+"/99999999999999999999"), // overflows int64
					raw(0, ""),                              // empty value
					tagged(1, "run0-s0-r0", 1),              // another run
					tagged(1, testTag, 3),                   // seq == sent
					tagged(1, testTag, 1<<40),               // seq far beyond sent
				}),
			want: Result{Acked: 3, Foreign: 13, Read: 16},
		},
		{
			// Foreign records carry no ordering: another run's high seq
			// doesn't make this run's records look reordered.
			name: "foreign doesn't reorder", sent: 3,
			out:     func() Outcome { return newTestOutcome(3).ack(0, 1, 2) },
			records: cat(ownRun(0, 0), []obs{tagged(0, "other", 1000)}, ownRun(0, 1, 2)),
			want:    Result{Acked: 3, Foreign: 1, Read: 4},
		},
		{
			// The first prodlab header decides, among other headers.
			name: "first prodlab header wins", sent: 2,
			out: func() Outcome { return newTestOutcome(2).ack(0, 1) },
			records: []obs{
				{0, []kgo.RecordHeader{{Key: "trace", Value: []byte("x")}, {Key: auditheader.Key, Value: []byte(testTag + "/0")}}},
				{0, []kgo.RecordHeader{{Key: auditheader.Key, Value: []byte(testTag + "/1")}, {Key: auditheader.Key, Value: []byte("junk")}}},
			},
			want: Result{Acked: 2, Read: 2},
		},
		{
			// Empty topic after an acked run: everything lost.
			name: "empty topic", sent: 5, out: all5,
			want: Result{Acked: 5, Lost: 5},
		},
		{
			// Nothing sent, nothing read: all zero.
			name: "nothing sent, empty topic", sent: 0,
			out:  func() Outcome { return newTestOutcome(0) },
			want: Result{},
		},
		{
			// No outcome: nothing acked, so nothing lost or phantom, but
			// the topic is still checked.
			name: "nil outcome", sent: 3, out: func() Outcome { return nil },
			records: ownRun(0, 0, 2, 1, 1),
			want:    Result{Reordered: 1, Duplicates: 1, Read: 4},
		},
		{
			// A negative sent is treated as zero: every record is foreign.
			name: "negative sent", sent: -1, out: func() Outcome { return nil },
			records: ownRun(0, 0, 1),
			want:    Result{Foreign: 2, Read: 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewChecker(testTag, tt.sent, tt.out())
			feed(c, tt.records)
			if got := c.Result(); got != tt.want {
				t.Errorf("Result() = %+v\nwant       %+v", got, tt.want)
			}
		})
	}
}

// TestObserveRedelivery checks that a consumer handing the same offset twice
// (a re-fetch) is not mistaken for a duplicate in the log.
func TestObserveRedelivery(t *testing.T) {
	c := NewChecker(testTag, 3, newTestOutcome(3).ack(0, 1, 2))
	h := func(seq int64) []kgo.RecordHeader { return own(0, seq).h }
	c.Observe(0, 10, h(0))
	c.Observe(0, 11, h(1))
	c.Observe(0, 11, h(1)) // re-delivered offset
	c.Observe(0, 10, h(0)) // re-delivered, older
	c.Observe(0, 12, h(2))
	want := Result{Acked: 3, Read: 3}
	if got := c.Result(); got != want {
		t.Errorf("Result() = %+v, want %+v", got, want)
	}
}

func TestResultRecord(t *testing.T) {
	r := Result{Acked: 1, Lost: 2, Duplicates: 3, Reordered: 4, Phantom: 5, Foreign: 6, Read: 7}
	want := results.Audit{Acked: 1, Lost: 2, Duplicates: 3, Reordered: 4, Phantom: 5, Foreign: 6}
	if got := r.Record(); got != want {
		t.Errorf("Record() = %+v, want %+v", got, want)
	}
}

func TestResultClean(t *testing.T) {
	tests := []struct {
		name string
		r    Result
		want bool
	}{
		// Acked, read and foreign records don't make a run unclean.
		{"clean", Result{Acked: 10, Read: 12, Foreign: 2}, true},
		// Each fault alone makes it unclean.
		{"lost", Result{Lost: 1}, false},
		{"duplicates", Result{Duplicates: 1}, false},
		{"reordered", Result{Reordered: 1}, false},
		{"phantom", Result{Phantom: 1}, false},
	}
	for _, tt := range tests {
		if got := tt.r.Clean(); got != tt.want {
			t.Errorf("%s: Clean() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestCheckerTransactions: records of aborted transactions read back count
// as seen (a violation when read read_committed), once per seq, and the
// result is not clean; a plain outcome has no transaction figures.
func TestCheckerTransactions(t *testing.T) {
	out := txnOutcome{newTestOutcome(6).ack(0, 1, 4, 5), map[int64]bool{2: true, 3: true}}
	tests := []struct {
		name    string
		records []obs
		want    TxnResult
		clean   bool
	}{
		{"read_committed, aborted skipped", ownRun(0, 0, 1, 4, 5), TxnResult{Aborted: 2}, true},
		{"aborted records visible", ownRun(0, 0, 1, 2, 3, 4, 5), TxnResult{Aborted: 2, AbortedSeen: 2}, false},
		{"an aborted record twice counts once", ownRun(0, 0, 1, 2, 4, 5, 2), TxnResult{Aborted: 2, AbortedSeen: 1}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewChecker(testTag, 6, out)
			feed(c, tt.records)
			r := c.Result()
			if r.Txn == nil || *r.Txn != tt.want {
				t.Fatalf("Txn = %+v, want %+v", r.Txn, tt.want)
			}
			if r.Acked != 4 || r.Lost != 0 {
				t.Errorf("acked %d lost %d, want 4 and 0", r.Acked, r.Lost)
			}
			if tt.name != "an aborted record twice counts once" && r.Clean() != tt.clean {
				t.Errorf("Clean() = %v, want %v", r.Clean(), tt.clean)
			}
			a := r.Record()
			if a.Transactions == nil || a.Transactions.AbortedVisible != tt.want.AbortedSeen || a.Transactions.Isolation != "read_committed" {
				t.Errorf("record %+v", a.Transactions)
			}
			g := NewGroup(NewChecker(testTag, 6, out))
			feed(g, tt.records)
			if gr := g.Result(); gr.Txn == nil || *gr.Txn != tt.want {
				t.Errorf("group Txn = %+v, want %+v", gr.Txn, tt.want)
			}
		})
	}
	plain := NewChecker(testTag, 6, newTestOutcome(6).ack(0))
	feed(plain, ownRun(0, 0))
	if r := plain.Result(); r.Txn != nil || r.Record().Transactions != nil {
		t.Errorf("a plain producer's audit has transaction figures: %+v", r.Txn)
	}
}
