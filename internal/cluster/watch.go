package cluster

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// exitTailLines is how many lines of its log a BrokerExitError carries.
const exitTailLines = 20

// BrokerExitError says an embedded broker's process exited although prodlab
// did not ask it to (not by Kill, Shutdown or Stop): it crashed, ran out of
// disk or memory, or something outside prodlab killed it.
type BrokerExitError struct {
	ID     int    // node id
	PID    int    // the process that exited
	Status string // its exit status, e.g. "exit status 1" or "signal: killed"
	Log    string // path of its broker log
	Tail   string // the last exitTailLines lines of that log
}

func (e *BrokerExitError) Error() string {
	return fmt.Sprintf("broker %d (pid %d) exited unexpectedly (%s); last lines of %s:\n%s",
		e.ID, e.PID, e.Status, e.Log, indent(e.Tail))
}

// exitWatch records the first unexpected broker exit since the cluster
// started or since RestartExited brought the brokers back.
type exitWatch struct {
	mu   sync.Mutex
	ch   chan struct{}    // closed at the first unexpected exit
	err  *BrokerExitError // that exit
	ones []*node          // every node that exited unexpectedly
}

// arm forgets past exits and starts watching afresh.
func (w *exitWatch) arm() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ch, w.err, w.ones = make(chan struct{}), nil, nil
}

// exited records that node n exited with e; the first one closes ch.
func (w *exitWatch) exited(n *node, e *BrokerExitError) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ch == nil {
		return // not armed: the cluster is still starting
	}
	if !slices.Contains(w.ones, n) {
		w.ones = append(w.ones, n)
	}
	if w.err == nil {
		w.err = e
		close(w.ch)
	}
}

// current returns the channel closed at the next (or a past) unexpected
// exit, the first such exit, and the nodes that exited; ch is nil when the
// watch is not armed.
func (w *exitWatch) current() (ch chan struct{}, err *BrokerExitError, ones []*node) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ch, w.err, append([]*node(nil), w.ones...)
}

// watchNodes makes every node report its unexpected exits to the watch and
// arms it; Start calls it once the cluster is ready, so a node that dies
// while starting fails Start instead.
func (c *Cluster) watchNodes() {
	for _, n := range c.allNodes() {
		n.mu.Lock()
		n.onExit = func(e *BrokerExitError) { c.watch.exited(n, e) }
		n.mu.Unlock()
	}
	c.watch.arm()
}

// Exited returns the first broker exit prodlab did not ask for since the
// cluster became ready or since RestartExited, or nil when there was none
// (always nil for external and detached clusters' later processes).
func (c *Cluster) Exited() error {
	if _, err, _ := c.watch.current(); err != nil {
		return err
	}
	return nil
}

// Watch returns a context derived from ctx that is cancelled, with a
// *BrokerExitError as its cause (context.Cause), as soon as a broker exits
// without prodlab asking, or at once if one already has. Call stop to
// release it. On an external cluster it is only ctx with a cancel.
func (c *Cluster) Watch(ctx context.Context) (watched context.Context, stop context.CancelFunc) {
	ch, _, _ := c.watch.current()
	wctx, cancel := context.WithCancelCause(ctx)
	if ch == nil {
		return wctx, func() { cancel(nil) }
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
			_, err, _ := c.watch.current()
			cancel(err)
		case <-done:
		case <-wctx.Done():
		}
	}()
	var once sync.Once
	return wctx, func() {
		once.Do(func() { close(done) })
		cancel(nil)
	}
}

// RestartExited starts again, with their configuration, ports and data,
// every broker that exited without prodlab asking, waits until they are
// back in the metadata, and rearms the watch. With no such exit it does
// nothing.
func (c *Cluster) RestartExited(ctx context.Context) error {
	_, first, ones := c.watch.current()
	if first == nil {
		return nil
	}
	c.watch.arm()
	for _, n := range ones {
		// The exit is reported just before the process is marked gone.
		if !n.wait(10 * time.Second) {
			return fmt.Errorf("bring back broker %d: it still runs 10s after it was reported gone", n.spec.ID)
		}
		if err := c.Restart(ctx, n.spec.ID); err != nil {
			return fmt.Errorf("bring back broker %d after its unexpected exit: %w", n.spec.ID, err)
		}
	}
	return nil
}
