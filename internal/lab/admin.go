package lab

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/cluster"
)

// admin wraps the few cluster operations the lab needs around each trial.
type admin struct {
	cl  *kgo.Client
	adm *kadm.Client
}

func newAdmin(bootstrap []string) (*admin, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap...))
	if err != nil {
		return nil, fmt.Errorf("admin client for %v: %w", bootstrap, err)
	}
	return &admin{cl: cl, adm: kadm.NewClient(cl)}, nil
}

func (a *admin) close() { a.cl.Close() }

// createTopic creates a fresh topic and waits until every partition's
// leader serves it (cluster.WaitTopicServed), so the trial's clock does not
// include topic creation.
func (a *admin) createTopic(ctx context.Context, topic string, partitions, rf int, configs map[string]string) error {
	cfg := make(map[string]*string, len(configs))
	for k, v := range configs {
		cfg[k] = &v
	}
	resp, err := a.adm.CreateTopic(ctx, int32(partitions), int16(rf), cfg, topic)
	if err == nil {
		err = resp.Err
	}
	if err != nil {
		return fmt.Errorf("create topic %s: %w", topic, err)
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return cluster.WaitTopicServed(wctx, a.adm, topic, partitions)
}

// deleteTopic removes a trial's topic so disks do not fill up across a run.
func (a *admin) deleteTopic(ctx context.Context, topic string) error {
	resp, err := a.adm.DeleteTopic(ctx, topic)
	if err == nil {
		err = resp.Err
	}
	if err != nil {
		return fmt.Errorf("delete topic %s: %w", topic, err)
	}
	return nil
}

// diskBytes sums the on-disk size of a topic counting one replica per
// partition (the largest, which is the most complete).
func (a *admin) diskBytes(ctx context.Context, topic string, partitions int) (int64, error) {
	var set kadm.TopicsSet
	for p := range partitions {
		set.Add(topic, int32(p))
	}
	all, err := a.adm.DescribeAllLogDirs(ctx, set)
	if err != nil {
		return 0, fmt.Errorf("describe log dirs for %s: %w", topic, err)
	}
	largest := map[int32]int64{}
	for _, dirs := range all {
		dirs.EachPartition(func(p kadm.DescribedLogDirPartition) {
			if p.Topic == topic && p.Size > largest[p.Partition] {
				largest[p.Partition] = p.Size
			}
		})
	}
	var sum int64
	for _, s := range largest {
		sum += s
	}
	return sum, nil
}

// leader returns the id of the broker leading one partition of a topic.
func (a *admin) leader(ctx context.Context, topic string, partition int32) (int, error) {
	md, err := a.adm.Metadata(ctx, topic)
	if err != nil {
		return 0, fmt.Errorf("metadata for %s: %w", topic, err)
	}
	td, ok := md.Topics[topic]
	if !ok || td.Err != nil {
		return 0, fmt.Errorf("topic %s not in metadata", topic)
	}
	p, ok := td.Partitions[partition]
	if !ok || p.Leader < 0 {
		return 0, fmt.Errorf("partition %s-%d has no leader", topic, partition)
	}
	return int(p.Leader), nil
}
