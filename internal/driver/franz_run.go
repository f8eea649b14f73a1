package driver

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/auditheader"
	"github.com/prodlab/prodlab/internal/keys"
	"github.com/prodlab/prodlab/internal/payload"
)

// franzRun is one franz-go trial in progress: the client, the tally its
// promises fill, and the produce loop's own figures.
type franzRun struct {
	t     Trial
	s     *franzSettings
	cl    *kgo.Client
	hooks *franzHooks
	gen   payload.Generator
	keys  *keys.Sampler // nil when keyless
	tally *franzTally
	meter *progressMeter // nil unless the caller wants progress reports
	txn   *franzTxn      // nil unless transactional
	pace  pacer
	hz    *horizon // nil for a burst: bounds a steady-state trial's queue
	// pool recycles records, with their value and header buffers, once
	// their promise has run: kgo is done with a record then, and the
	// produce loop allocates nothing per record in steady state.
	pool    sync.Pool
	promise func(*kgo.Record, error) // fr.done, bound once

	// Figures of the produce loop.
	warmSent, sent int64 // records handed over, warm-up and measured
	// catching is set once the warm-up's time is over and it waits for the
	// producer to catch up (Trial.CatchUp); lag0 is the lag then.
	catching      bool
	lag0          time.Duration
	clockStart    time.Time // first hand-off
	measuredStart time.Time // first measured hand-off; zero if none
	end           time.Time // return of Flush (and the final commit)

	stopProgress func()                     // nil until the clock starts
	stopTimeline func(time.Time) []Interval // nil until the clock starts
	timeline     []Interval                 // the points, once stopped
}

// newFranzRun builds the client for t, with its metadata loaded (as a
// long-lived producer would have it) and, if transactional, a transaction
// begun.
func newFranzRun(ctx context.Context, t Trial) (*franzRun, error) {
	s, err := mapFranzProps(t.Props)
	if err != nil {
		return nil, err
	}
	gen, err := payload.New(t.Payload, t.RecordSize, t.Seed)
	if err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	ks, err := keys.New(t.Keys, t.Seed)
	if err != nil {
		return nil, fmt.Errorf("workload keys: %w", err)
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
	fr := &franzRun{t: t, s: s, cl: cl, hooks: hooks, gen: gen, keys: ks}
	if s.txnID != "" {
		if err := cl.BeginTransaction(); err != nil {
			cl.Close()
			return nil, fmt.Errorf("begin transaction: %w", err)
		}
		fr.txn = &franzTxn{every: s.txnEvery}
	}
	var inflight *inflightGauge
	if cl.OptValue(kgo.RequiredAcks) != kgo.NoAck() { // acks=0 requests get no response
		inflight = &hooks.inflight
	}
	fr.tally = newFranzTally(t, inflight)
	if t.Progress != nil {
		fr.meter = &progressMeter{}
	}
	if t.Rate > 0 {
		fr.pace.every = time.Duration(float64(time.Second) / t.Rate)
	}
	if t.Duration > 0 {
		fr.hz = newHorizon()
	}
	fr.pool.New = func() any { return &franzRecord{} }
	fr.promise = fr.done
	return fr, nil
}

// maxAckLogHint bounds the ack log's initial size (records) for a burst;
// it grows past it.
const maxAckLogHint = 1 << 24

// newFranzTally returns the tally for t. inflight, when non-nil, feeds the
// timeline's in-flight figure.
func newFranzTally(t Trial, inflight *inflightGauge) *franzTally {
	ty := &franzTally{hist: NewLatencyHistogram(), errs: map[string]int64{}, parts: map[int32]int64{}}
	if t.Rate > 0 {
		ty.intended = NewLatencyHistogram()
	}
	if t.Tag != "" {
		// A burst's record count sizes the log; a steady-state trial's is a
		// cap that may be far from reached, so its log grows as it goes.
		var hint int64
		if t.Duration <= 0 {
			hint = min(max(t.WarmupRecords, 0)+max(t.Records, 0), maxAckLogHint)
		}
		ty.acks = NewAckLog(hint)
	}
	if warmupAsked(t) {
		ty.firstMeasured.Store(math.MaxInt64)
	}
	if t.TimelineInterval > 0 {
		ty.tl = newTimeline(&ty.mu, inflight)
	}
	return ty
}

func warmupAsked(t Trial) bool { return t.WarmupRecords > 0 || t.Warmup > 0 }

// done is every record's promise.
func (fr *franzRun) done(kr *kgo.Record, err error) {
	now := time.Now()
	r := fromKgo(kr)
	lat := max(now.Sub(r.handoff).Microseconds(), 1)
	fr.tally.record(r, now, lat, err)
	if fr.hz != nil {
		fr.hz.done(lat)
	}
	if fr.meter != nil {
		if err != nil {
			fr.meter.failed.Add(1)
		} else {
			fr.meter.ack(lat)
		}
	}
	r.reset()
	fr.pool.Put(r)
}

// produce hands records to the client until the measured window is over or
// ctx ends: the warm-up first, then the measured records, without a flush
// between them.
func (fr *franzRun) produce(ctx context.Context) error {
	warming := warmupAsked(fr.t)
	measuring := false
	for seq := int64(0); ctx.Err() == nil; seq++ {
		if seq > 0 {
			fr.pace.wait(seq)
		}
		if fr.hz != nil && !fr.hz.room(ctx.Done(), fr.windowEnd()) {
			break // the window ended while the client's queue was full
		}
		r := fr.record(seq)
		now := time.Now()
		if warming && fr.warmupOver(seq, now) && fr.caughtUp(now) {
			warming = false
		}
		if !warming && fr.measuredOver(now) {
			r.reset() // never handed over
			fr.pool.Put(r)
			break
		}
		if seq == 0 {
			fr.clockStart = now
			fr.pace.restart(now, 0)
		}
		if !warming && !measuring {
			measuring = true
			fr.startMeasured(now, seq)
		}
		if seq == 0 {
			fr.startTickers(now)
		}
		if fr.txn != nil {
			if err := fr.txn.maybeCommit(ctx, fr.cl, now); err != nil {
				return err
			}
		}
		r.intended = fr.pace.due(seq)
		if fr.t.StampHandoff && !warming { // warm-up records stay out of end-to-end figures
			r.stamp = auditheader.AppendTime(r.stamp[:0], now)
			r.Headers = append(r.Headers, kgo.RecordHeader{Key: auditheader.TimeKey, Value: r.stamp})
		}
		if warming {
			fr.warmSent++
		} else {
			fr.sent++
		}
		fr.handOff(ctx, r, now)
	}
	return nil
}

// record returns record seq, its value and audit header written.
func (fr *franzRun) record(seq int64) *franzRecord {
	r := fr.pool.Get().(*franzRecord)
	r.seq = seq
	r.Value = fr.gen.Next(seq, r.Value[:0])
	if fr.keys != nil {
		r.key = fr.keys.Append(r.key[:0], seq)
		r.Key = r.key
	}
	if fr.t.Tag != "" {
		r.hdr = auditheader.Append(r.hdr[:0], fr.t.Tag, seq)
		r.Headers = append(r.Headers[:0], kgo.RecordHeader{Key: auditheader.Key, Value: r.hdr})
	}
	return r
}

// handOff gives r to the client at now.
func (fr *franzRun) handOff(ctx context.Context, r *franzRecord, now time.Time) {
	if fr.meter != nil {
		fr.meter.sent.Add(1)
	}
	if tl := fr.tally.tl; tl != nil {
		tl.sent.Add(1)
	}
	// The hand-off time is our own: kgo truncates Record.Timestamp to
	// milliseconds (and drops its monotonic reading), which would add up
	// to 1 ms to every latency.
	r.handoff = now
	r.Timestamp = now
	if fr.hz != nil {
		fr.hz.handOff(now)
	}
	fr.cl.Produce(ctx, &r.Record, fr.promise)
}

// warmupOver reports whether the warm-up is over before record seq, handed
// over at now: after WarmupRecords records or Warmup of time, whichever is
// set and comes first.
func (fr *franzRun) warmupOver(seq int64, now time.Time) bool {
	t := fr.t
	return (t.WarmupRecords > 0 && seq >= t.WarmupRecords) ||
		(t.Warmup > 0 && seq > 0 && now.Sub(fr.clockStart) >= t.Warmup)
}

// caughtUp reports whether the warm-up may end at now: always without
// Trial.CatchUp, or when the warm-up ended on its record count before its
// time (the Java worker gates only a timed warm-up); else once the
// producer is within CatchUp of its schedule (lag), when it falls further
// behind than it was when the warm-up's time ended (by more than CatchUp:
// it cannot keep up, and waiting only deepens the overload), or when
// CatchUpMax has passed since Warmup.
func (fr *franzRun) caughtUp(now time.Time) bool {
	t := fr.t
	since := now.Sub(fr.clockStart)
	if t.CatchUp <= 0 || fr.hz == nil || t.Rate <= 0 || t.Warmup <= 0 || since < t.Warmup || since >= t.Warmup+t.CatchUpMax {
		return true
	}
	lag := fr.lag()
	if !fr.catching {
		fr.catching, fr.lag0 = true, lag
	}
	return lag <= t.CatchUp || lag > fr.lag0+t.CatchUp
}

// lag is how far behind its schedule a rate-limited producer's client
// runs: the wait of the newest record it holds unacknowledged, at the
// offered rate (Little's law), less the fastest completion seen (the
// pipeline's own latency, which a producer on schedule has too). Late
// hand-offs do not count: startMeasured re-anchors the pacer, so records
// not yet handed over when the window begins are never sent.
func (fr *franzRun) lag() time.Duration {
	held := time.Duration(float64(fr.hz.handed-fr.hz.completed.Load()) / fr.t.Rate * float64(time.Second))
	return max(0, held-time.Duration(fr.hz.minLatUs.Load())*time.Microsecond)
}

// measuredOver reports whether the measured window is over at now: Records
// measured records handed over, or, for a steady-state trial, Duration
// elapsed since its start (Records ≤ 0 then sets no cap).
func (fr *franzRun) measuredOver(now time.Time) bool {
	t := fr.t
	if t.Duration <= 0 || t.Records > 0 {
		if fr.sent >= t.Records {
			return true
		}
	}
	return t.Duration > 0 && fr.sent > 0 && now.Sub(fr.measuredStart) >= t.Duration
}

// windowEnd is when a steady-state trial's measured window ends; zero
// before it has begun.
func (fr *franzRun) windowEnd() time.Time {
	if fr.measuredStart.IsZero() || fr.t.Duration <= 0 {
		return time.Time{}
	}
	return fr.measuredStart.Add(fr.t.Duration)
}

// startMeasured begins the measured window with record seq at now: the
// promise classifies by seq from here on, intended send times count from
// now, and the timeline marks where the warm-up ended.
func (fr *franzRun) startMeasured(now time.Time, seq int64) {
	fr.measuredStart = now
	fr.tally.firstMeasured.Store(seq)
	fr.pace.restart(now, seq)
	if tl := fr.tally.tl; tl != nil {
		tl.markMeasured(now.Sub(fr.clockStart))
	}
}

// startTickers starts the trial's clock at its first hand-off: progress
// reports, timeline cuts and the transaction timer count from it.
func (fr *franzRun) startTickers(now time.Time) {
	if fr.txn != nil {
		fr.txn.last = now
	}
	if fr.meter != nil {
		fr.stopProgress = fr.meter.report(fr.t.Progress, now, progressInterval)
	}
	if tl := fr.tally.tl; tl != nil {
		fr.stopTimeline = tl.run(now, fr.t.TimelineInterval)
	}
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
	if fr.stopProgress != nil {
		fr.stopProgress()
	}
	if fr.txn != nil && flushErr == nil {
		if err := fr.txn.end(ctx, fr.cl); err != nil {
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
	if fr.stopTimeline != nil {
		fr.timeline = fr.stopTimeline(time.Now())
		fr.stopTimeline = nil
	}
	return flushErr, nil
}

// close stops whatever still runs and closes the client.
func (fr *franzRun) close() {
	if fr.stopProgress != nil {
		fr.stopProgress() // idempotent
	}
	if fr.stopTimeline != nil {
		fr.stopTimeline(time.Now())
	}
	fr.cl.Close()
}

// result assembles the trial's Result once every promise has run.
func (fr *franzRun) result() *Result {
	ty := fr.tally
	ty.mu.Lock()
	defer ty.mu.Unlock()
	res := &Result{
		Client:            "franz-go " + FranzVersion(),
		Sent:              fr.sent,
		Acked:             ty.acked,
		Failed:            ty.failed,
		Errors:            ty.errs,
		Latency:           ty.hist,
		LatencyIntended:   ty.intended,
		UncompressedBytes: fr.hooks.uncompressed.Load(),
		CompressedBytes:   fr.hooks.compressed.Load(),
		Batches:           fr.hooks.batches.Load(),
		ProduceRequests:   fr.hooks.requests.Load(),
		Effective:         franzEffective(fr.cl, fr.s),
		Metrics:           map[string]float64{},
		Acks:              ty.acks,
		PartitionRecords:  ty.parts,
		WarmupSent:        fr.warmSent,
		WarmupAcked:       ty.warmAck,
		ClockStart:        fr.clockStart,
		Timeline:          fr.timeline,
	}
	if !fr.measuredStart.IsZero() {
		res.Elapsed = fr.end.Sub(fr.measuredStart)
		res.MeasuredFrom = fr.measuredStart.Sub(fr.clockStart)
	}
	if res.Batches > 0 { // batches are client totals: warm-up included
		res.Metrics["batch-size-avg"] = float64(res.CompressedBytes) / float64(res.Batches)
		res.Metrics["records-per-batch-avg"] = float64(res.Acked+res.WarmupAcked) / float64(res.Batches)
	}
	if ty.warmFail > 0 {
		res.Metrics["warmup-records-failed"] = float64(ty.warmFail)
	}
	if fr.txn != nil {
		res.Metrics["transaction-commits"] = float64(fr.txn.commits)
	}
	return res
}

// pacer spaces hand-offs every interval (rate-limited trials) from an
// anchor: record anchorSeq is due at anchor, the next one interval later.
type pacer struct {
	every     time.Duration // 0: unthrottled
	anchor    time.Time
	anchorSeq int64
}

// restart anchors the pace at record seq handed over at at.
func (p *pacer) restart(at time.Time, seq int64) { p.anchor, p.anchorSeq = at, seq }

// due is when record seq is due; zero when unthrottled.
func (p *pacer) due(seq int64) time.Time {
	if p.every <= 0 {
		return time.Time{}
	}
	return p.anchor.Add(time.Duration(seq-p.anchorSeq) * p.every)
}

// wait sleeps until record seq is due.
func (p *pacer) wait(seq int64) {
	if p.every > 0 {
		if d := time.Until(p.due(seq)); d > 0 {
			time.Sleep(d)
		}
	}
}

// franzTxn commits a transactional producer's transaction every interval.
type franzTxn struct {
	every   time.Duration
	last    time.Time // last commit, or the clock's start
	commits int64
}

// maybeCommit commits the open transaction and begins the next when one
// interval has passed since the last commit.
func (x *franzTxn) maybeCommit(ctx context.Context, cl *kgo.Client, now time.Time) error {
	if now.Sub(x.last) < x.every {
		return nil
	}
	if err := cl.Flush(ctx); err != nil {
		return fmt.Errorf("flush before commit: %w", err)
	}
	if err := cl.EndTransaction(ctx, kgo.TryCommit); err != nil {
		return fmt.Errorf("commit transaction: %w", err)
	}
	if err := cl.BeginTransaction(); err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	x.commits++
	x.last = time.Now()
	return nil
}

// end commits the last transaction (after the final flush).
func (x *franzTxn) end(ctx context.Context, cl *kgo.Client) error {
	if err := cl.EndTransaction(ctx, kgo.TryCommit); err != nil {
		return fmt.Errorf("commit transaction: %w", err)
	}
	x.commits++
	return nil
}
