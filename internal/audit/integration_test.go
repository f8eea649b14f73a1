package audit

import (
	"context"
	"errors"
	"regexp"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/cluster"
)

// Integration scenario: 5,000 sequence numbers over 3 partitions, of which
// seq 7 is never written but reported acked (a loss), seq 8 is written but
// reported failed (a phantom), seqs 100 and 2000 are written twice (2
// duplicates), plus 3 foreign records.
const (
	itSent       = 5000
	itPartitions = 3
)

var itWant = Result{Acked: itSent - 1, Lost: 1, Duplicates: 2, Phantom: 1, Foreign: 3, Read: itSent - 1 + 2 + 3}

// TestReadBackIntegration produces the scenario above to a real one-broker
// cluster with kgo, reads it back with both isolation levels and asserts
// exact counts, then stops the cluster in the middle of a read and asserts
// the "audit incomplete" error and the partial result.
func TestReadBackIntegration(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real Kafka broker; skipped with -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cl, err := cluster.Start(ctx, cluster.Config{Brokers: 1, Dir: t.TempDir()})
	if err != nil {
		t.Fatalf("starting cluster: %v", err)
	}
	t.Cleanup(func() {
		if err := cl.Stop(); err != nil {
			t.Errorf("stopping cluster: %v", err)
		}
	})
	const topic = "audit-it"
	out := produceScenario(ctx, t, cl.Bootstrap(), topic)

	for _, tc := range []struct {
		name string
		opts []Option
	}{
		// The default, read_uncommitted.
		{"read_uncommitted", nil},
		// Non-transactional records are all committed: same counts.
		{"read_committed", []Option{ReadCommitted()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewChecker(testTag, itSent, out)
			if err := ReadBack(ctx, cl.Bootstrap(), topic, c, tc.opts...); err != nil {
				t.Fatalf("ReadBack: %v", err)
			}
			if got := c.Result(); got != itWant {
				t.Errorf("Result() = %+v\nwant       %+v", got, itWant)
			}
		})
	}

	t.Run("cluster stops mid-read", func(t *testing.T) {
		// The first 1,000 first-sight records trigger a synchronous stop of
		// the cluster from inside Observe (via Outcome.Failed); small
		// fetches keep the rest of the topic out of the client's buffers.
		stopper := &stopAfter{Outcome: out, n: 1000, stop: func() { _ = cl.Stop() }}
		c := NewChecker(testTag, itSent, stopper)
		err := ReadBack(ctx, cl.Bootstrap(), topic, c, StallTimeout(3*time.Second),
			ClientOpts(kgo.FetchMaxBytes(1), kgo.FetchMaxPartitionBytes(1)))
		if err == nil {
			t.Fatal("ReadBack succeeded although the cluster stopped mid-read")
		}
		t.Logf("error: %v", err)
		re := regexp.MustCompile(`^audit incomplete: read [0-9,]+ of 5,004 records \((no partition|partitions [0-9,]+) complete(; [0-2] stopped at offset [0-9,]+)+\): no progress for 3s, cluster unreachable: .*connection refused`)
		if !re.MatchString(err.Error()) {
			t.Errorf("error text does not match %s", re)
		}
		var inc *IncompleteError
		if !errors.As(err, &inc) {
			t.Fatalf("error is %T, want *IncompleteError", err)
		}
		got := c.Result()
		if inc.Read >= inc.Total || got.Read < 1000 || got.Read >= itWant.Read || got.Lost <= 1 {
			t.Errorf("partial result %+v (read %d of %d offsets), want at least 1,000 read and the unread part lost", got, inc.Read, inc.Total)
		}
	})
}

// produceScenario creates topic and writes the integration scenario to it
// with kgo, in small synchronous batches so that reads can be interrupted
// between batches. It returns the Outcome the application saw.
func produceScenario(ctx context.Context, t *testing.T, bootstrap []string, topic string) *testOutcome {
	t.Helper()
	pc, err := kgo.NewClient(kgo.SeedBrokers(bootstrap...), kgo.DefaultProduceTopic(topic),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerLinger(0))
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	if _, err := kadm.NewClient(pc).CreateTopic(ctx, itPartitions, 1, nil, topic); err != nil {
		t.Fatalf("creating topic: %v", err)
	}

	out := newTestOutcome(itSent)
	rec := func(p int32, h []kgo.RecordHeader) *kgo.Record {
		return &kgo.Record{Partition: p, Value: []byte("v"), Headers: h}
	}
	var batch []*kgo.Record
	flush := func() {
		if err := pc.ProduceSync(ctx, batch...).FirstErr(); err != nil {
			t.Fatalf("producing: %v", err)
		}
		batch = batch[:0]
	}
	for seq := range int64(itSent) {
		if seq == 7 { // never written, reported acked: lost
			out.ack(seq)
			continue
		}
		batch = append(batch, rec(int32(seq%itPartitions), own(0, seq).h))
		if seq == 8 { // written, reported failed: phantom
			out.fail(seq)
		} else {
			out.ack(seq)
		}
		if len(batch) == 10 {
			flush()
		}
	}
	batch = append(batch,
		rec(100%itPartitions, own(0, 100).h),     // duplicate, same partition
		rec(0, own(0, 2000).h),                   // duplicate, another partition
		rec(1, nil),                              // foreign: no header
		rec(2, tagged(0, "other-run", 1).h),      // foreign: another run
		rec(0, raw(0, "not a prodlab header").h), // foreign: garbage
	)
	flush()
	return out
}

// stopAfter is an Outcome that calls stop once, synchronously, when Failed
// has been asked about n sequence numbers, i.e. after n first sightings.
type stopAfter struct {
	Outcome
	n    int
	seen int
	stop func()
}

func (s *stopAfter) Failed(seq int64) bool {
	s.seen++
	if s.seen == s.n {
		s.stop()
	}
	return s.Outcome.Failed(seq)
}
