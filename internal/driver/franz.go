package driver

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/audit"
	"github.com/prodlab/prodlab/internal/payload"
)

// Franz runs trials in process with franz-go (github.com/twmb/franz-go).
type Franz struct{}

// NewFranz returns the franz-go driver.
func NewFranz() *Franz { return &Franz{} }

// Name implements Driver.
func (*Franz) Name() string { return "franz-go" }

// Close implements Driver; franz-go holds nothing between trials.
func (*Franz) Close() error { return nil }

// Check implements Driver: every property must map onto a kgo option, and
// kgo must accept the options together (it validates them when a client is
// built, which connects to nothing).
func (*Franz) Check(props map[string]string) error {
	s, err := mapFranzProps(props)
	if err != nil {
		return err
	}
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers("127.0.0.1:9092")}, s.opts...)...)
	if err != nil {
		return fmt.Errorf("franz-go rejects these producer properties: %w", err)
	}
	cl.Close()
	return nil
}

// FranzVersion is the franz-go module version linked into this binary.
func FranzVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == "github.com/twmb/franz-go" {
				return m.Version
			}
		}
	}
	return "unknown"
}

// franzHooks counts produce requests and the batches franz-go wrote.
type franzHooks struct {
	requests     atomic.Int64
	batches      atomic.Int64
	uncompressed atomic.Int64
	compressed   atomic.Int64
}

func (h *franzHooks) OnBrokerWrite(_ kgo.BrokerMetadata, key int16, _ int, _, _ time.Duration, err error) {
	if key == 0 && err == nil { // 0 = Produce
		h.requests.Add(1)
	}
}

func (h *franzHooks) OnProduceBatchWritten(_ kgo.BrokerMetadata, _ string, _ int32, m kgo.ProduceBatchMetrics) {
	h.batches.Add(1)
	h.uncompressed.Add(int64(m.UncompressedBytes))
	h.compressed.Add(int64(m.CompressedBytes))
}

// franzTally accumulates acknowledgements from the client's promise callbacks.
type franzTally struct {
	mu      sync.Mutex
	hist    *hdrhistogram.Histogram
	acked   int64
	failed  int64
	errs    map[string]int64
	lastAck time.Time
	acks    *AckLog
	// intended measures from each record's intended send time (rate-limited
	// trials only).
	intended *hdrhistogram.Histogram
}

// Run implements Driver. Records are produced asynchronously; the clock runs
// from the first hand-off to the return of Flush, when every record has been
// acknowledged or has failed.
func (f *Franz) Run(ctx context.Context, t Trial) (*Result, error) {
	s, err := mapFranzProps(t.Props)
	if err != nil {
		return nil, err
	}
	gen, err := payload.New(t.Payload, t.RecordSize, t.Seed)
	if err != nil {
		return nil, fmt.Errorf("payload: %w", err)
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
	defer cl.Close()

	if t.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.Timeout)
		defer cancel()
	}
	// Load metadata before the clock starts, as a long-lived producer would have it.
	if err := cl.Ping(ctx); err != nil {
		return nil, fmt.Errorf("connect to %v: %w", t.Bootstrap, err)
	}
	if s.txnID != "" {
		if err := cl.BeginTransaction(); err != nil {
			return nil, fmt.Errorf("begin transaction: %w", err)
		}
	}

	tally := &franzTally{hist: NewLatencyHistogram(), errs: map[string]int64{}}
	if t.Rate > 0 {
		tally.intended = NewLatencyHistogram()
	}
	if t.Tag != "" {
		tally.acks = NewAckLog(t.Records)
	}
	// Records, with their value and header buffers, are recycled once their
	// promise has run: kgo is done with a record then, and the produce loop
	// allocates nothing per record in steady state.
	pool := sync.Pool{New: func() any { return &franzRecord{} }}
	var meter *progressMeter // nil unless the caller wants progress reports
	if t.Progress != nil {
		meter = &progressMeter{}
	}
	promise := func(kr *kgo.Record, err error) {
		now := time.Now()
		r := fromKgo(kr)
		lat := now.Sub(r.handoff).Microseconds()
		seq := r.seq
		tally.mu.Lock()
		if err != nil {
			tally.failed++
			tally.errs[err.Error()]++
			if tally.acks != nil {
				tally.acks.Fail(seq)
			}
		} else {
			tally.acked++
			_ = tally.hist.RecordValue(max(lat, 1))
			if tally.intended != nil {
				_ = tally.intended.RecordValue(max(now.Sub(r.intended).Microseconds(), 1))
			}
			tally.lastAck = now
			if tally.acks != nil {
				tally.acks.Ack(seq)
			}
		}
		tally.mu.Unlock()
		if meter != nil {
			if err != nil {
				meter.failed.Add(1)
			} else {
				meter.ack(max(lat, 1))
			}
		}
		r.reset()
		pool.Put(r)
	}

	var (
		sent     int64
		interval time.Duration
		commits  int64
	)
	if t.Rate > 0 {
		interval = time.Duration(float64(time.Second) / t.Rate)
	}
	start := time.Now()
	lastCommit := start
	stopProgress := func() {}
	if meter != nil {
		stopProgress = meter.report(t.Progress, start, progressInterval)
	}
	defer stopProgress() // on early returns; idempotent
	for seq := int64(0); seq < t.Records; seq++ {
		if ctx.Err() != nil {
			break
		}
		var intended time.Time
		if interval > 0 {
			intended = start.Add(time.Duration(seq) * interval)
			if d := time.Until(intended); d > 0 {
				time.Sleep(d)
			}
		}
		if s.txnID != "" && time.Since(lastCommit) >= s.txnEvery {
			if err := commitTxn(ctx, cl); err != nil {
				return nil, err
			}
			commits++
			lastCommit = time.Now()
		}
		r := pool.Get().(*franzRecord)
		r.seq, r.intended = seq, intended
		r.Value = gen.Next(seq, r.Value[:0])
		if t.Tag != "" {
			r.hdr = audit.AppendHeader(r.hdr[:0], t.Tag, seq)
			r.Headers = append(r.Headers[:0], kgo.RecordHeader{Key: audit.HeaderKey, Value: r.hdr})
		}
		// The hand-off time is our own: kgo truncates Record.Timestamp to
		// milliseconds (and drops its monotonic reading), which would add up
		// to 1 ms to every latency.
		r.handoff = time.Now()
		r.Timestamp = r.handoff
		cl.Produce(ctx, &r.Record, promise)
		sent++
		if meter != nil {
			meter.sent.Add(1)
		}
	}
	flushErr := cl.Flush(ctx)
	stopProgress()
	if s.txnID != "" && flushErr == nil {
		if err := cl.EndTransaction(ctx, kgo.TryCommit); err != nil {
			return nil, fmt.Errorf("commit transaction: %w", err)
		}
		commits++
	}
	elapsed := time.Since(start)
	if flushErr != nil {
		// Timed out: fail what is still buffered so the counts add up.
		_ = cl.AbortBufferedRecords(context.Background())
	}

	tally.mu.Lock()
	defer tally.mu.Unlock()
	res := &Result{
		Client:            "franz-go " + FranzVersion(),
		Sent:              sent,
		Acked:             tally.acked,
		Failed:            tally.failed,
		Errors:            tally.errs,
		Elapsed:           elapsed,
		Latency:           tally.hist,
		LatencyIntended:   tally.intended,
		UncompressedBytes: hooks.uncompressed.Load(),
		CompressedBytes:   hooks.compressed.Load(),
		Batches:           hooks.batches.Load(),
		ProduceRequests:   hooks.requests.Load(),
		Effective:         franzEffective(cl, s),
		Metrics:           map[string]float64{},
		Acks:              tally.acks,
	}
	if res.Batches > 0 {
		res.Metrics["batch-size-avg"] = float64(res.CompressedBytes) / float64(res.Batches)
		res.Metrics["records-per-batch-avg"] = float64(res.Acked) / float64(res.Batches)
	}
	if s.txnID != "" {
		res.Metrics["transaction-commits"] = float64(commits)
	}
	if flushErr != nil {
		return res, fmt.Errorf("trial did not finish within %s: %d of %d records acknowledged: %w", t.Timeout, res.Acked, t.Records, flushErr)
	}
	return res, nil
}

// franzRecord is the record prodlab hands to kgo plus what the promise
// needs: one allocation per record, no per-record context.
type franzRecord struct {
	kgo.Record // first field: a *kgo.Record of a franzRecord is its address
	seq        int64
	handoff    time.Time // monotonic hand-off time
	intended   time.Time // rate-limited trials: when the record was due
	hdr        []byte    // the audit header's value, reused
}

// reset clears a finished record for reuse, keeping its buffers.
func (r *franzRecord) reset() {
	value, headers, hdr := r.Value[:0], r.Headers[:0], r.hdr[:0]
	*r = franzRecord{hdr: hdr}
	r.Value, r.Headers = value, headers
}

// fromKgo recovers the franzRecord of a record prodlab produced. kgo hands
// the promise the pointer it was given, &franzRecord.Record, which is the
// franzRecord's own address since Record is its first field.
func fromKgo(r *kgo.Record) *franzRecord {
	return (*franzRecord)(unsafe.Pointer(r))
}

// commitTxn flushes and commits the open transaction and begins the next.
func commitTxn(ctx context.Context, cl *kgo.Client) error {
	if err := cl.Flush(ctx); err != nil {
		return fmt.Errorf("flush before commit: %w", err)
	}
	if err := cl.EndTransaction(ctx, kgo.TryCommit); err != nil {
		return fmt.Errorf("commit transaction: %w", err)
	}
	if err := cl.BeginTransaction(); err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	return nil
}
