package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// topicReadyTimeout bounds the wait for a created topic's leaders.
const topicReadyTimeout = 30 * time.Second

// ensureTopic creates topic with the given partitions (replication factor:
// the broker's default) unless it exists, and waits until every partition
// has a leader, so the clock does not include topic creation. A cluster
// that needs credentials prodlab's admin client does not have (SASL, TLS)
// gets a warning instead: the producer may still create or find the topic.
func ensureTopic(ctx context.Context, bootstrap []string, topic string, partitions int, logw io.Writer) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap...))
	if err != nil {
		return fmt.Errorf("admin client for %v: %w", bootstrap, err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	ctx, cancel := context.WithTimeout(ctx, topicReadyTimeout)
	defer cancel()

	resp, err := adm.CreateTopic(ctx, int32(partitions), -1, nil, topic)
	if err == nil {
		err = resp.Err
	}
	switch {
	case errors.Is(err, kerr.TopicAlreadyExists):
	case err != nil:
		fmt.Fprintf(logw, "prodlab perf: could not create topic %s (%v); producing anyway\n", topic, err)
		return nil
	default:
		fmt.Fprintf(logw, "prodlab perf: created topic %s with %d partition(s)\n", topic, partitions)
	}
	for {
		md, err := adm.Metadata(ctx, topic)
		if err == nil {
			if td, ok := md.Topics[topic]; ok && td.Err == nil && len(td.Partitions) > 0 && allLeaders(td) {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("topic %s: partitions have no leader after %s", topic, topicReadyTimeout)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// allLeaders reports whether every partition of a topic has a leader.
func allLeaders(td kadm.TopicDetail) bool {
	for _, p := range td.Partitions {
		if p.Err != nil || p.Leader < 0 {
			return false
		}
	}
	return true
}
