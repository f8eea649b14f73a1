// Command kgoloop is the bench's baseline for prodlab's franz-go driver: a
// bare asynchronous franz-go produce loop with the settings the bench gives
// prodlab (acks=all, idempotent as kgo defaults, linger 5 ms, 64 KiB
// batches, no compression), N records of S random A–Z bytes to an existing
// topic, the first W of them a warm-up in the same stream (the printed
// figures are the rest's). Like prodlab, it loads metadata before the clock starts and stops
// the clock when Flush returns. It prints one line:
//
//	N records sent, X records/sec (Y MB/sec), Z s elapsed, F failed
//
// With -latency it also takes each record's latency, the least a
// latency-measuring loop (prodlab, kafka-producer-perf-test) must do: the
// send time as the record's timestamp, read back in its promise (summed,
// printed as a mean; kgo truncates a timestamp to the millisecond, so the
// mean is to the millisecond too). bench/cost.sh sets prodlab against both variants, to
// show prodlab's own work apart from taking a latency at all.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/bench/letters"
)

func main() {
	bootstrap := flag.String("bootstrap", "127.0.0.1:9092", "bootstrap servers")
	topic := flag.String("topic", "", "topic to produce to (must exist)")
	records := flag.Int64("records", 1_000_000, "records to produce, warm-up included")
	warmup := flag.Int64("warmup-records", 0, "records before the measured ones (in the same stream, no flush between); the line counts the measured ones")
	size := flag.Int("record-size", 1024, "value size in bytes")
	timeout := flag.Duration("timeout", 30*time.Minute, "bound on the whole run")
	latency := flag.Bool("latency", false, "take each record's send-to-promise latency, as a latency-measuring loop must")
	flag.Parse()
	if *topic == "" || *records <= 0 || *size <= 0 || *warmup < 0 || *warmup >= *records {
		fmt.Fprintln(os.Stderr, "kgoloop: -topic, -records > -warmup-records ≥ 0 and -record-size > 0 are required")
		os.Exit(2)
	}
	if err := produce(*bootstrap, *topic, *records, *warmup, *size, *timeout, *latency); err != nil {
		fmt.Fprintln(os.Stderr, "kgoloop:", err)
		os.Exit(1)
	}
}

func produce(bootstrap, topic string, records, warmup int64, size int, timeout time.Duration, latency bool) error {
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(strings.Split(bootstrap, ",")...),
		kgo.DefaultProduceTopic(topic),
		kgo.RequiredAcks(kgo.AllISRAcks()),
		kgo.ProducerLinger(5*time.Millisecond),
		kgo.ProducerBatchMaxBytes(64<<10),
		kgo.ProducerBatchCompression(kgo.NoCompression()),
	)
	if err != nil {
		return err
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := cl.Ping(ctx); err != nil {
		return fmt.Errorf("connect: %w", err)
	}

	// Values like prodlab's own: random A–Z letters, each record its own
	// window of a 16 MiB pool, drawn here (a baseline shares no code with
	// prodlab). A pool small enough to stay in the CPU's cache would make
	// the bare loop's copies cheaper than any honest payload's.
	values := letters.Windows(size)
	var failed atomic.Int64
	var latUs atomic.Int64
	promise := func(r *kgo.Record, err error) {
		if err != nil { // warm-up or measured: any failure fails the run
			failed.Add(1)
		}
		if latency {
			latUs.Add(time.Since(r.Timestamp).Microseconds())
		}
	}
	var start time.Time
	for i := int64(0); i < records && ctx.Err() == nil; i++ {
		if i == warmup {
			start = time.Now()
		}
		r := &kgo.Record{Value: values(i)}
		if latency {
			// kgo keeps a timestamp it is given, truncated to the millisecond
			// (which drops the monotonic reading): the mean printed is the wall
			// clock's, to the millisecond. What is measured is the cost, one
			// clock read a record at each end, as prodlab reads it.
			r.Timestamp = time.Now()
		}
		cl.Produce(ctx, r, promise)
	}
	if err := cl.Flush(ctx); err != nil {
		return fmt.Errorf("flush: %w", err)
	}
	elapsed := time.Since(start)
	acked := records - warmup - failed.Load()
	fmt.Printf("%d records sent, %f records/sec (%.2f MB/sec), %.3f s elapsed, %d failed\n",
		acked, float64(acked)/elapsed.Seconds(), float64(acked)*float64(size)/elapsed.Seconds()/(1<<20),
		elapsed.Seconds(), failed.Load())
	if latency {
		fmt.Printf("mean latency %.0f µs over every record, warm-up included\n", float64(latUs.Load())/float64(records))
	}
	if failed.Load() > 0 {
		return fmt.Errorf("%d records failed", failed.Load())
	}
	return nil
}
