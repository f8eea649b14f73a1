package driver

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// txnClient is what a Go-driven client does for a transactional producer;
// the schedule (txnSchedule) decides when and which.
type txnClient interface {
	// flush waits until every record handed over is acknowledged or failed.
	flush(ctx context.Context) error
	// endTxn commits (commit true) or aborts the open transaction.
	endTxn(ctx context.Context, commit bool) error
	// beginTxn opens the next transaction.
	beginTxn() error
	// commitRefused says whether a failed commit's error shows the
	// transaction did not commit (refused, or to be aborted), rather
	// than an outcome unknown (a lost answer).
	commitRefused(err error) bool
}

// txnSchedule is a transactional producer's schedule and its figures: a
// transaction ends after its time (transaction.duration.ms) or its records
// (transaction.records), whichever comes first, and ends in an abort with
// probability transaction.abort.ratio (a seeded choice, so a trial
// repeats). Each transaction covers the contiguous sequence numbers handed
// over while it was open; its fate goes to the ack log, which is what the
// audit reconciles against a read_committed consumer.
type txnSchedule struct {
	plan kafkaconf.Transactions
	rng  *rand.Rand

	start    time.Time // when the open transaction began
	firstSeq int64     // its first sequence number

	committed, aborted int64 // transactions
	// commitFailed counts commits that failed and were aborted instead;
	// commitUnknown those of them whose outcome the error left unknown
	// (their records stay undecided).
	commitFailed, commitUnknown int64
	records                     int64 // records in ended transactions
	// commitLat is each commit's latency (flush excluded), µs.
	commitLat                  *hdrhistogram.Histogram
	flushNs, commitNs, abortNs int64
}

// newTxnSchedule returns the schedule of a transactional producer of conf,
// its aborts seeded by the trial's seed and the producer's tag.
func newTxnSchedule(conf kafkaconf.Producer, seed int64, tag string) *txnSchedule {
	h := fnv.New64a()
	_, _ = h.Write([]byte(tag))
	return &txnSchedule{
		plan:      conf.Transactions(),
		rng:       rand.New(rand.NewPCG(uint64(seed), h.Sum64())),
		commitLat: NewLatencyHistogram(),
	}
}

// due says whether the open transaction ends before record seq is handed
// over at now. The first call starts the first transaction's clock.
func (x *txnSchedule) due(now time.Time, seq int64) bool {
	if x.start.IsZero() {
		x.start, x.firstSeq = now, seq
		return false
	}
	if seq == x.firstSeq {
		return false // an empty transaction: nothing to end
	}
	return (x.plan.Every > 0 && now.Sub(x.start) >= time.Duration(x.plan.Every)*time.Millisecond) ||
		(x.plan.Records > 0 && seq-x.firstSeq >= x.plan.Records)
}

// end ends the open transaction, which holds the records from firstSeq up
// to nextSeq: it flushes, commits or (by the abort ratio) aborts, marks the
// records' fate in acks (nil: not audited) and, unless last, begins the
// next transaction. A commit that fails is aborted instead, which is what
// kgo and librdkafka ask for; its records count as aborted only when the
// commit's error shows it did not commit (commitRefused), else they stay
// undecided (a commit whose answer was lost may have happened). An abort
// that fails ends the trial and leaves the records undecided.
func (x *txnSchedule) end(ctx context.Context, c txnClient, nextSeq int64, acks *AckLog, last bool) error {
	t0 := time.Now()
	if err := c.flush(ctx); err != nil {
		return fmt.Errorf("flush before ending the transaction: %w", err)
	}
	t1 := time.Now()
	x.flushNs += t1.Sub(t0).Nanoseconds()
	commit := x.plan.AbortRatio <= 0 || x.rng.Float64() >= x.plan.AbortRatio
	var commitErr error
	if commit {
		commitErr = c.endTxn(ctx, true)
		t2 := time.Now()
		x.commitNs += t2.Sub(t1).Nanoseconds()
		if commitErr == nil {
			_ = x.commitLat.RecordValue(max(t2.Sub(t1).Microseconds(), 1))
			x.committed++
			acks.MarkTxn(x.firstSeq, nextSeq, true)
		}
	}
	if !commit || commitErr != nil {
		t2 := time.Now()
		if err := c.endTxn(ctx, false); err != nil {
			return fmt.Errorf("abort transaction: %w", errors.Join(commitErr, err))
		}
		x.abortNs += time.Since(t2).Nanoseconds()
		x.aborted++
		switch {
		case commitErr == nil:
			acks.MarkTxn(x.firstSeq, nextSeq, false)
		case c.commitRefused(commitErr):
			x.commitFailed++
			acks.MarkTxn(x.firstSeq, nextSeq, false)
		default:
			x.commitFailed++
			x.commitUnknown++
		}
	}
	x.records += nextSeq - x.firstSeq
	x.firstSeq, x.start = nextSeq, time.Now()
	if last {
		return nil
	}
	if err := c.beginTxn(); err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	return nil
}

// metrics adds the transaction figures to m, in the names of the Java
// producer's metrics where it has them (KIP-691: txn-*-time-ns-total,
// flush-time-ns-total).
func (x *txnSchedule) metrics(m map[string]float64) {
	m[MetricTxnCommitted] = float64(x.committed)
	m[MetricTxnAborted] = float64(x.aborted)
	m["transactions-commit-failed"] = float64(x.commitFailed)
	m["transactions-commit-unknown"] = float64(x.commitUnknown)
	if n := x.committed + x.aborted; n > 0 {
		m["records-per-transaction-avg"] = float64(x.records) / float64(n)
	}
	if x.committed > 0 {
		m["transaction-commit-p50-ms"] = float64(x.commitLat.ValueAtQuantile(50)) / 1e3
		m["transaction-commit-p99-ms"] = float64(x.commitLat.ValueAtQuantile(99)) / 1e3
	}
	m["txn-commit-time-ns-total"] = float64(x.commitNs)
	m["txn-abort-time-ns-total"] = float64(x.abortNs)
	m["flush-time-ns-total"] = float64(x.flushNs)
}

// The transaction counts every client reports; a trial's producers sum
// them (summedMetric).
const (
	MetricTxnCommitted = "transactions-committed"
	MetricTxnAborted   = "transactions-aborted"
)

// summedMetric says whether the client metric name is a count or a total,
// which a trial's producers add up, rather than a level they average.
func summedMetric(name string) bool {
	switch name {
	case MetricTxnCommitted, MetricTxnAborted, "transactions-commit-failed", "transactions-commit-unknown", MetricWarmupFailed:
		return true
	}
	return strings.HasSuffix(name, "-total")
}

// ErrFenced marks a trial that ended because another producer registered
// its transactional.id (a producer.fence fault, or an id shared by
// mistake): the producer was fenced. The trial's Result is returned with
// it, its records' fates as far as they were decided.
var ErrFenced = errors.New("producer fenced: another producer registered its transactional.id")

// fenced wraps err with ErrFenced when isFenced says the client's error
// is a fencing one.
func fenced(err error, isFenced func(error) bool) error {
	if err != nil && isFenced(err) {
		return fmt.Errorf("%w: %w", ErrFenced, err)
	}
	return err
}
