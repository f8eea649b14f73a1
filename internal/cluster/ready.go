package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// readyPoll is the pause between readiness probes.
const readyPoll = 200 * time.Millisecond

// probe is one readiness check of one node: a Metadata request sent to that
// node's real listener (not to whichever broker the client prefers), which
// must list every expected broker.
type probe struct {
	node    *node
	client  *kgo.Client
	lastErr error
}

// waitReady waits until every node in check answers a Metadata request that
// names cluster clusterID and lists all of want (node ids), so each checked
// node is up, registered and unfenced, and sees the others. The cluster id
// tells a node from whatever else answers on its port: another test's
// broker, or a proxy in front of one, that bound the port in the moment
// between prodlab choosing it and the node binding it. It fails early when a checked node's
// process exits, and on timeout; both errors carry the tail of the failing
// node's log. opts reach a secured client listener (TLS, SASL).
func waitReady(ctx context.Context, timeout time.Duration, check []*node, want []int, clusterID string, opts ...kgo.Opt) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	probes := make([]*probe, len(check))
	for i, n := range check {
		cl, err := kgo.NewClient(append([]kgo.Opt{
			kgo.SeedBrokers(n.spec.Addr()),
			kgo.DialTimeout(time.Second),
			kgo.MetadataMinAge(10 * time.Millisecond),
		}, opts...)...)
		if err != nil {
			return fmt.Errorf("readiness client for node %d: %w", n.spec.ID, err)
		}
		defer cl.Close()
		probes[i] = &probe{node: n, client: cl, lastErr: errors.New("not probed yet")}
	}
	start := time.Now()
	for {
		pending := 0
		for _, p := range probes {
			if p.lastErr == nil {
				continue
			}
			if !p.node.running() {
				return fmt.Errorf("node %d exited while starting%s; last lines of %s:\n%s",
					p.node.spec.ID, p.node.firstErrors(), p.node.logPath, indent(p.node.logTail()))
			}
			p.lastErr = p.check(ctx, want, clusterID)
			if p.lastErr != nil {
				pending++
			}
		}
		if pending == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			for _, p := range probes {
				if p.lastErr != nil {
					return fmt.Errorf("node %d not ready after %v (%w); last lines of %s:\n%s",
						p.node.spec.ID, time.Since(start).Round(time.Millisecond), p.lastErr,
						p.node.logPath, indent(p.node.logTail()))
				}
			}
			return ctx.Err()
		case <-time.After(readyPoll):
		}
	}
}

// check sends one Metadata request to the probed node itself.
func (p *probe) check(ctx context.Context, want []int, clusterID string) error {
	seeds := p.client.SeedBrokers()
	if len(seeds) == 0 {
		return errors.New("no seed broker")
	}
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req := kmsg.NewPtrMetadataRequest()
	req.Topics = []kmsg.MetadataRequestTopic{} // no topics, brokers only
	resp, err := req.RequestWith(rctx, seeds[0])
	if err != nil {
		return fmt.Errorf("metadata request: %w", err)
	}
	if got := resp.ClusterID; got == nil || *got != clusterID {
		return fmt.Errorf("%s answers for cluster %s, not this one (%s): another program's broker holds the port", p.node.spec.Addr(), orNone(got), clusterID)
	}
	var got []int
	for _, b := range resp.Brokers {
		got = append(got, int(b.NodeID))
	}
	for _, id := range want {
		if !slices.Contains(got, id) {
			return fmt.Errorf("metadata lists brokers %v, waiting for %v", got, want)
		}
	}
	return nil
}

// orNone is *s, or "(none)" for nil.
func orNone(s *string) string {
	if s == nil {
		return "(none)"
	}
	return *s
}
