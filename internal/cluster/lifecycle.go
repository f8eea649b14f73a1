package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"
)

// node returns the node with the given id of an embedded cluster.
func (c *Cluster) node(id int) (*node, error) {
	if c.external {
		return nil, errExternal
	}
	if id < 1 || id > len(c.nodes) {
		return nil, fmt.Errorf("broker %d: no such broker, want 1 to %d", id, len(c.nodes))
	}
	return c.nodes[id-1], nil
}

// Describe says how broker id's process stands (running, or not) with the
// last lines of its log: what an error about reaching the broker should
// carry, so that its cause is in the message and not only in a log that
// a failed test removes.
func (c *Cluster) Describe(id int) string {
	n, err := c.node(id)
	if err != nil {
		return err.Error()
	}
	pid, _ := n.state()
	state := "not running"
	if n.running() {
		state = "running"
	}
	return fmt.Sprintf("broker %d (pid %d) is %s; last lines of %s:\n%s", id, pid, state, n.logPath, indent(n.logTail()))
}

// Stop stops every broker: SIGTERM, up to Config.StopGrace for a clean exit
// (and raftShutdownWait more for a quorum's voters, stopGrace), then
// SIGKILL. Each broker leaves the proc registry as it exits. Stopping an
// external cluster does nothing. Stop is idempotent.
func (c *Cluster) Stop() error {
	if c.external {
		return nil
	}
	c.stopOnce.Do(func() {
		// Brokers before separate controllers: a broker's clean shutdown
		// asks the controller quorum to move its leaderships away. A node
		// that votes in a quorum of several stops last of its quorum when
		// all stop at once, and waits for a leader (raftShutdownWait).
		c.stopErr = errors.Join(stopNodes(c.nodes, c.stopGrace(c.nodes)), stopNodes(c.controllers, c.stopGrace(c.controllers)))
		// Data in memory is released even when kept data was asked for.
		c.stopErr = errors.Join(c.stopErr, c.removeDataRoot())
		if !c.cfg.Detached {
			for _, n := range c.allNodes() {
				c.stopErr = errors.Join(c.stopErr, n.redactConfig())
			}
		}
	})
	return c.stopErr
}

// raftShutdownWait is what a quorum of several voters adds to a stop of
// the whole cluster, separate controllers or combined nodes alike: the
// leader, once its followers are gone, waits out the raft client's
// graceful shutdown (RaftIoThread's client.shutdown(5000) in Kafka's
// KafkaRaftManager) for a new leader that cannot be elected. Measured on
// separate controllers: the leader stopped in 5.2 s, its follower in
// 0.3 s, on a quiet machine; beside two CPU hogs past 10 s
// (bench/RESULTS.md §62), and so did a node of three combined ones (§64).
const raftShutdownWait = 5 * time.Second

// stopGrace is how long Stop waits for nodes after SIGTERM: the stop
// grace, and raftShutdownWait on top when they hold voters of a quorum of
// more than one.
func (c *Cluster) stopGrace(nodes []*node) time.Duration {
	voters := 0
	for _, n := range c.allNodes() {
		if n.spec.isController() {
			voters++
		}
	}
	if voters > 1 && slices.ContainsFunc(nodes, func(n *node) bool { return n.spec.isController() }) {
		return c.cfg.StopGrace + raftShutdownWait
	}
	return c.cfg.StopGrace
}

// stopNodes stops nodes in parallel (see node.stop).
func stopNodes(nodes []*node, grace time.Duration) error {
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = n.stop(grace)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Kill SIGKILLs broker id and waits for it to die.
func (c *Cluster) Kill(id int) error {
	n, err := c.node(id)
	if err != nil {
		return err
	}
	if err := n.signal(syscall.SIGKILL); err != nil {
		return fmt.Errorf("kill broker: %w", err)
	}
	if !n.wait(10 * time.Second) {
		return fmt.Errorf("kill broker %d: still running 10s after SIGKILL", id)
	}
	return nil
}

// Shutdown stops broker id cleanly with SIGTERM and waits for it to exit,
// up to Config.StopGrace, after which it is killed and an error returned.
func (c *Cluster) Shutdown(id int) error {
	n, err := c.node(id)
	if err != nil {
		return err
	}
	if !n.running() {
		return fmt.Errorf("shut down broker %d: not running", id)
	}
	if err := n.stop(c.cfg.StopGrace); err != nil {
		return fmt.Errorf("shut down broker: %w", err)
	}
	return nil
}

// Restart starts a killed or stopped broker again, with the same
// configuration, ports and data, and waits until it is back in the metadata
// alongside every other running broker.
func (c *Cluster) Restart(ctx context.Context, id int) error {
	n, err := c.node(id)
	if err != nil {
		return err
	}
	if n.running() {
		return fmt.Errorf("restart broker %d: still running; Kill or Shutdown it first", id)
	}
	if err := n.start(c.java, c.dist, c.cds, c.cfg.Dir, c.cfg.Detached); err != nil {
		return fmt.Errorf("restart broker: %w", err)
	}
	var want []int
	for _, m := range c.nodes {
		if m.running() {
			want = append(want, m.spec.ID)
		}
	}
	if err := waitReady(ctx, c.cfg.ReadyTimeout, []*node{n}, want, c.clusterID, c.ClientOpts()...); err != nil {
		return fmt.Errorf("restart broker %d: %w", id, err)
	}
	return nil
}

// Pause freezes broker id with SIGSTOP: its connections stay open but it
// answers nothing, like a long GC pause or a hung host.
func (c *Cluster) Pause(id int) error {
	n, err := c.node(id)
	if err != nil {
		return err
	}
	if err := n.signal(syscall.SIGSTOP); err != nil {
		return fmt.Errorf("pause broker: %w", err)
	}
	return nil
}

// Resume continues broker id after Pause with SIGCONT.
func (c *Cluster) Resume(id int) error {
	n, err := c.node(id)
	if err != nil {
		return err
	}
	if err := n.signal(syscall.SIGCONT); err != nil {
		return fmt.Errorf("resume broker: %w", err)
	}
	return nil
}

// RemoveData deletes every embedded node's data directory (its topics'
// files and metadata), keeping the broker logs and configuration beside
// it. The cluster must be stopped; the lab calls it when a run ends, since
// every trial's topic was deleted and the rest is of no use. An external
// cluster has nothing to remove.
func (c *Cluster) RemoveData() error {
	var errs []error
	for _, n := range c.allNodes() {
		n.mu.Lock()
		running := n.pid > 0 && n.done != nil && !closed(n.done)
		n.mu.Unlock()
		if running {
			errs = append(errs, fmt.Errorf("remove data of node %d: it is still running", n.spec.ID))
			continue
		}
		if err := os.RemoveAll(n.spec.DataDir); err != nil {
			errs = append(errs, fmt.Errorf("remove data of node %d: %w", n.spec.ID, err))
		}
	}
	return errors.Join(errs...)
}

// closed reports whether ch is closed.
func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
