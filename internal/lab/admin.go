package lab

import (
	"context"

	"github.com/prodlab/prodlab/internal/cluster"
)

// admin is the lab's handle on its Target's cluster.Admin, the one admin
// helper; its methods keep the names the run loop, trials and faults call.
type admin struct {
	*cluster.Admin
}

// createTopic creates a fresh topic and returns once every partition's
// leader serves it (cluster.WaitTopicServed), so the trial's clock does not
// include topic creation.
func (a *admin) createTopic(ctx context.Context, topic string, partitions, rf int, configs map[string]string) error {
	return a.CreateTopic(ctx, topic, partitions, rf, configs)
}

// deleteTopic removes a trial's topic so disks do not fill up across a run.
func (a *admin) deleteTopic(ctx context.Context, topic string) error {
	return a.DeleteTopic(ctx, topic)
}

// diskBytes sums the on-disk size of a topic counting one replica per
// partition (the largest, which is the most complete).
func (a *admin) diskBytes(ctx context.Context, topic string, partitions int) (int64, error) {
	return a.DiskBytes(ctx, topic, partitions)
}

// leader returns the id of the broker leading one partition of a topic.
func (a *admin) leader(ctx context.Context, topic string, partition int32) (int, error) {
	return a.Leader(ctx, topic, partition)
}
