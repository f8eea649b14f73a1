package driver

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// Many producers in one trial (Trial.Producers > 1): the trial is split
// into one share per producer instance (share), each share runs through
// the client's own single-producer path concurrently, and the shares'
// results are merged into one (mergeResults), with each producer's own
// figures kept in Result.Producers. franz-go runs one kgo client per share
// in process; the Java worker runs one KafkaProducer per share in its one
// JVM.

// ProducerResult is one producer instance's part of a trial run by several.
type ProducerResult struct {
	// Tag is the producer's audit tag (Trial.Tag + "/p<i>"), "" without
	// audit headers.
	Tag string
	// Sent, Acked and Failed count its measured records; WarmupSent its
	// warm-up records.
	Sent, Acked, Failed, WarmupSent int64
	// Elapsed is its own measured window, first measured send to flush.
	Elapsed time.Duration
	// Acks is its ack log; nil without audit headers.
	Acks *AckLog
	// Node is the Trogdor agent that ran it; "" for a local trial.
	Node string
	// CPU is the CPU time of the process that ran it on its node (shared
	// by a node's producers); 0 when not measured (a local trial).
	CPU time.Duration
}

// AuditSent is the number of sequence numbers the producer handed out.
func (p ProducerResult) AuditSent() int64 { return p.WarmupSent + p.Sent }

// RecordsPerS is the producer's measured throughput; 0 when it measured
// nothing.
func (p ProducerResult) RecordsPerS() float64 {
	if s := p.Elapsed.Seconds(); s > 0 {
		return float64(p.Acked) / s
	}
	return 0
}

// producerCount is the number of producer instances t asks for (0 is one).
func producerCount(t Trial) int { return max(1, t.Producers) }

// ProducerTag is the audit tag of producer i of a run tagged tag. The audit
// header's tag is everything before its last '/', so "<tag>/p<i>/<seq>"
// parses as producer i's own sequence.
func ProducerTag(tag string, i int) string { return tag + "/p" + strconv.Itoa(i) }

// seedStride separates the producers' seeds (the 64-bit golden ratio), so
// that their payloads and keys differ; producer 0 keeps the trial's seed.
const seedStride = uint64(0x9E3779B97F4A7C15)

// share is the trial producer i of n runs: an even share of the records
// (the first Records%n producers get one more), of the warm-up records and
// of the rate, its own seed and audit tag, and no progress callback (the
// caller fans progress in).
func (t Trial) share(i, n int) Trial {
	s := t
	s.Producers = 1
	s.Records = splitCount(t.Records, i, n)
	s.WarmupRecords = splitCount(t.WarmupRecords, i, n)
	s.Rate = t.Rate / float64(n)
	s.Seed = int64(uint64(t.Seed) + uint64(i)*seedStride)
	if t.Tag != "" {
		s.Tag = ProducerTag(t.Tag, i)
	}
	if n > 1 {
		s.Settings = t.Settings.WithSuffixedTransactionalID("p" + strconv.Itoa(i))
	}
	s.Progress = nil
	return s
}

// TransactionalIDs lists the transactional ids trial t's producers run
// with (share's suffixes); nil when t is not transactional.
func TransactionalIDs(t Trial) []string {
	id := t.Settings.TransactionalID
	if id == "" {
		return nil
	}
	n := producerCount(t)
	if n == 1 {
		return []string{id}
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = t.share(i, n).Settings.TransactionalID
	}
	return ids
}

// splitCount is share i of total split as evenly as possible over n.
func splitCount(total int64, i, n int) int64 {
	if total <= 0 {
		return total
	}
	q, r := total/int64(n), total%int64(n)
	if int64(i) < r {
		return q + 1
	}
	return q
}

// runShared runs t's shares concurrently through run and merges their
// results. The first error cancels the other producers and is returned,
// naming its producer, with whatever was measured.
func runShared(ctx context.Context, t Trial, run func(context.Context, Trial) (*Result, error)) (*Result, error) {
	n := producerCount(t)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	fan := newProgressFan(n, t.Progress)
	parts := make([]*Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		st := t.share(i, n)
		st.Progress = fan.of(i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[i], errs[i] = run(ctx, st)
			// A failed producer stops the others; a fenced one does not:
			// a fence reaches every producer of the trial by itself, and
			// one stopped early would leave its transaction open.
			if errs[i] != nil && !errors.Is(errs[i], ErrFenced) {
				cancel()
			}
		}()
	}
	wg.Wait()
	shares := make([]Trial, n)
	for i := range n {
		shares[i] = t.share(i, n)
	}
	res := mergeResults(shares, parts)
	return res, firstError(errs)
}

// firstError is the first producer's error that is not a cancellation
// echo (a producer stopped because another failed returns one), or else
// the first error; nil when every producer succeeded.
func firstError(errs []error) error {
	var first error
	for i, err := range errs {
		if err == nil {
			continue
		}
		err = fmt.Errorf("producer %d of %d: %w", i+1, len(errs), err)
		if !errors.Is(err, context.Canceled) {
			return err
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// progressFan sums the producers' progress reports into the caller's
// callback: cumulative counts add over the producers' latest reports,
// and each report's window is passed on as it is (windows of different
// producers add up to the records acknowledged, as Progress requires).
type progressFan struct {
	mu   sync.Mutex
	last []Progress
	out  func(Progress)
}

func newProgressFan(n int, out func(Progress)) *progressFan {
	return &progressFan{last: make([]Progress, n), out: out}
}

// of is producer i's progress callback; nil when the caller wants none.
func (f *progressFan) of(i int) func(Progress) {
	if f.out == nil {
		return nil
	}
	return func(p Progress) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.last[i] = p
		sum := Progress{WindowCount: p.WindowCount, WindowLatencySumUs: p.WindowLatencySumUs, WindowLatencyMaxUs: p.WindowLatencyMaxUs}
		for _, q := range f.last {
			sum.Sent += q.Sent
			sum.Acked += q.Acked
			sum.Failed += q.Failed
			sum.Elapsed = max(sum.Elapsed, q.Elapsed)
		}
		f.out(sum)
	}
}
