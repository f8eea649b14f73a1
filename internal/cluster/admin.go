package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TopicReadyTimeout bounds CreateTopic (creation and the wait until the
// topic is served) and WaitServed when ctx has no earlier deadline.
const TopicReadyTimeout = 30 * time.Second

// adminMetadataMinAge is how old the admin client's cached metadata may be
// before a request that needs it (ListOffsets, the readiness probe) refreshes
// it. kgo's default is 5 s, which made every lookup of a fresh topic that a
// broker did not know yet wait those 5 s; the admin client issues a handful
// of requests per trial, so refreshing often costs nothing.
const adminMetadataMinAge = 10 * time.Millisecond

// The admin client's backoff between retries of one request: doubling from
// retryBackoffMin up to retryBackoffMax.
const (
	retryBackoffMin = 10 * time.Millisecond
	retryBackoffMax = 200 * time.Millisecond
)

// TraceAdminEnv names the environment variable that, set to 1, makes every
// Admin log the duration of each admin step to stderr.
const TraceAdminEnv = "PRODLAB_TRACE_ADMIN"

// Admin is prodlab's one admin client: every command that creates, readies,
// sizes or deletes topics goes through it, so all of them apply the same
// readiness rule (WaitTopicServed).
type Admin struct {
	cl    *kgo.Client
	adm   *kadm.Client
	trace io.Writer
	mu    sync.Mutex // serialises trace lines
}

// NewAdmin returns an admin client for the cluster at bootstrap. opts are
// added to the client's own (credentials, TLS, dialer).
func NewAdmin(bootstrap []string, opts ...kgo.Opt) (*Admin, error) {
	if len(bootstrap) == 0 {
		return nil, errors.New("admin client: no bootstrap addresses")
	}
	base := []kgo.Opt{
		kgo.SeedBrokers(bootstrap...),
		kgo.MetadataMinAge(adminMetadataMinAge),
		// A short, bounded backoff between retries of one request (kgo's
		// default is 250 ms growing to 5 s); every wait is also bounded
		// by the caller's context.
		kgo.RetryBackoffFn(func(tries int) time.Duration {
			return min(retryBackoffMin<<max(tries-1, 0), retryBackoffMax)
		}),
	}
	cl, err := kgo.NewClient(append(base, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("admin client for %s: %w", strings.Join(bootstrap, ","), err)
	}
	a := &Admin{cl: cl, adm: kadm.NewClient(cl)}
	if os.Getenv(TraceAdminEnv) == "1" {
		a.trace = os.Stderr
	}
	return a, nil
}

// Close closes the client.
func (a *Admin) Close() { a.cl.Close() }

// Kadm is the underlying kadm client, for requests Admin does not wrap.
func (a *Admin) Kadm() *kadm.Client { return a.adm }

// step logs how long one admin step took, when tracing.
func (a *Admin) step(name, topic string, start time.Time, err error) {
	if a.trace == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	status := "ok"
	if err != nil {
		status = "error: " + err.Error()
	}
	fmt.Fprintf(a.trace, "prodlab admin: %s %-11s %-40s %8.1f ms  %s\n", start.UTC().Format("15:04:05.000"), name, topic, float64(time.Since(start).Microseconds())/1000, status)
}

// CreateTopic creates topic with the given partitions and replication
// factor (-1: the broker's default) and configs, and returns once every
// partition is served by its leader (WaitTopicServed), so a measurement
// started afterwards does not include topic creation. The wait is bounded
// by ctx and TopicReadyTimeout; a topic created but not served in time is a
// *NotServedError. A topic that already exists is an error wrapping
// kerr.TopicAlreadyExists; call WaitServed to use it anyway.
func (a *Admin) CreateTopic(ctx context.Context, topic string, partitions, rf int, configs map[string]string) error {
	return a.createTopic(ctx, topic, partitions, configs, func(ctx context.Context, cfg map[string]*string) (int, error) {
		resp, err := a.adm.CreateTopic(ctx, int32(partitions), int16(rf), cfg, topic)
		if err == nil {
			err = resp.Err
		}
		return int(resp.NumPartitions), err
	})
}

// CreateTopicAssigned is CreateTopic with each partition's replicas given
// (replicas[p], the first its preferred leader) instead of Kafka's own
// placement.
func (a *Admin) CreateTopicAssigned(ctx context.Context, topic string, replicas [][]int, configs map[string]string) error {
	return a.createTopic(ctx, topic, len(replicas), configs, func(ctx context.Context, cfg map[string]*string) (int, error) {
		req := kmsg.NewPtrCreateTopicsRequest()
		req.TimeoutMillis = int32(TopicReadyTimeout / time.Millisecond)
		t := kmsg.NewCreateTopicsRequestTopic()
		t.Topic, t.NumPartitions, t.ReplicationFactor = topic, -1, -1
		for p, rs := range replicas {
			ra := kmsg.NewCreateTopicsRequestTopicReplicaAssignment()
			ra.Partition = int32(p)
			for _, r := range rs {
				ra.Replicas = append(ra.Replicas, int32(r))
			}
			t.ReplicaAssignment = append(t.ReplicaAssignment, ra)
		}
		for k, v := range cfg {
			c := kmsg.NewCreateTopicsRequestTopicConfig()
			c.Name, c.Value = k, v
			t.Configs = append(t.Configs, c)
		}
		req.Topics = append(req.Topics, t)
		resp, err := req.RequestWith(ctx, a.cl)
		if err != nil {
			return 0, err
		}
		if len(resp.Topics) != 1 {
			return 0, fmt.Errorf("%d topics in the response, want 1", len(resp.Topics))
		}
		err = kerr.ErrorForCode(resp.Topics[0].ErrorCode)
		if msg := resp.Topics[0].ErrorMessage; err != nil && msg != nil {
			err = fmt.Errorf("%w: %s", err, *msg)
		}
		return len(replicas), err
	})
}

// createTopic runs create with configs as Kafka's nullable strings, notes
// the step, and waits until the topic's partitions are served.
func (a *Admin) createTopic(ctx context.Context, topic string, partitions int, configs map[string]string, create func(context.Context, map[string]*string) (int, error)) error {
	ctx, cancel := context.WithTimeout(ctx, TopicReadyTimeout)
	defer cancel()
	var cfg map[string]*string
	if len(configs) > 0 {
		cfg = make(map[string]*string, len(configs))
		for k, v := range configs {
			cfg[k] = &v
		}
	}
	start := time.Now()
	n, err := create(ctx, cfg)
	a.step("create", topic, start, err)
	if err != nil {
		return fmt.Errorf("create topic %s: %w", topic, err)
	}
	if partitions <= 0 {
		partitions = n
	}
	return a.WaitServed(ctx, topic, partitions)
}

// WaitServed waits, at most TopicReadyTimeout, until every partition of
// topic is served by its leader (WaitTopicServed). partitions is the
// expected count, or 0 to accept any.
func (a *Admin) WaitServed(ctx context.Context, topic string, partitions int) error {
	ctx, cancel := context.WithTimeout(ctx, TopicReadyTimeout)
	defer cancel()
	start := time.Now()
	err := WaitTopicServed(ctx, a, topic, partitions)
	a.step("served", topic, start, err)
	return err
}

// DeleteTopic deletes topic.
func (a *Admin) DeleteTopic(ctx context.Context, topic string) error {
	start := time.Now()
	resp, err := a.adm.DeleteTopic(ctx, topic)
	if err == nil {
		err = resp.Err
	}
	a.step("delete", topic, start, err)
	if err != nil {
		return fmt.Errorf("delete topic %s: %w", topic, err)
	}
	return nil
}

// DiskBytes sums the on-disk size of a topic counting one replica per
// partition (the largest, which is the most complete).
func (a *Admin) DiskBytes(ctx context.Context, topic string, partitions int) (int64, error) {
	start := time.Now()
	var set kadm.TopicsSet
	for p := range partitions {
		set.Add(topic, int32(p))
	}
	all, err := a.adm.DescribeAllLogDirs(ctx, set)
	a.step("disk", topic, start, err)
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

// Leader returns the id of the broker leading one partition of a topic.
func (a *Admin) Leader(ctx context.Context, topic string, partition int32) (int, error) {
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

// Features returns the cluster's finalized feature levels (ApiVersions'
// FinalizedFeatures: transaction.version, metadata.version, …) by name.
func (a *Admin) Features(ctx context.Context) (map[string]int16, error) {
	resp, err := kmsg.NewPtrApiVersionsRequest().RequestWith(ctx, a.cl)
	if err != nil {
		return nil, fmt.Errorf("api versions: %w", err)
	}
	if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
		return nil, fmt.Errorf("api versions: %w", err)
	}
	out := make(map[string]int16, len(resp.FinalizedFeatures))
	for _, f := range resp.FinalizedFeatures {
		out[f.Name] = f.MaxVersionLevel
	}
	return out, nil
}
