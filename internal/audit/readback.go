package audit

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/cluster"
)

// minPoll is the shortest poll ReadBack makes before deciding it stalled.
const minPoll = 100 * time.Millisecond

// progress tracks the read-back of one partition between the offsets listed
// when the audit started.
type progress struct {
	start, end int64
	// next is the next offset to read.
	next int64
}

func (p *progress) done() bool { return p.next >= p.end }

// ReadBack reads topic from the earliest to the end offsets of every
// partition (listed through kadm once, when the audit starts, so records
// produced later are not read) with a direct, group-less kgo consumer, and
// feeds every record to c. Control records of transactions only advance the
// position. It is bounded in time by ctx, and gives up earlier when nothing
// is read for StallTimeout.
//
// Any failure is an *IncompleteError saying what was verified: c then holds
// the counts for the records read so far, and c.Result() is still valid
// (records not read yet show up as lost).
func ReadBack(ctx context.Context, bootstrap []string, topic string, c Observer, opts ...Option) error {
	cfg := defaultReadConfig()
	for _, o := range opts {
		o(&cfg)
	}
	notListed := func(err error) error {
		return &IncompleteError{Topic: topic, Total: -1, Cause: err}
	}
	if len(bootstrap) == 0 {
		return notListed(errors.New("no bootstrap servers"))
	}
	if nilObserver(c) {
		return notListed(errors.New("nil checker"))
	}

	admCl, err := cluster.NewAdmin(bootstrap, cfg.extra...)
	if err != nil {
		return notListed(fmt.Errorf("creating admin client: %w", err))
	}
	defer admCl.Close()
	adm := admCl.Kadm()

	parts, err := listRange(ctx, adm, topic, cfg.committed)
	if err != nil {
		return notListed(err)
	}

	r := &reader{topic: topic, parts: parts, c: c}
	cl, err := r.newConsumer(bootstrap, cfg)
	if err != nil {
		return r.incomplete(fmt.Errorf("creating consumer: %w", err))
	}
	if cl == nil {
		return nil
	}
	defer cl.Close()
	return r.poll(ctx, cl, adm, bootstrap, cfg)
}

// newConsumer creates the direct consumer of the partitions that have
// records to read, each from its start offset; it returns a nil client when
// there is nothing to read, so ReadBack need not connect at all.
func (r *reader) newConsumer(bootstrap []string, cfg readConfig) (*kgo.Client, error) {
	assign := make(map[int32]kgo.Offset)
	for p, pr := range r.parts {
		if !pr.done() {
			assign[p] = kgo.NewOffset().At(pr.start)
		}
	}
	if len(assign) == 0 {
		return nil, nil
	}
	iso := kgo.ReadUncommitted()
	if cfg.committed {
		iso = kgo.ReadCommitted()
	}
	consOpts := []kgo.Opt{
		kgo.SeedBrokers(bootstrap...),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{r.topic: assign}),
		kgo.FetchIsolationLevel(iso),
		// Control records are kept only to see the position move past
		// transaction markers, which may be a partition's last offset.
		kgo.KeepControlRecords(),
	}
	return kgo.NewClient(append(consOpts, cfg.extra...)...)
}

// poll feeds what cl fetches to the checker until every partition is read
// to its end, ctx ends, a fetch fails or nothing is read for the stall
// timeout; every stop but the first is an *IncompleteError.
func (r *reader) poll(ctx context.Context, cl *kgo.Client, adm *kadm.Client, bootstrap []string, cfg readConfig) error {
	lastProgress := time.Now()
	for !r.done() {
		if err := ctx.Err(); err != nil {
			return r.incomplete(err)
		}
		pollCtx, cancel := ctx, context.CancelFunc(func() {})
		if cfg.stall > 0 {
			// Wait until the stall deadline, but always long enough to
			// drain what the client buffered meanwhile: the poll returns
			// buffered fetches at once, and a live context is needed to
			// get them.
			wait := max(time.Until(lastProgress.Add(cfg.stall)), minPoll)
			pollCtx, cancel = context.WithTimeout(ctx, wait)
		}
		fetches := cl.PollFetches(pollCtx)
		cancel()

		if err := fetchError(fetches); err != nil {
			return r.incomplete(err)
		}
		if r.consume(cl, fetches) {
			lastProgress = time.Now()
			continue
		}
		if cfg.stall > 0 && time.Since(lastProgress) >= cfg.stall && ctx.Err() == nil {
			return r.incomplete(stalled(ctx, adm, bootstrap, r.topic, cfg))
		}
	}
	return nil
}

// fetchError returns the first error of a poll that stops the read-back,
// ignoring the ends of the poll's context (the caller checks its own) and
// data-loss resets (the records skipped are then reported lost, which they
// are).
func fetchError(fetches kgo.Fetches) error {
	var fetchErr error
	fetches.EachError(func(_ string, p int32, err error) {
		var loss *kgo.ErrDataLoss
		switch {
		case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			// The poll slice or ctx ended; handled by the caller.
		case errors.As(err, &loss):
			// Informational: the client reset its position; records
			// skipped over are reported lost, which they are.
		default:
			if fetchErr == nil {
				fetchErr = fmt.Errorf("fetching partition %d: %w", p, err)
			}
		}
	})
	return fetchErr
}

// listRange lists the start and end offsets of every partition of topic.
// With committed, the end is the last stable offset.
func listRange(ctx context.Context, adm *kadm.Client, topic string, committed bool) (map[int32]*progress, error) {
	starts, err := adm.ListStartOffsets(ctx, topic)
	if err == nil {
		err = starts.Error()
	}
	if err != nil {
		return nil, fmt.Errorf("listing start offsets of topic %q: %w", topic, err)
	}
	list, what := adm.ListEndOffsets, "end"
	if committed {
		list, what = adm.ListCommittedOffsets, "last stable"
	}
	ends, err := list(ctx, topic)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		return nil, fmt.Errorf("listing %s offsets of topic %q: %w", what, topic, err)
	}
	parts := make(map[int32]*progress)
	var missing error
	ends.Each(func(e kadm.ListedOffset) {
		s, ok := starts.Lookup(topic, e.Partition)
		if !ok {
			missing = fmt.Errorf("no start offset listed for partition %d of topic %q", e.Partition, topic)
			return
		}
		parts[e.Partition] = &progress{start: s.Offset, end: max(e.Offset, s.Offset), next: s.Offset}
	})
	if missing != nil {
		return nil, missing
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("topic %q has no partitions", topic)
	}
	return parts, nil
}

// reader is the state of one ReadBack: positions per partition and the
// checker they feed.
type reader struct {
	topic string
	parts map[int32]*progress
	c     Observer
}

func (r *reader) done() bool {
	for _, pr := range r.parts {
		if !pr.done() {
			return false
		}
	}
	return true
}

// consume feeds the records of one poll to the checker, up to each
// partition's end offset, pauses partitions that are complete, and reports
// whether any position moved.
func (r *reader) consume(cl *kgo.Client, fetches kgo.Fetches) (moved bool) {
	var finished []int32
	fetches.EachPartition(func(fp kgo.FetchTopicPartition) {
		pr := r.parts[fp.Partition]
		if fp.Topic != r.topic || pr == nil || pr.done() {
			return
		}
		for _, rec := range fp.Records {
			if rec.Offset >= pr.end {
				break
			}
			if rec.Offset < pr.next {
				continue
			}
			if !rec.Attrs.IsControl() {
				r.c.Observe(rec.Partition, rec.Offset, rec.Headers)
			}
			pr.next = rec.Offset + 1
			moved = true
		}
		if pr.done() {
			finished = append(finished, fp.Partition)
		}
	})
	if len(finished) > 0 {
		cl.PauseFetchPartitions(map[string][]int32{r.topic: finished})
	}
	return moved
}

// incomplete describes how far the read got when cause stopped it.
func (r *reader) incomplete(cause error) *IncompleteError {
	e := &IncompleteError{Topic: r.topic, Stopped: make(map[int32]int64), Cause: cause}
	for p, pr := range r.parts {
		e.Read += pr.next - pr.start
		e.Total += pr.end - pr.start
		if pr.done() {
			e.Complete = append(e.Complete, p)
		} else {
			e.Stopped[p] = pr.next
		}
	}
	slices.Sort(e.Complete)
	return e
}

// stalled builds the cause for a read-back that made no progress for the
// stall timeout. The client retries unreachable brokers without reporting
// them, so it asks the cluster directly: first the seed brokers' TCP ports,
// whose errors ("connection refused") are the most telling, then a listing.
func stalled(ctx context.Context, adm *kadm.Client, bootstrap []string, topic string, cfg readConfig) error {
	pctx, cancel := context.WithTimeout(ctx, cfg.probe)
	defer cancel()
	var dialErrs []error
	var d net.Dialer
	for _, addr := range bootstrap {
		conn, err := d.DialContext(pctx, "tcp", addr)
		if err != nil {
			dialErrs = append(dialErrs, err)
			continue
		}
		_ = conn.Close()
	}
	if len(dialErrs) == len(bootstrap) {
		return fmt.Errorf("no progress for %v, cluster unreachable: %w", cfg.stall, errors.Join(dialErrs...))
	}
	if _, err := adm.ListEndOffsets(pctx, topic); err != nil {
		return fmt.Errorf("no progress for %v, cluster not answering: %w", cfg.stall, err)
	}
	return fmt.Errorf("no progress for %v although the cluster answers", cfg.stall)
}
