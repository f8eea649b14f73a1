// Package e2e measures end-to-end latency: a consumer reads a trial's topic
// while the producers write it, and for every record that carries the
// hand-off time header (auditheader.TimeKey, written by both drivers when
// asked) records the time from the record's hand-off to its producer until
// the consumer has it, in an HdrHistogram in µs. Producers and consumer
// run on the same host, so both ends read the same clock. Beside it, the
// consumer's lag (records in the log not yet consumed: end offsets minus
// its positions) is sampled at a fixed interval, for the trial's timeline.
//
// The consumer is a direct franz-go client, like the audit's read-back:
// every partition of the topic from its start, no consumer group (a group
// would add a join and rebalances to what is measured). It reads as
// read_uncommitted or read_committed (Kafka's isolation.level): a
// read_committed consumer gets a transaction's records only once its
// commit marker is written, so its end-to-end latency includes the wait
// for the commit.
package e2e

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/auditheader"
)

// LagSample is the consumer's lag at one moment: records in the topic's
// log (end offsets, summed over partitions) that it had not consumed.
type LagSample struct {
	At  time.Time
	Lag int64
}

// Result is what the consumer measured.
type Result struct {
	// Latency is hand-off → consumed, in µs, of every stamped record read.
	Latency *hdrhistogram.Histogram
	// Consumed counts the stamped records read; Read every record.
	Consumed, Read int64
	// Lag holds one sample per interval, in time order.
	Lag []LagSample
	// CaughtUp is false when Stop gave up before the consumer reached the
	// end offsets it found when asked to stop.
	CaughtUp bool
}

// Consumer reads one topic in the background; Start it before the
// producers and Stop it after they flushed.
type Consumer struct {
	topic     string
	committed bool // read_committed
	cl        *kgo.Client
	adm       *kadm.Client
	stop      context.CancelFunc
	polls     sync.WaitGroup

	mu        sync.Mutex
	hist      *hdrhistogram.Histogram
	positions map[int32]int64 // next offset to consume, by partition
	consumed  int64
	read      int64
	lag       []LagSample
	pollErr   error
}

// catchUpLimit bounds how long Stop waits for the consumer to reach the
// end of the log.
const catchUpLimit = 30 * time.Second

// Start connects a consumer of topic (which must exist) through bootstrap,
// read_committed when readCommitted, with opts added to the client's (TLS,
// SASL: the cluster's connection options), and samples the lag every
// interval (at least 10 ms). Transaction markers are kept (and only
// advance the position): a partition's last offset may be one, and the
// consumer has caught up only once past it.
func Start(ctx context.Context, bootstrap []string, topic string, interval time.Duration, readCommitted bool, opts ...kgo.Opt) (*Consumer, error) {
	iso := kgo.ReadUncommitted()
	if readCommitted {
		iso = kgo.ReadCommitted()
	}
	all := append([]kgo.Opt{
		kgo.SeedBrokers(bootstrap...),
		kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchMaxWait(100 * time.Millisecond),
		kgo.FetchIsolationLevel(iso),
		kgo.KeepControlRecords(),
	}, opts...)
	cl, err := kgo.NewClient(all...)
	if err != nil {
		return nil, fmt.Errorf("end-to-end consumer: %w", err)
	}
	if err := cl.Ping(ctx); err != nil {
		cl.Close()
		return nil, fmt.Errorf("end-to-end consumer: connect to %v: %w", bootstrap, err)
	}
	c := &Consumer{topic: topic, committed: readCommitted, cl: cl, adm: kadm.NewClient(cl), hist: newHistogram(), positions: map[int32]int64{}}
	pctx, stop := context.WithCancel(context.Background())
	c.stop = stop
	c.polls.Add(2)
	go c.poll(pctx)
	go c.sample(pctx, max(interval, 10*time.Millisecond))
	return c, nil
}

// newHistogram is the latency histogram: 1 µs to 10 minutes, 3
// significant digits, as the drivers' send→ack histograms.
func newHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(1, int64(10*time.Minute/time.Microsecond), 3)
}

// poll consumes until ctx ends.
func (c *Consumer) poll(ctx context.Context) {
	defer c.polls.Done()
	for ctx.Err() == nil {
		fs := c.cl.PollFetches(ctx)
		now := time.Now().UnixMicro()
		c.mu.Lock()
		fs.EachError(func(_ string, _ int32, err error) {
			if !errors.Is(err, context.Canceled) && c.pollErr == nil {
				c.pollErr = err
			}
		})
		fs.EachRecord(func(r *kgo.Record) { c.observe(r, now) })
		c.mu.Unlock()
	}
}

// observe accounts for one record read at now (µs since the epoch). The
// caller holds mu.
func (c *Consumer) observe(r *kgo.Record, now int64) {
	c.positions[r.Partition] = r.Offset + 1
	if r.Attrs.IsControl() {
		return // a transaction marker: no record of the producer's
	}
	c.read++
	for _, h := range r.Headers {
		if h.Key != auditheader.TimeKey {
			continue
		}
		if t, ok := auditheader.ParseTime(h.Value); ok {
			_ = c.hist.RecordValue(max(now-t, 1))
			c.consumed++
		}
		return
	}
}

// sample records the lag every interval until ctx ends.
func (c *Consumer) sample(ctx context.Context, interval time.Duration) {
	defer c.polls.Done()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case at := <-tick.C:
			end, err := c.endOffsets(ctx)
			if err != nil {
				continue // a missed sample; the next tick tries again
			}
			c.mu.Lock()
			c.lag = append(c.lag, LagSample{At: at, Lag: c.behind(end)})
			c.mu.Unlock()
		}
	}
}

// endOffsets lists the topic's end offsets by partition: the high
// watermarks, or for read_committed the last stable offsets (what such a
// consumer can reach).
func (c *Consumer) endOffsets(ctx context.Context) (map[int32]int64, error) {
	lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	list := c.adm.ListEndOffsets
	if c.committed {
		list = c.adm.ListCommittedOffsets
	}
	offs, err := list(lctx, c.topic)
	if err != nil {
		return nil, fmt.Errorf("end-to-end consumer: list end offsets of %s: %w", c.topic, err)
	}
	end := map[int32]int64{}
	var firstErr error
	offs.Each(func(o kadm.ListedOffset) {
		if o.Err != nil && firstErr == nil {
			firstErr = o.Err
		}
		end[o.Partition] = o.Offset
	})
	if firstErr != nil {
		return nil, fmt.Errorf("end-to-end consumer: end offsets of %s: %w", c.topic, firstErr)
	}
	return end, nil
}

// behind is how many records of end the consumer has not consumed. The
// caller holds mu.
func (c *Consumer) behind(end map[int32]int64) int64 {
	var lag int64
	for p, e := range end {
		lag += max(e-c.positions[p], 0)
	}
	return lag
}

// Stop waits until the consumer has read up to the end offsets the topic
// has now (at most catchUpLimit, or until ctx ends), then stops it and
// returns what it measured. An error says why it did not catch up; the
// Result is valid either way.
func (c *Consumer) Stop(ctx context.Context) (Result, error) {
	err := c.catchUp(ctx)
	c.stop()
	c.polls.Wait()
	c.cl.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	res := Result{Latency: c.hist, Consumed: c.consumed, Read: c.read, Lag: c.lag, CaughtUp: err == nil}
	if err == nil && c.pollErr != nil {
		err = fmt.Errorf("end-to-end consumer: %w", c.pollErr)
	}
	return res, err
}

// catchUp waits until the consumer's positions reach the end offsets.
func (c *Consumer) catchUp(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, catchUpLimit)
	defer cancel()
	end, err := c.endOffsets(ctx)
	if err != nil {
		return err
	}
	for {
		c.mu.Lock()
		left := c.behind(end)
		c.mu.Unlock()
		if left == 0 {
			c.mu.Lock()
			c.lag = append(c.lag, LagSample{At: time.Now(), Lag: 0}) // caught up: the last sample
			c.mu.Unlock()
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("end-to-end consumer: %d records not consumed after %s: %w", left, catchUpLimit, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}
