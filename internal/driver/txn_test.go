package driver

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// fakeTxnClient records what the schedule asked of it; commitErr and
// abortErr fail those calls.
type fakeTxnClient struct {
	commits, aborts, begins int
	commitErr, abortErr     error
}

func (f *fakeTxnClient) flush(context.Context) error  { return nil }
func (f *fakeTxnClient) beginTxn() error              { f.begins++; return nil }
func (f *fakeTxnClient) commitRefused(err error) bool { return errors.Is(err, errRefused) }

// errRefused is the fake client's word for a commit that did not happen.
var errRefused = errors.New("refused")

func (f *fakeTxnClient) endTxn(_ context.Context, commit bool) error {
	if commit {
		f.commits++
		return f.commitErr
	}
	f.aborts++
	return f.abortErr
}

func txnConf(t *testing.T, props map[string]string) kafkaconf.Producer {
	t.Helper()
	props[kafkaconf.TransactionalID] = "x"
	p, err := kafkaconf.Parse(props)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTxnScheduleDue: a transaction ends on its record count or its time,
// whichever comes first, never empty.
func TestTxnScheduleDue(t *testing.T) {
	t0 := time.Unix(1000, 0)
	tests := []struct {
		name  string
		props map[string]string
		now   time.Duration
		seq   int64
		want  bool
	}{
		{"records reached", map[string]string{"transaction.records": "10"}, time.Hour, 10, true},
		{"records not reached, no time bound", map[string]string{"transaction.records": "10"}, time.Hour, 9, false},
		{"time reached", map[string]string{"transaction.duration.ms": "100"}, 100 * time.Millisecond, 1, true},
		{"time not reached", map[string]string{"transaction.duration.ms": "100"}, 99 * time.Millisecond, 1000, false},
		{"both: records first", map[string]string{"transaction.duration.ms": "100", "transaction.records": "5"}, time.Millisecond, 5, true},
		{"default 3 s", map[string]string{}, 3 * time.Second, 1, true},
		{"default 3 s, not yet", map[string]string{}, 2999 * time.Millisecond, 1 << 20, false},
		{"never empty", map[string]string{"transaction.duration.ms": "1"}, time.Hour, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := newTxnSchedule(txnConf(t, tt.props), 1, "tag")
			if x.due(t0, 0) {
				t.Fatal("the first call only starts the clock")
			}
			if got := x.due(t0.Add(tt.now), tt.seq); got != tt.want {
				t.Errorf("due after %v at seq %d = %v, want %v", tt.now, tt.seq, got, tt.want)
			}
		})
	}
}

// TestTxnScheduleFates: each transaction's records get its fate in the ack
// log; a failed commit is aborted; a failed abort ends the trial and
// leaves the records undecided; the abort ratio is seeded.
func TestTxnScheduleFates(t *testing.T) {
	ctx := context.Background()
	t.Run("commit", func(t *testing.T) {
		acks := NewAckLog(10)
		for s := range int64(10) {
			acks.Ack(s)
		}
		x := newTxnSchedule(txnConf(t, map[string]string{}), 1, "a")
		x.due(time.Now(), 0)
		c := &fakeTxnClient{}
		if err := x.end(ctx, c, 10, acks, false); err != nil {
			t.Fatal(err)
		}
		if !acks.Acked(9) || acks.Aborted(9) || c.begins != 1 || x.committed != 1 {
			t.Errorf("acked %v aborted %v begins %d committed %d", acks.Acked(9), acks.Aborted(9), c.begins, x.committed)
		}
		m := map[string]float64{}
		x.metrics(m)
		if m[MetricTxnCommitted] != 1 || m["records-per-transaction-avg"] != 10 || m["transaction-commit-p99-ms"] <= 0 {
			t.Errorf("metrics %v", m)
		}
	})
	t.Run("failed commit aborted", func(t *testing.T) {
		acks := NewAckLog(10)
		acks.Ack(3)
		x := newTxnSchedule(txnConf(t, map[string]string{}), 1, "a")
		x.due(time.Now(), 0)
		c := &fakeTxnClient{commitErr: fmt.Errorf("commit: %w", errRefused)}
		if err := x.end(ctx, c, 5, acks, true); err != nil {
			t.Fatal(err)
		}
		if acks.Acked(3) || !acks.Aborted(3) || acks.Aborted(5) || x.commitFailed != 1 || c.begins != 0 {
			t.Errorf("acked %v aborted %v/%v commitFailed %d begins %d", acks.Acked(3), acks.Aborted(3), acks.Aborted(5), x.commitFailed, c.begins)
		}
	})
	t.Run("commit of unknown outcome undecided", func(t *testing.T) {
		acks := NewAckLog(10)
		acks.SetTransactional()
		acks.Ack(3)
		x := newTxnSchedule(txnConf(t, map[string]string{}), 1, "a")
		x.due(time.Now(), 0)
		c := &fakeTxnClient{commitErr: errors.New("connection reset: the answer was lost")}
		if err := x.end(ctx, c, 5, acks, false); err != nil {
			t.Fatal(err)
		}
		if acks.Acked(3) || acks.Aborted(3) || !acks.Undecided(3) || x.commitUnknown != 1 || c.begins != 1 {
			t.Errorf("acked %v aborted %v undecided %v commitUnknown %d begins %d", acks.Acked(3), acks.Aborted(3), acks.Undecided(3), x.commitUnknown, c.begins)
		}
	})
	t.Run("failed abort undecided", func(t *testing.T) {
		acks := NewAckLog(10)
		acks.SetTransactional()
		acks.Ack(3)
		x := newTxnSchedule(txnConf(t, map[string]string{}), 1, "a")
		x.due(time.Now(), 0)
		c := &fakeTxnClient{commitErr: errors.New("boom"), abortErr: errors.New("fenced")}
		if err := x.end(ctx, c, 5, acks, false); err == nil {
			t.Fatal("a failed abort must end the trial")
		}
		if acks.Acked(3) || acks.Aborted(3) {
			t.Errorf("records of an undecided transaction: acked %v aborted %v", acks.Acked(3), acks.Aborted(3))
		}
	})
	t.Run("abort ratio seeded", func(t *testing.T) {
		run := func(seed int64, tag string) (committed, aborted int64) {
			x := newTxnSchedule(txnConf(t, map[string]string{"transaction.abort.ratio": "0.2"}), seed, tag)
			x.due(time.Now(), 0)
			c := &fakeTxnClient{}
			for i := int64(1); i <= 1000; i++ {
				if err := x.end(ctx, c, i, nil, false); err != nil {
					t.Fatal(err)
				}
			}
			return x.committed, x.aborted
		}
		c1, a1 := run(7, "p")
		c2, a2 := run(7, "p")
		if c1 != c2 || a1 != a2 {
			t.Errorf("same seed: %d/%d then %d/%d", c1, a1, c2, a2)
		}
		if a1 < 150 || a1 > 250 { // 1000 draws at 0.2: 200 ± 3 sd of 12.6
			t.Errorf("%d of 1000 aborted, want about 200", a1)
		}
		if _, a3 := run(7, "q"); a3 == a1 {
			t.Logf("another producer's tag drew the same count %d (possible, unlikely)", a3)
		}
	})
}

// TestAckLogTxnRanges: the fates cross the worker protocol as ranges.
func TestAckLogTxnRanges(t *testing.T) {
	a := NewAckLog(0)
	if c, ab := a.TxnRanges(); c != nil || ab != nil {
		t.Fatalf("a plain log has no transactions: %v %v", c, ab)
	}
	a.MarkTxn(0, 5, true)
	a.MarkTxn(5, 8, false)
	a.MarkTxn(8, 10, true)
	c, ab := a.TxnRanges()
	if len(c) != 2 || c[0] != [2]int64{0, 5} || c[1] != [2]int64{8, 10} || len(ab) != 1 || ab[0] != [2]int64{5, 8} {
		t.Errorf("committed %v aborted %v", c, ab)
	}
}

// TestAckLogUndecided: a transactional log's records of no ended
// transaction are undecided, neither acked nor aborted; a plain log has
// none.
func TestAckLogUndecided(t *testing.T) {
	a := NewAckLog(10)
	for s := range int64(10) {
		a.Ack(s)
	}
	if a.Undecided(3) {
		t.Error("a plain log has undecided records")
	}
	a.SetTransactional()
	a.MarkTxn(0, 4, true)
	a.MarkTxn(4, 6, false)
	for _, tc := range []struct {
		seq                       int64
		acked, aborted, undecided bool
	}{{0, true, false, false}, {5, false, true, false}, {6, false, false, true}, {9, false, false, true}, {-1, false, false, false}} {
		if a.Acked(tc.seq) != tc.acked || a.Aborted(tc.seq) != tc.aborted || a.Undecided(tc.seq) != tc.undecided {
			t.Errorf("seq %d: acked %v aborted %v undecided %v, want %v %v %v", tc.seq,
				a.Acked(tc.seq), a.Aborted(tc.seq), a.Undecided(tc.seq), tc.acked, tc.aborted, tc.undecided)
		}
	}
}

// TestSummedMetrics: a trial's producers add counts and totals and
// average levels.
func TestSummedMetrics(t *testing.T) {
	for name, want := range map[string]bool{
		MetricTxnCommitted: true, MetricTxnAborted: true, "txn-commit-time-ns-total": true,
		"record-retry-total": true, "batch-size-avg": false, "transaction-commit-p99-ms": false,
	} {
		if got := summedMetric(name); got != want {
			t.Errorf("summedMetric(%q) = %v, want %v", name, got, want)
		}
	}
}
