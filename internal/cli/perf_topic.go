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

	"github.com/prodlab/prodlab/internal/cluster"
)

// topicReadyTimeout bounds the wait for a created topic's leaders.
const topicReadyTimeout = 30 * time.Second

// ensureTopic creates topic with the given partitions (replication factor:
// the broker's default) unless it exists, and waits until every partition
// is served by its leader (cluster.WaitTopicServed), so the clock does not
// include topic creation. A cluster
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
	return cluster.WaitTopicServed(ctx, adm, topic, 0)
}
