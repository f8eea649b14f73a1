package cluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Readiness polling: the first probe follows creation at once, then the
// pause doubles from servedPollMin up to servedPollMax. Every wait is
// bounded by the caller's context.
const (
	servedPollMin = 5 * time.Millisecond
	servedPollMax = 100 * time.Millisecond
)

// WaitTopicServed is prodlab's one readiness rule for a topic: it returns
// once every partition of topic has a leader that serves it, so a trial's
// clock does not include topic creation. partitions is the expected count,
// or 0 to accept any. It waits as long as ctx allows.
//
// Metadata naming a leader is not enough: the leader creates its log a
// moment later, and an idempotent Java producer that writes in that moment
// can see its first batch rejected while later ones land, then retry it
// into OutOfOrderSequenceException until delivery.timeout.ms (seen with
// kafka-clients 4.3.0 on fresh topics). Listing end offsets succeeds only
// once every leader has the partition.
//
// Each probe sends its own Metadata request instead of reading the client's
// metadata cache: a broker that had not heard of the new topic yet answers
// UNKNOWN_TOPIC_OR_PARTITION, and kadm's cached lookup kept serving that
// answer for the client's metadata minimum age (kgo's default, 5 s), which
// was the 5 s gap between trials on three brokers.
func WaitTopicServed(ctx context.Context, a *Admin, topic string, partitions int) error {
	pause := servedPollMin
	probes := 0
	for {
		probes++
		err := a.probeServed(ctx, topic, partitions)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return &NotServedError{Topic: topic, Probes: probes, Last: err, Err: ctx.Err()}
		case <-time.After(pause):
		}
		pause = min(2*pause, servedPollMax)
	}
}

// NotServedError is WaitTopicServed's error: the topic exists (or was
// asked for) but its partitions were not all served before ctx ended.
type NotServedError struct {
	Topic  string
	Probes int
	Last   error // the last probe's failure
	Err    error // ctx.Err()
}

func (e *NotServedError) Error() string {
	return fmt.Sprintf("topic %s: partitions not served by their leaders after %d probes (last: %v): %v", e.Topic, e.Probes, e.Last, e.Err)
}

func (e *NotServedError) Unwrap() error { return e.Err }

// probeServed checks once that topic has the expected partitions, each
// with a leader, and that every leader answers ListOffsets for it.
func (a *Admin) probeServed(ctx context.Context, topic string, partitions int) error {
	start := time.Now()
	req := kmsg.NewPtrMetadataRequest()
	rt := kmsg.NewMetadataRequestTopic()
	rt.Topic = kmsg.StringPtr(topic)
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, a.cl)
	if err == nil {
		err = ledAll(resp, topic, partitions)
	}
	a.step("metadata", topic, start, err)
	if err != nil {
		return err
	}
	start = time.Now()
	offs, err := a.adm.ListEndOffsets(ctx, topic)
	if err == nil {
		err = offs.Error()
	}
	if err == nil && len(offs[topic]) != len(resp.Topics[0].Partitions) {
		err = fmt.Errorf("end offsets listed for %d of %d partitions", len(offs[topic]), len(resp.Topics[0].Partitions))
	}
	a.step("listoffsets", topic, start, err)
	return err
}

// ledAll checks a Metadata response for one topic: present, without error,
// with the expected partition count (0: any) and a leader for each.
func ledAll(resp *kmsg.MetadataResponse, topic string, partitions int) error {
	if len(resp.Topics) != 1 {
		return fmt.Errorf("metadata answered %d topics for 1", len(resp.Topics))
	}
	t := resp.Topics[0]
	if err := kerr.ErrorForCode(t.ErrorCode); err != nil {
		return err
	}
	n := len(t.Partitions)
	switch {
	case n == 0:
		return errors.New("metadata lists no partitions yet")
	case partitions > 0 && n != partitions:
		return fmt.Errorf("metadata lists %d of %d partitions", n, partitions)
	}
	for _, p := range t.Partitions {
		if err := kerr.ErrorForCode(p.ErrorCode); err != nil {
			return fmt.Errorf("partition %d: %w", p.Partition, err)
		}
		if p.Leader < 0 {
			return fmt.Errorf("partition %d has no leader", p.Partition)
		}
	}
	return nil
}
