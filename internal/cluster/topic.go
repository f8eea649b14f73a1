package cluster

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
)

// WaitTopicServed waits until every partition of topic has a leader that
// serves it, so a trial's clock does not include topic creation. partitions
// is the expected count, or 0 to accept any.
//
// Metadata naming a leader is not enough: the leader creates its log a
// moment later, and an idempotent Java producer that writes in that moment
// can see its first batch rejected while later ones land, then retry it
// into OutOfOrderSequenceException until delivery.timeout.ms (seen with
// kafka-clients 4.3.0 on fresh topics). Listing end offsets succeeds only
// once every leader has the partition.
func WaitTopicServed(ctx context.Context, adm *kadm.Client, topic string, partitions int) error {
	for {
		md, err := adm.Metadata(ctx, topic)
		if err == nil {
			td, ok := md.Topics[topic]
			n := len(td.Partitions)
			if ok && td.Err == nil && n > 0 && (partitions == 0 || n == partitions) && allLed(td) {
				offs, err := adm.ListEndOffsets(ctx, topic)
				if err == nil && offs.Error() == nil && len(offs[topic]) == n {
					return nil
				}
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("topic %s: partitions not served by their leaders: %w", topic, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func allLed(td kadm.TopicDetail) bool {
	for _, p := range td.Partitions {
		if p.Err != nil || p.Leader < 0 {
			return false
		}
	}
	return true
}
