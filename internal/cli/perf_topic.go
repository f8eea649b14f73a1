package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/prodlab/prodlab/internal/cluster"
)

// ensureTopic creates topic with the given partitions (replication factor:
// the broker's default) unless it exists, and waits until every partition
// is served by its leader (cluster.WaitTopicServed, bounded by
// cluster.TopicReadyTimeout), so the clock does not include topic creation.
// A cluster that needs credentials prodlab's admin client does not have
// (SASL, TLS) gets a warning instead: the producer may still create or find
// the topic.
func ensureTopic(ctx context.Context, bootstrap []string, topic string, partitions int, logw io.Writer) error {
	adm, err := cluster.NewAdmin(bootstrap)
	if err != nil {
		return err
	}
	defer adm.Close()

	err = adm.CreateTopic(ctx, topic, partitions, -1, nil)
	var notServed *cluster.NotServedError
	switch {
	case errors.Is(err, kerr.TopicAlreadyExists):
		return adm.WaitServed(ctx, topic, 0)
	case err == nil, errors.As(err, &notServed):
		fmt.Fprintf(logw, "prodlab perf: created topic %s with %d partition(s)\n", topic, partitions)
		return err
	default:
		fmt.Fprintf(logw, "prodlab perf: could not create topic %s (%v); producing anyway\n", topic, err)
		return nil
	}
}
