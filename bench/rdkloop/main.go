//go:build librdkafka

// Command rdkloop is the bench's baseline for prodlab's librdkafka worker:
// a bare asynchronous confluent-kafka-go produce loop (the same bundled
// librdkafka) with the settings the bench gives prodlab, N records of S
// random A–Z bytes to an existing topic, after W warm-up records through
// the same producer. Like prodlab, it loads metadata before the clock
// starts, blocks a hand-off while librdkafka's queue is full, and stops
// the clock when every delivery report is in. It prints kgoloop's line for
// the records after the warm-up:
//
//	N records sent, X records/sec (Y MB/sec), Z s elapsed, F failed
//
// With -opaque it also does the least a loop must do to know which record
// each delivery report is for, as any latency-measuring producer must
// (prodlab, kafka-producer-perf-test): each message carries an opaque (a
// record's send time, from a ring reused like prodlab's records), which
// confluent-kafka-go keeps in its per-message handle map until the report,
// and the report reads it back (summing latencies, which it prints as a
// mean). bench/cost.sh sets the two variants side by side to show what
// that correlation costs apart from prodlab's own work.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/prodlab/prodlab/bench/letters"
)

func main() {
	bootstrap := flag.String("bootstrap", "127.0.0.1:9092", "bootstrap servers")
	topic := flag.String("topic", "", "topic to produce to (must exist)")
	records := flag.Int64("records", 1_000_000, "records to produce, warm-up included")
	warmup := flag.Int64("warmup-records", 0, "records before the measured ones")
	size := flag.Int("record-size", 1024, "value size in bytes")
	props := flag.String("props", "acks=all,linger.ms=5,batch.size=65536,enable.idempotence=true", "librdkafka properties, k=v,…")
	timeout := flag.Duration("timeout", 30*time.Minute, "bound on the whole run")
	opaque := flag.Bool("opaque", false, "carry each record's send time as the message's opaque and read it back in its delivery report")
	flag.Parse()
	if *topic == "" || *records <= 0 || *size <= 0 || *warmup < 0 || *warmup >= *records {
		fmt.Fprintln(os.Stderr, "rdkloop: -topic, -records > -warmup-records ≥ 0 and -record-size > 0 are required")
		os.Exit(2)
	}
	if err := produce(*bootstrap, *topic, *props, *records, *warmup, *size, *timeout, *opaque); err != nil {
		fmt.Fprintln(os.Stderr, "rdkloop:", err)
		os.Exit(1)
	}
}

// sent is a record's send time, carried as its message's opaque with -opaque.
type sent struct{ at time.Time }

// reports counts what the delivery reports say, read on their own goroutine.
type reports struct{ failed, done, latUs atomic.Int64 }

// read counts every delivery report of p until its events channel closes.
func (r *reports) read(p *kafka.Producer) {
	for ev := range p.Events() {
		if m, ok := ev.(*kafka.Message); ok {
			if m.TopicPartition.Error != nil {
				r.failed.Add(1)
			}
			if s, ok := m.Opaque.(*sent); ok {
				r.latUs.Add(time.Since(s.at).Microseconds())
			}
			r.done.Add(1)
		}
	}
}

func produce(bootstrap, topic, props string, records, warmup int64, size int, timeout time.Duration, opaque bool) error {
	p, err := connect(bootstrap, topic, props)
	if err != nil {
		return err
	}
	defer p.Close()
	var rep reports
	go rep.read(p)
	// The ring outlasts the records not yet reported: at most
	// queue.buffering.max.messages in librdkafka's queue (100,000 by
	// default) and go.events.channel.size reports waiting in
	// confluent-kafka-go's channel (1,000,000).
	var ring []sent
	if opaque {
		ring = make([]sent, min(records, 1<<21))
	}
	// Values like prodlab's own: random A–Z letters, each record its own
	// window of a 16 MiB pool, drawn here (a baseline shares no code with
	// prodlab). A pool small enough to stay in the CPU's cache would make
	// the bare loop's copies cheaper than any honest payload's.
	values := letters.Windows(size)
	deadline := time.Now().Add(timeout)
	var start time.Time
	for i := int64(0); i < records && time.Now().Before(deadline); i++ {
		if i == warmup {
			start = time.Now()
		}
		m := &kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny}, Value: values(i)}
		if opaque {
			s := &ring[i%int64(len(ring))]
			s.at = time.Now()
			m.Opaque = s
		}
		if err := handOver(p, m); err != nil {
			return err
		}
	}
	for rep.done.Load() < records && time.Now().Before(deadline) {
		p.Flush(100)
	}
	return rep.print(records, warmup, size, time.Since(start), opaque)
}

// connect builds the producer from props (k=v,…) and loads the topic's
// metadata before the clock starts, as prodlab does.
func connect(bootstrap, topic, props string) (*kafka.Producer, error) {
	cm := kafka.ConfigMap{"bootstrap.servers": bootstrap, "go.delivery.report.fields": "none"}
	for _, kv := range strings.Split(props, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("property %q is not k=v", kv)
		}
		cm[k] = v
	}
	p, err := kafka.NewProducer(&cm)
	if err != nil {
		return nil, err
	}
	if _, err := p.GetMetadata(&topic, false, 10000); err != nil {
		p.Close()
		return nil, fmt.Errorf("connect: %w", err)
	}
	return p, nil
}

// handOver produces m, waiting while librdkafka's queue is full, as a full
// buffer blocks prodlab's hand-off.
func handOver(p *kafka.Producer, m *kafka.Message) error {
	for {
		err := p.Produce(m, nil)
		if err == nil {
			return nil
		}
		var ke kafka.Error
		if !errors.As(err, &ke) || ke.Code() != kafka.ErrQueueFull {
			return err
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// print writes kgoloop's line for the measured records (and, with -opaque,
// the mean latency); failed records are an error.
func (r *reports) print(records, warmup int64, size int, elapsed time.Duration, opaque bool) error {
	acked := records - warmup - r.failed.Load()
	fmt.Printf("%d records sent, %f records/sec (%.2f MB/sec), %.3f s elapsed, %d failed\n",
		acked, float64(acked)/elapsed.Seconds(), float64(acked)*float64(size)/elapsed.Seconds()/(1<<20),
		elapsed.Seconds(), r.failed.Load())
	if opaque {
		fmt.Printf("mean latency %.0f µs over every record, warm-up included\n", float64(r.latUs.Load())/float64(records))
	}
	if r.failed.Load() > 0 {
		return fmt.Errorf("%d records failed", r.failed.Load())
	}
	return nil
}
