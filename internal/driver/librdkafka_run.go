//go:build librdkafka

package driver

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/prodlab/prodlab/internal/auditheader"
	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/keys"
	"github.com/prodlab/prodlab/internal/payload"
)

// rdStatsInterval is how often librdkafka reports its statistics, from
// which the batch and request counters come.
const rdStatsInterval = 500 * time.Millisecond

// rdRun is one librdkafka trial in progress: the producer, its side of the
// send loop, and the figures its events carry.
type rdRun struct {
	*sendLoop
	p         *kafka.Producer
	topic     string
	gen       payload.Generator
	keys      *keys.Sampler
	txn       *txnSchedule // nil unless transactional
	effective map[string]string
	pool      recycler[rdRecord] // records back from their delivery report
	next      *rdRecord
	events    sync.WaitGroup // the event reader
	// reported counts the records reported done (a delivery report, or
	// refused at the hand-off): flush waits for it to reach the records
	// handed over (outstanding).
	reported atomic.Int64
	stats    rdStats
	// headerBytes sums the header keys and values handed over, for the
	// uncompressed size (rdUncompressed).
	headerBytes int64
	// clientErr is the error event the client reported last, or the first
	// refusing one (a failed authentication, a TLS handshake): why a
	// connection does not come up.
	clientErr atomic.Pointer[kafka.Error]
}

// refusing are the client errors that no retry cures: ready stops at once
// on them (librdkafka itself retries them forever).
var refusing = map[kafka.ErrorCode]bool{
	kafka.ErrAuthentication:           true,
	kafka.ErrSaslAuthenticationFailed: true,
	kafka.ErrSsl:                      true,
}

// rdRecord is what a delivery report needs of a record, carried as the
// message's opaque.
type rdRecord struct {
	seq               int64
	handoff, intended time.Time
	value, key, hdr   []byte
	stamp             []byte
	// buf holds the value of a generator that writes it (payload.Fill);
	// value points into the generator's own bytes when it has them.
	buf []byte
	// msg and headers are handed to Produce, which copies what they point
	// to into librdkafka and keeps only the opaque: reused with the record,
	// so the produce loop allocates no message per record.
	msg     kafka.Message
	headers []kafka.Header
}

// newRdRun builds the producer for t, with its metadata loaded (as a
// long-lived producer would have it).
func newRdRun(ctx context.Context, t Trial) (*rdRun, error) {
	conf, err := LibrdkafkaConfig(t.Settings.Raw())
	if err != nil {
		return nil, err
	}
	// Checked before the trial (CheckLibrdkafka); librdkafka's own forms
	// (a fractional linger.ms) are not the typed view's, and not read here.
	settings := t.Settings.Producer
	eff, err := librdkafkaResolve(conf)
	if err != nil {
		return nil, fmt.Errorf("librdkafka refused the configuration: %w", err)
	}
	gen, ks, err := recordSource(t)
	if err != nil {
		return nil, err
	}
	cm := kafka.ConfigMap{
		"bootstrap.servers":         strings.Join(t.Bootstrap, ","),
		"statistics.interval.ms":    int(rdStatsInterval / time.Millisecond),
		"go.delivery.report.fields": "none", // the opaque says which record: no copy back
	}
	for k, v := range conf {
		cm[k] = v
	}
	p, err := kafka.NewProducer(&cm)
	if err != nil {
		return nil, fmt.Errorf("librdkafka refused the configuration: %w", err)
	}
	rr := &rdRun{p: p, topic: t.Topic, gen: gen, keys: ks, effective: librdkafkaEffective(eff)}
	rr.sendLoop = newSendLoop(t, nil)
	rr.events.Add(1)
	go rr.readEvents()
	if err := rr.ready(ctx); err != nil {
		rr.close()
		return nil, err
	}
	if err := rr.startTransactions(ctx, settings, t); err != nil {
		rr.close()
		return nil, err
	}
	return rr, nil
}

// startTransactions makes a producer with a transactional.id
// transactional: its id registered (InitTransactions), the first
// transaction begun and the schedule of its settings (conf, t's) kept.
func (rr *rdRun) startTransactions(ctx context.Context, conf kafkaconf.Producer, t Trial) error {
	if conf.TransactionalID == "" {
		return nil
	}
	if err := rr.p.InitTransactions(ctx); err != nil {
		return fmt.Errorf("init transactions: %w", err)
	}
	if err := rr.p.BeginTransaction(); err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	rr.txn = newTxnSchedule(conf, t.Seed, t.Tag)
	rr.tally.acks.SetTransactional()
	tx := conf.Transactions()
	rr.effective[kafkaconf.TransactionDurationMs] = strconv.FormatInt(tx.Every, 10)
	rr.effective[kafkaconf.TransactionRecords] = strconv.FormatInt(tx.Records, 10)
	rr.effective[kafkaconf.TransactionAbortRatio] = strconv.FormatFloat(tx.AbortRatio, 'g', -1, 64)
	return nil
}

// ready waits until the topic's metadata is loaded, the client reports an
// error no retry cures (refusing), or ctx ends; the error names the
// client's own reason when it gave one.
func (rr *rdRun) ready(ctx context.Context) error {
	var last error
	for ctx.Err() == nil {
		if ce := rr.clientErr.Load(); ce != nil && refusing[ce.Code()] {
			return fmt.Errorf("connect to %v: %v", rr.t.Bootstrap, *ce)
		}
		md, err := rr.p.GetMetadata(&rr.topic, false, 5000)
		if err == nil {
			if tm, ok := md.Topics[rr.topic]; ok && tm.Error.Code() == kafka.ErrNoError && len(tm.Partitions) > 0 {
				return nil
			} else if ok {
				err = tm.Error
			}
		}
		last = err
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
	if ce := rr.clientErr.Load(); ce != nil {
		last = fmt.Errorf("%v; the client reported: %v", last, *ce)
	}
	return fmt.Errorf("connect to %s: %v (%w)", rr.topic, last, ctx.Err())
}

// readEvents reads the producer's events until its channel closes:
// delivery reports, statistics and client errors.
func (rr *rdRun) readEvents() {
	defer rr.events.Done()
	for ev := range rr.p.Events() {
		switch e := ev.(type) {
		case *kafka.Message:
			r, ok := e.Opaque.(*rdRecord)
			if !ok {
				continue
			}
			var err error
			if e.TopicPartition.Error != nil {
				err = e.TopicPartition.Error
			}
			rr.sendLoop.done(r.seq, e.TopicPartition.Partition, len(r.value), r.handoff, r.intended, err)
			rr.reported.Add(1)
			rr.pool.give(r)
		case *kafka.Stats:
			rr.stats.add(e.String())
		case kafka.Error:
			// A refusing error outranks what follows from it ("1/1
			// brokers are down" after a failed authentication).
			if prev := rr.clientErr.Load(); prev == nil || !refusing[prev.Code()] {
				rr.clientErr.Store(&e)
			}
		}
	}
}

// prepare implements sender.
func (rr *rdRun) prepare(seq int64) {
	r := rr.pool.take()
	r.seq = seq
	r.value = payload.Fill(rr.gen, seq, &r.buf)
	if rr.keys != nil {
		r.key = rr.keys.Append(r.key[:0], seq)
	}
	if rr.t.Tag != "" {
		r.hdr = auditheader.Append(r.hdr[:0], rr.t.Tag, seq)
	}
	rr.next = r
}

// discard implements sender.
func (rr *rdRun) discard() {
	rr.pool.keep(rr.next)
	rr.next = nil
}

// beforeSend implements sender: a transactional producer ends its
// transaction when its schedule says so (txnSchedule).
func (rr *rdRun) beforeSend(ctx context.Context, now time.Time, seq int64) error {
	if rr.txn == nil || !rr.txn.due(now, seq) {
		return nil
	}
	return rr.txn.end(ctx, rr, seq, rr.tally.acks, false)
}

// flush implements txnClient: it waits until every record handed over is
// reported done by the driver's own event reader, or ctx ends. Each
// Flush(rdFlushSlice) makes librdkafka send what lingers (rd_kafka_flush)
// for about a millisecond; the wait is on the driver's count, not on Flush's
// return: Flush polls for events the event reader takes, so a longer slice
// sleeps out its whole length after the last report (it cost ~95 ms per
// transaction at 100 ms slices, bench/RESULTS.md §53).
func (rr *rdRun) flush(ctx context.Context) error {
	for rr.outstanding() > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		if rr.p.Flush(int(rdFlushSlice/time.Millisecond)) == 0 && rr.outstanding() > 0 {
			time.Sleep(rdFlushSpin) // the last reports are on their way to done
		}
	}
	return nil
}

// outstanding is how many records handed over are not yet reported done;
// called from the send loop's goroutine (it reads the hand-off counts).
func (rr *rdRun) outstanding() int64 {
	return rr.warmSent + rr.sent - rr.reported.Load()
}

// endTxn implements txnClient.
func (rr *rdRun) endTxn(ctx context.Context, commit bool) error {
	if commit {
		return rr.p.CommitTransaction(ctx)
	}
	return rr.p.AbortTransaction(ctx)
}

// commitRefused implements txnClient: librdkafka's word that the
// transaction must be aborted, or a fenced producer; a retriable error
// (a timeout) leaves the outcome unknown.
func (rr *rdRun) commitRefused(err error) bool {
	var ke kafka.Error
	return errors.As(err, &ke) && ke.TxnRequiresAbort() || rdFenced(err)
}

// beginTxn implements txnClient.
func (rr *rdRun) beginTxn() error { return rr.p.BeginTransaction() }

// send implements sender. librdkafka copies the value, key and headers
// (confluent-kafka-go produces with RD_KAFKA_MSG_F_COPY), so the buffers
// are the record's again once Produce returns. A full queue
// (queue.buffering.max.messages or .kbytes) blocks the hand-off, as a
// full buffer blocks the Java client's send.
func (rr *rdRun) send(ctx context.Context, now, intended time.Time, stamp bool) {
	r := rr.next
	rr.next = nil
	r.handoff, r.intended = now, intended
	r.headers = r.headers[:0]
	if rr.t.Tag != "" {
		r.headers = append(r.headers, kafka.Header{Key: auditheader.Key, Value: r.hdr})
		rr.headerBytes += int64(len(auditheader.Key) + len(r.hdr))
	}
	if stamp {
		r.stamp = stampValue(r.stamp, now)
		r.headers = append(r.headers, kafka.Header{Key: auditheader.TimeKey, Value: r.stamp})
		rr.headerBytes += int64(len(auditheader.TimeKey) + len(r.stamp))
	}
	m := &r.msg
	*m = kafka.Message{
		TopicPartition: kafka.TopicPartition{Topic: &rr.topic, Partition: kafka.PartitionAny},
		Value:          r.value,
		Headers:        r.headers,
		Opaque:         r,
	}
	if len(r.headers) == 0 {
		m.Headers = nil
	}
	if rr.keys != nil {
		m.Key = r.key
	}
	for {
		err := rr.p.Produce(m, nil)
		if err == nil {
			return
		}
		var ke kafka.Error
		if errors.As(err, &ke) && ke.Code() == kafka.ErrQueueFull && ctx.Err() == nil {
			time.Sleep(100 * time.Microsecond)
			continue
		}
		// Refused outright (record too large, context over): fail it as a
		// delivery report would.
		rr.sendLoop.done(r.seq, -1, len(r.value), now, intended, err)
		rr.reported.Add(1)
		rr.pool.keep(r) // the send loop's side: never reported
		return
	}
}

// rdFlushSlice is how long one Flush call of flush may wait: short, since
// flush waits on its own count between calls, but 2 ms, as Flush truncates
// the time left to whole milliseconds (at 1 ms it returns before it calls
// rd_kafka_flush, and what lingers stays). rdFlushSpin is flush's pause
// when the client's queue is empty but the event reader has not yet
// counted the last reports.
const (
	rdFlushSlice = 2 * time.Millisecond
	rdFlushSpin  = 50 * time.Microsecond
)

// finish waits until every record is acknowledged or failed (or ctx ends),
// ends a transactional producer's last transaction, stops the clock and
// waits for one more statistics report, which holds the final counters.
// err is a flush that did not finish; txnErr a last transaction that could
// not end (the caller abandons the run then).
func (rr *rdRun) finish(ctx context.Context) (err, txnErr error) {
	err = rr.flush(ctx)
	if err == nil && rr.txn != nil {
		if terr := rr.txn.end(ctx, rr, rr.warmSent+rr.sent, rr.tally.acks, true); terr != nil {
			return nil, terr
		}
	}
	if err != nil {
		// Fail what is still queued or in flight so the counts add up,
		// without waiting on a broker that is down.
		_ = rr.p.Purge(kafka.PurgeQueue | kafka.PurgeInFlight | kafka.PurgeNonBlocking)
		rr.p.Flush(int(abortWait / time.Millisecond))
	}
	rr.stopReports()
	rr.end = time.Now()
	rr.stopClock(time.Now())
	rr.stats.await(2 * rdStatsInterval)
	return err, nil
}

// abandon fails what is still queued or in flight (waiting at most
// abortWait) and stops the clock: the send loop ended on an error.
func (rr *rdRun) abandon() {
	_ = rr.p.Purge(kafka.PurgeQueue | kafka.PurgeInFlight | kafka.PurgeNonBlocking)
	rr.p.Flush(int(abortWait / time.Millisecond))
	rr.stopReports()
	rr.end = time.Now()
	rr.stopClock(rr.end)
}

// rdFenced reports whether err is librdkafka's word for a fenced
// producer: another registered its transactional.id.
func rdFenced(err error) bool {
	var ke kafka.Error
	if !errors.As(err, &ke) {
		return false
	}
	switch ke.Code() {
	case kafka.ErrFenced, kafka.ErrProducerFenced, kafka.ErrInvalidProducerEpoch, kafka.ErrInvalidTxnState: // as franzFenced
		return true
	}
	return false
}

// close closes the producer (failing what is still queued) and waits for
// its last events.
func (rr *rdRun) close() {
	rr.stopReports()
	rr.stopClock(time.Now())
	if rr.p != nil {
		_ = rr.p.Purge(kafka.PurgeQueue | kafka.PurgeInFlight | kafka.PurgeNonBlocking)
		rr.p.Flush(int(abortWait / time.Millisecond))
		rr.p.Close()
		rr.events.Wait()
		rr.p = nil
	}
}

// result assembles the trial's Result once every delivery report has run.
func (rr *rdRun) result() *Result {
	res := rr.sendLoop.result("librdkafka " + LibrdkafkaVersion())
	s := rr.stats.final()
	res.UncompressedBytes = rdUncompressed(s, rr.effective["compression.codec"], rr.headerBytes, res.Acked+res.WarmupAcked)
	res.CompressedBytes = s.compressed
	res.Batches = s.batches
	res.ProduceRequests = s.requests
	res.Effective = rr.effective
	batchMetrics(res)
	if rr.txn != nil {
		rr.txn.metrics(res.Metrics)
	}
	return res
}
