package driver

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/prodlab/prodlab/internal/auditheader"
	"github.com/prodlab/prodlab/internal/keys"
	"github.com/prodlab/prodlab/internal/payload"
)

// sendLoop is the workload of one producer driven from Go: which record
// goes next and when (pacing, the warm-up and its catch-up, the measured
// window and the queue's horizon), the trial's clock (progress reports and
// timeline cuts) and the tally of what came back. A client's adapter
// (franz-go in process, librdkafka in its worker) only builds records and
// hands them over (sender), and reports each completion with done, so
// every Go client runs the one workload.
type sendLoop struct {
	t     Trial
	clock monoClock
	tally *tally
	meter *progressMeter // nil unless the caller wants progress reports
	pace  pacer
	hz    *horizon // nil for a burst: bounds a steady-state trial's queue

	// Figures of the loop.
	warmSent, sent int64 // records handed over, warm-up and measured
	// catching is set once the warm-up's time is over and it waits for the
	// producer to catch up (Trial.CatchUp); lag0 is the lag then.
	catching      bool
	lag0          time.Duration
	clockStart    time.Time // first hand-off
	measuredStart time.Time // first measured hand-off; zero if none
	end           time.Time // the end of the measured clock (flush, final commit)

	stopProgress func()                     // nil until the clock starts
	stopTimeline func(time.Time) []Interval // nil until the clock starts
	timeline     []Interval                 // the points, once stopped
}

// sender is a client's side of the send loop: it builds the next record
// and hands it to the client, which later reports it with sendLoop.done.
type sender interface {
	// prepare builds record seq (value, key, audit header) before the loop
	// reads the clock for its hand-off.
	prepare(seq int64)
	// discard drops the prepared record: the window ended before it went.
	discard()
	// beforeSend runs before record seq is handed over at now (a
	// transactional producer ends its transaction here); an error ends
	// the trial.
	beforeSend(ctx context.Context, now time.Time, seq int64) error
	// send hands the prepared record to the client at now: intended is when
	// it was due (zero when unthrottled), stamp asks for the hand-off time
	// header (auditheader.TimeKey) on it.
	send(ctx context.Context, now, intended time.Time, stamp bool)
}

// newSendLoop returns the loop of trial t; inflight, when non-nil, feeds
// the timeline's in-flight figure.
func newSendLoop(t Trial, inflight *inflightGauge) *sendLoop {
	l := &sendLoop{t: t, clock: newMonoClock(), tally: newTally(t, inflight)}
	if t.Progress != nil {
		l.meter = newProgressMeter(&l.tally.mu)
		l.tally.prog = l.meter
	}
	if t.Rate > 0 {
		l.pace.every = time.Duration(float64(time.Second) / t.Rate)
	}
	if t.Duration > 0 {
		l.hz = newHorizon()
	}
	return l
}

// run hands records to s until the measured window is over or ctx ends: the
// warm-up first, then the measured records, without a flush between them.
func (l *sendLoop) run(ctx context.Context, s sender) error {
	warming := warmupAsked(l.t)
	measuring := false
	for seq := int64(0); ctx.Err() == nil; seq++ {
		if seq > 0 {
			l.pace.wait(seq)
		}
		if l.hz != nil && !l.hz.room(ctx.Done(), l.windowEnd()) {
			break // the window ended while the client's queue was full
		}
		s.prepare(seq)
		now := l.clock.now()
		if warming && l.warmupOver(seq, now) && l.caughtUp(now) {
			warming = false
		}
		if !warming && l.measuredOver(now) {
			s.discard() // never handed over
			break
		}
		if seq == 0 {
			l.clockStart = now
			l.pace.restart(now, 0)
		}
		if !warming && !measuring {
			measuring = true
			l.startMeasured(now, seq)
		}
		if seq == 0 {
			l.startTickers(now)
		}
		if err := s.beforeSend(ctx, now, seq); err != nil {
			return err
		}
		if warming {
			l.warmSent++
		} else {
			l.sent++
		}
		if l.meter != nil {
			l.meter.sent.Add(1)
		}
		if tl := l.tally.tl; tl != nil {
			tl.sent.Add(1)
		}
		if l.hz != nil {
			l.hz.handOff(now)
		}
		// Warm-up records stay out of end-to-end figures.
		s.send(ctx, now, l.pace.due(seq), l.t.StampHandoff && !warming)
	}
	return nil
}

// done counts the completion of record seq (valueLen bytes of value, handed
// over at handoff, due at intended) on partition, at the time it is called.
func (l *sendLoop) done(seq int64, partition int32, valueLen int, handoff, intended time.Time, err error) {
	lat := max(time.Since(handoff).Microseconds(), 1) // one monotonic clock read
	l.tally.record(seq, partition, valueLen, handoff, intended, lat, err)
	if l.hz != nil {
		l.hz.done(lat)
	}
}

// warmupOver reports whether the warm-up is over before record seq, handed
// over at now: after WarmupRecords records or Warmup of time, whichever is
// set and comes first.
func (l *sendLoop) warmupOver(seq int64, now time.Time) bool {
	t := &l.t
	return (t.WarmupRecords > 0 && seq >= t.WarmupRecords) ||
		(t.Warmup > 0 && seq > 0 && now.Sub(l.clockStart) >= t.Warmup)
}

// caughtUp reports whether the warm-up may end at now: always without
// Trial.CatchUp, or when the warm-up ended on its record count before its
// time (the Java worker gates only a timed warm-up); else once the
// producer is within CatchUp of its schedule (lag), when it falls further
// behind than it was when the warm-up's time ended (by more than CatchUp:
// it cannot keep up, and waiting only deepens the overload), or when
// CatchUpMax has passed since Warmup.
func (l *sendLoop) caughtUp(now time.Time) bool {
	t := &l.t
	since := now.Sub(l.clockStart)
	if t.CatchUp <= 0 || l.hz == nil || t.Rate <= 0 || t.Warmup <= 0 || since < t.Warmup || since >= t.Warmup+t.CatchUpMax {
		return true
	}
	lag := l.lag()
	if !l.catching {
		l.catching, l.lag0 = true, lag
	}
	return lag <= t.CatchUp || lag > l.lag0+t.CatchUp
}

// lag is how far behind its schedule a rate-limited producer's client
// runs: the wait of the newest record it holds unacknowledged, at the
// offered rate (Little's law), less the fastest completion seen (the
// pipeline's own latency, which a producer on schedule has too). Late
// hand-offs do not count: startMeasured re-anchors the pacer, so records
// not yet handed over when the window begins are never sent.
func (l *sendLoop) lag() time.Duration {
	held := time.Duration(float64(l.hz.handed-l.hz.completed.Load()) / l.t.Rate * float64(time.Second))
	return max(0, held-time.Duration(l.hz.minLatUs.Load())*time.Microsecond)
}

// measuredOver reports whether the measured window is over at now: Records
// measured records handed over, or, for a steady-state trial, Duration
// elapsed since its start (Records ≤ 0 then sets no cap).
func (l *sendLoop) measuredOver(now time.Time) bool {
	t := &l.t
	if t.Duration <= 0 || t.Records > 0 {
		if l.sent >= t.Records {
			return true
		}
	}
	return t.Duration > 0 && l.sent > 0 && now.Sub(l.measuredStart) >= t.Duration
}

// windowEnd is when a steady-state trial's measured window ends; zero
// before it has begun.
func (l *sendLoop) windowEnd() time.Time {
	if l.measuredStart.IsZero() || l.t.Duration <= 0 {
		return time.Time{}
	}
	return l.measuredStart.Add(l.t.Duration)
}

// startMeasured begins the measured window with record seq at now: done
// classifies by seq from here on, intended send times count from now, and
// the timeline marks where the warm-up ended.
func (l *sendLoop) startMeasured(now time.Time, seq int64) {
	l.measuredStart = now
	l.tally.firstMeasured.Store(seq)
	l.pace.restart(now, seq)
	if tl := l.tally.tl; tl != nil {
		tl.markMeasured(now.Sub(l.clockStart))
	}
}

// startTickers starts the trial's clock at its first hand-off: progress
// reports and timeline cuts count from it.
func (l *sendLoop) startTickers(now time.Time) {
	if l.meter != nil {
		l.stopProgress = l.meter.report(l.t.Progress, now, progressInterval)
	}
	if tl := l.tally.tl; tl != nil {
		l.stopTimeline = tl.run(now, l.t.TimelineInterval)
	}
}

// stopReports stops the progress reports (idempotent).
func (l *sendLoop) stopReports() {
	if l.stopProgress != nil {
		l.stopProgress()
	}
}

// stopClock stops the timeline at now and keeps its points (idempotent).
func (l *sendLoop) stopClock(now time.Time) {
	if l.stopTimeline != nil {
		l.timeline = l.stopTimeline(now)
		l.stopTimeline = nil
	}
}

// result is the part of the trial's Result the loop knows, once every
// record has been reported: counts, latencies, the ack log, the clock and
// the timeline. The client adds its name, byte and batch counters and its
// effective configuration.
func (l *sendLoop) result(client string) *Result {
	ty := l.tally
	ty.mu.Lock()
	defer ty.mu.Unlock()
	res := &Result{
		Client:           client,
		Sent:             l.sent,
		Acked:            ty.acked,
		Failed:           ty.failed,
		Errors:           ty.errs,
		Latency:          ty.hist,
		LatencyIntended:  ty.intended,
		Metrics:          map[string]float64{},
		Acks:             ty.acks,
		PartitionRecords: ty.partitionRecords(),
		WarmupSent:       l.warmSent,
		WarmupAcked:      ty.warmAck,
		WarmupLatency:    ty.warmHist,
		WarmupErrors:     ty.warmErrs,
		ClockStart:       l.clockStart,
		Timeline:         l.timeline,
	}
	if !l.measuredStart.IsZero() {
		res.Elapsed = l.end.Sub(l.measuredStart)
		res.MeasuredFrom = l.measuredStart.Sub(l.clockStart)
	}
	if ty.warmFail > 0 {
		res.Metrics[MetricWarmupFailed] = float64(ty.warmFail)
	}
	return res
}

// batchMetrics adds the batch figures of res's client totals (warm-up
// included) to its metrics.
func batchMetrics(res *Result) {
	if res.Batches > 0 {
		res.Metrics["batch-size-avg"] = float64(res.CompressedBytes) / float64(res.Batches)
		res.Metrics["records-per-batch-avg"] = float64(res.Acked+res.WarmupAcked) / float64(res.Batches)
	}
}

// stampValue is the hand-off time header's value for now, in buf.
func stampValue(buf []byte, now time.Time) []byte { return auditheader.AppendTime(buf[:0], now) }

// maxAckLogHint bounds the ack log's initial size (records) for a burst;
// it grows past it.
const maxAckLogHint = 1 << 24

// newTally returns the tally for t. inflight, when non-nil, feeds the
// timeline's in-flight figure.
func newTally(t Trial, inflight *inflightGauge) *tally {
	ty := &tally{hist: NewLatencyHistogram(), errs: map[string]int64{}}
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
		ty.warmHist = NewLatencyHistogram()
	}
	if t.TimelineInterval > 0 {
		ty.tl = newTimeline(&ty.mu, inflight)
	}
	return ty
}

func warmupAsked(t Trial) bool { return t.WarmupRecords > 0 || t.Warmup > 0 }

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

// recordSource makes trial t's record values and keys (packages payload
// and keys, from its seed): every Go client builds its records from them.
func recordSource(t Trial) (payload.Generator, *keys.Sampler, error) {
	gen, err := payload.New(t.Payload, t.RecordSize, t.Seed)
	if err != nil {
		return nil, nil, fmt.Errorf("payload: %w", err)
	}
	ks, err := keys.New(t.Keys, t.Seed)
	if err != nil {
		return nil, nil, fmt.Errorf("workload keys: %w", err)
	}
	return gen, ks, nil
}

// trialContext bounds ctx by the trial's timeout, when it has one.
func trialContext(ctx context.Context, t Trial) (context.Context, context.CancelFunc) {
	if t.Timeout > 0 {
		return context.WithTimeout(ctx, t.Timeout)
	}
	return context.WithCancel(ctx)
}
