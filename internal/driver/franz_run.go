package driver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/auditheader"
	"github.com/prodlab/prodlab/internal/keys"
	"github.com/prodlab/prodlab/internal/payload"
)

// franzRun is one franz-go trial in progress: the client and its side of
// the send loop (sendloop.go), which owns the workload and the tally.
type franzRun struct {
	*sendLoop
	s     *franzSettings
	cl    *kgo.Client
	hooks *franzHooks
	gen   payload.Generator
	keys  *keys.Sampler // nil when keyless
	txn   *txnSchedule  // nil unless transactional
	// pool recycles records, with their value and header buffers, once
	// their promise has run: kgo is done with a record then, and the
	// produce loop allocates nothing per record in steady state.
	pool    recycler[franzRecord]
	promise func(*kgo.Record, error) // fr.done, bound once
	next    *franzRecord             // the record prepare built
}

// newFranzRun builds the client for t, with its metadata loaded (as a
// long-lived producer would have it) and, if transactional, a transaction
// begun.
func newFranzRun(ctx context.Context, t Trial) (*franzRun, error) {
	s, err := mapFranzProps(t.Settings)
	if err != nil {
		return nil, err
	}
	gen, ks, err := recordSource(t)
	if err != nil {
		return nil, err
	}
	hooks := &franzHooks{}
	opts := append([]kgo.Opt{
		kgo.SeedBrokers(t.Bootstrap...),
		kgo.DefaultProduceTopic(t.Topic),
		kgo.WithHooks(hooks),
		kgo.ProducerBatchMaxBytes(1 << 20), // overridden by batch.size below
	}, s.opts...)
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("franz-go rejected the configuration: %w", err)
	}
	if err := cl.Ping(ctx); err != nil {
		cl.Close()
		return nil, fmt.Errorf("connect to %v: %w", t.Bootstrap, err)
	}
	fr := &franzRun{s: s, cl: cl, hooks: hooks, gen: gen, keys: ks}
	if s.txnID != "" {
		if err := cl.BeginTransaction(); err != nil {
			cl.Close()
			return nil, fmt.Errorf("begin transaction: %w", err)
		}
		fr.txn = newTxnSchedule(s.conf, t.Seed, t.Tag)
	}
	var inflight *inflightGauge
	if cl.OptValue(kgo.RequiredAcks) != kgo.NoAck() { // acks=0 requests get no response
		inflight = &hooks.inflight
	}
	fr.sendLoop = newSendLoop(t, inflight)
	if fr.txn != nil {
		fr.tally.acks.SetTransactional()
	}
	fr.promise = fr.done
	return fr, nil
}

// done is every record's promise.
func (fr *franzRun) done(kr *kgo.Record, err error) {
	r := fromKgo(kr)
	fr.sendLoop.done(r.seq, r.Partition, len(r.Value), r.handoff, r.intended, err)
	r.reset()
	fr.pool.give(r)
}

// produce hands records to the client until the measured window is over or
// ctx ends (sendLoop.run).
func (fr *franzRun) produce(ctx context.Context) error { return fr.run(ctx, fr) }

// prepare implements sender: record seq, its value and audit header written.
func (fr *franzRun) prepare(seq int64) {
	r := fr.pool.take()
	r.seq = seq
	r.Value = payload.Fill(fr.gen, seq, &r.buf)
	if fr.keys != nil {
		r.key = fr.keys.Append(r.key[:0], seq)
		r.Key = r.key
	}
	if fr.t.Tag != "" {
		r.hdr = auditheader.Append(r.hdr[:0], fr.t.Tag, seq)
		r.Headers = append(r.Headers[:0], kgo.RecordHeader{Key: auditheader.Key, Value: r.hdr})
	}
	fr.next = r
}

// discard implements sender.
func (fr *franzRun) discard() {
	fr.next.reset()
	fr.pool.keep(fr.next)
	fr.next = nil
}

// beforeSend implements sender: a transactional producer ends its
// transaction when its schedule says so (txnSchedule).
func (fr *franzRun) beforeSend(ctx context.Context, now time.Time, seq int64) error {
	if fr.txn == nil || !fr.txn.due(now, seq) {
		return nil
	}
	return fr.txn.end(ctx, fr, seq, fr.tally.acks, false)
}

// flush implements txnClient.
func (fr *franzRun) flush(ctx context.Context) error { return fr.cl.Flush(ctx) }

// endTxn implements txnClient.
func (fr *franzRun) endTxn(ctx context.Context, commit bool) error {
	how := kgo.TryAbort
	if commit {
		how = kgo.TryCommit
	}
	return fr.cl.EndTransaction(ctx, how)
}

// commitRefused implements txnClient: kgo's errors of a commit it did not
// make (OperationNotAttempted), one the coordinator must abort
// (TransactionAbortable) or refused (fenced, an invalid state); any other
// (a transport error, UNKNOWN_SERVER_ERROR) leaves the outcome unknown, as
// kgo's EndTransaction documents.
func (fr *franzRun) commitRefused(err error) bool {
	return errors.Is(err, kerr.OperationNotAttempted) || errors.Is(err, kerr.TransactionAbortable) || franzFenced(err)
}

// beginTxn implements txnClient.
func (fr *franzRun) beginTxn() error { return fr.cl.BeginTransaction() }

// send implements sender: it gives the prepared record to the client at now.
func (fr *franzRun) send(ctx context.Context, now, intended time.Time, stamp bool) {
	r := fr.next
	fr.next = nil
	r.intended = intended
	if stamp {
		r.stamp = stampValue(r.stamp, now)
		r.Headers = append(r.Headers, kgo.RecordHeader{Key: auditheader.TimeKey, Value: r.stamp})
	}
	// The hand-off time is our own: kgo truncates Record.Timestamp to
	// milliseconds (and drops its monotonic reading), which would add up
	// to 1 ms to every latency.
	r.handoff = now
	r.Timestamp = now
	fr.cl.Produce(ctx, &r.Record, fr.promise)
}

// abortWait bounds how long a failed or interrupted trial waits for
// franz-go to fail its buffered records.
const abortWait = 2 * time.Second

// finish flushes, commits the last transaction and stops the clock. A flush
// that failed (the trial timed out) is returned as flushErr, after what was
// still buffered has been failed so that the counts add up; err is a failed
// final commit.
func (fr *franzRun) finish(ctx context.Context) (flushErr, err error) {
	flushErr = fr.cl.Flush(ctx)
	fr.stopReports()
	if fr.txn != nil && flushErr == nil {
		if err := fr.txn.end(ctx, fr, fr.warmSent+fr.sent, fr.tally.acks, true); err != nil {
			return nil, err
		}
	}
	fr.end = time.Now()
	if flushErr != nil {
		// Fail what is still buffered so the counts add up, but do not
		// wait on requests in flight to a broker that is down: an
		// interrupted run must end promptly.
		actx, cancel := context.WithTimeout(context.Background(), abortWait)
		_ = fr.cl.AbortBufferedRecords(actx)
		cancel()
	}
	fr.stopClock(time.Now())
	return flushErr, nil
}

// abandon fails what is still buffered (waiting at most abortWait) and
// stops the clock: the send loop ended on an error.
func (fr *franzRun) abandon() {
	fr.stopReports()
	actx, cancel := context.WithTimeout(context.Background(), abortWait)
	_ = fr.cl.AbortBufferedRecords(actx)
	cancel()
	fr.end = time.Now()
	fr.stopClock(fr.end)
}

// franzFenced reports whether err is franz-go's word for a fenced
// producer: another registered its transactional.id. INVALID_TXN_STATE
// counts too: it is what a commit racing the fence gets (the coordinator
// is already aborting for the new epoch), after which kgo refuses the
// next transaction; with an id of its own per producer, nothing else
// moves a prodlab producer's transaction out from under it.
func franzFenced(err error) bool {
	return errors.Is(err, kerr.ProducerFenced) || errors.Is(err, kerr.InvalidProducerEpoch) || errors.Is(err, kerr.InvalidTxnState)
}

// close stops whatever still runs and closes the client.
func (fr *franzRun) close() {
	fr.stopReports()
	fr.stopClock(time.Now())
	fr.cl.Close()
}

// batchHookWait bounds how long result waits for kgo's batch hooks to
// count the batches of the records already acknowledged.
const batchHookWait = time.Second

// result assembles the trial's Result once every promise has run (and the
// batch hooks of what was acknowledged).
func (fr *franzRun) result() *Result {
	res := fr.sendLoop.result("franz-go " + FranzVersion())
	fr.hooks.awaitBatches(res.Acked+res.WarmupAcked, batchHookWait)
	res.UncompressedBytes = fr.hooks.uncompressed.Load()
	res.CompressedBytes = fr.hooks.compressed.Load()
	res.Batches = fr.hooks.batches.Load()
	res.ProduceRequests = fr.hooks.requests.Load()
	res.Effective = franzEffective(fr.cl, fr.s)
	batchMetrics(res)
	if fr.txn != nil {
		fr.txn.metrics(res.Metrics)
	}
	return res
}
