package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/trogdor"
)

// Trials on a Trogdor fleet (issue 14): each trial becomes one Trogdor task
// (ProduceTaskSpec) over the chosen agents, with one start time. The
// trial's producers are spread over the nodes (nodeTrials), each node runs
// its share with the Java worker's own trial runner inside the agent's JVM,
// and the nodes' results, read from the task's status, merge into one
// Result as a trial of many producers does (mergeResults): counts add,
// histograms merge, and each producer's figures stay in Result.Producers
// with its node's name.

// TrogdorTaskClass is the Java class of prodlab's trial task.
const TrogdorTaskClass = "dev.prodlab.worker.trogdor.ProduceTaskSpec"

const (
	// trogdorStartLead is how far ahead of its creation a task starts, so
	// that every agent has the task before its start time.
	trogdorStartLead = 500 * time.Millisecond
	// trogdorPoll is how often the coordinator is asked how the task goes.
	trogdorPoll = 250 * time.Millisecond
	// trogdorStopWait bounds the wait for a stopped task to end.
	trogdorStopWait = 15 * time.Second
)

// Trogdor runs trials on a Trogdor fleet's agents: with the kafka-clients
// of the agents (Release) in their own JVMs, or, for another client kind
// (ForClient), with that kind's worker as each node's ExternalCommandSpec
// task (trogdor_external.go).
type Trogdor struct {
	c     *trogdor.Client
	nodes []string
	// release is the agents' kafka-clients release (their trogdor's).
	release string
	seq     atomic.Int64
	// client is the kind run by an external worker; "" for the Java
	// client in the agents' JVMs.
	client string
	// commands are the external worker's command on each node.
	commands map[string][]string
	// cpu is the nodes' CPU time summed over every trial whose nodes all
	// reported theirs; cpuGap says the last trial's did not.
	cpu    atomic.Int64
	cpuGap atomic.Bool
}

// NewTrogdor is the driver of the fleet at c whose agents nodes (probed:
// every one answered) run kafka-clients release.
func NewTrogdor(c *trogdor.Client, nodes []string, release string) *Trogdor {
	return &Trogdor{c: c, nodes: append([]string(nil), nodes...), release: release}
}

// ForClient is the driver of the same fleet and nodes for client, a kind
// whose trials run as its worker's command on each node (commands, by
// node: clients.Kind.FleetWorker in the agent's worker directory).
func (d *Trogdor) ForClient(client string, commands map[string][]string) *Trogdor {
	return &Trogdor{c: d.c, nodes: d.nodes, release: d.release, client: client, commands: commands}
}

// Coordinator is the fleet's coordinator, for tasks other than trials.
func (d *Trogdor) Coordinator() *trogdor.Client { return d.c }

// Name is the agents' client, with the nodes it runs on.
func (d *Trogdor) Name() string {
	return d.Client() + " on trogdor " + strings.Join(d.nodes, ",")
}

// Client is the client the nodes run: java@RELEASE (the agents'), or the
// external worker's kind.
func (d *Trogdor) Client() string {
	if d.client != "" {
		return d.client
	}
	return clients.Java + "@" + d.release
}

// Release is the agents' kafka-clients release.
func (d *Trogdor) Release() string { return d.release }

// Nodes are the agents every trial runs on.
func (d *Trogdor) Nodes() []string { return append([]string(nil), d.nodes...) }

// Check applies the client's own checks (the Java client's: the agents
// run kafka-clients).
func (d *Trogdor) Check(props map[string]string) error {
	if d.client != "" {
		return Check(d.client, props)
	}
	return CheckJava(d.Client(), props)
}

// CPUTime is the CPU time the nodes have reported for the trials so far,
// summed (cpu_ns in each node's result: its worker process, or its
// agent's JVM during the trial), read by the lab before and after a trial.
// After a trial in which a node reported none it fails once, so that the
// lab records no CPU for that trial rather than a share of it.
func (d *Trogdor) CPUTime() (time.Duration, error) {
	if d.cpuGap.Swap(false) {
		return 0, errors.New("a Trogdor node did not report its CPU time for the trial")
	}
	return time.Duration(d.cpu.Load()), nil
}

// countCPU adds a finished trial's nodes' CPU (nil parts are nodes without
// a result) and clears the gap Run set, unless a node did not report it.
func (d *Trogdor) countCPU(parts []*Result) {
	var sum time.Duration
	for _, p := range parts {
		if p == nil || p.CPU <= 0 {
			return
		}
		sum += p.CPU
	}
	d.cpu.Add(int64(sum))
	d.cpuGap.Store(false)
}

// Close has nothing to release: the fleet is the user's.
func (d *Trogdor) Close() error { return nil }

// Run runs t as one Trogdor task over the driver's nodes and merges their
// results. A node that fails, or never reports by t's timeout, fails the
// trial with that node's reason; the other nodes' results are returned
// with the error. Cancelling ctx stops the task on every node.
func (d *Trogdor) Run(ctx context.Context, t Trial) (*Result, error) {
	d.cpuGap.Store(true) // until every node's CPU is counted (countCPU)
	if err := d.Check(t.Settings.Raw()); err != nil {
		return nil, err
	}
	if t.Timeout <= 0 {
		t.Timeout = workerDefaultTrialTimeout
	}
	shares := nodeTrials(t, d.nodes)
	id := fmt.Sprintf("prodlab-%s-%d-%s", t.Topic, d.seq.Add(1), strconv.FormatInt(time.Now().UnixNano(), 36))
	if err := d.create(ctx, id, t, shares); err != nil {
		return nil, fmt.Errorf("trogdor: create the trial's task: %w", err)
	}
	task, err := d.wait(ctx, id, t)
	defer d.forget(ctx, id)
	if err != nil {
		return nil, err
	}
	return d.collect(id, task, shares)
}

// create creates the trial's task: one ProduceTaskSpec over the nodes, or
// an external worker's task on each node.
func (d *Trogdor) create(ctx context.Context, id string, t Trial, shares []Trial) error {
	if d.client != "" {
		return d.createExternal(ctx, id, t, shares)
	}
	return d.c.CreateTask(ctx, id, d.taskSpec(t, shares))
}

// poll reads the trial's task as one: for external workers, their tasks
// combined (combineTasks).
func (d *Trogdor) poll(ctx context.Context, id string) (trogdor.Task, error) {
	if d.client != "" {
		return d.pollExternal(ctx, id)
	}
	return d.c.Task(ctx, id)
}

// taskSpec is the ProduceTaskSpec of a trial: one start time for every
// node, each node's own run request (nodeRequest).
func (d *Trogdor) taskSpec(t Trial, shares []Trial) map[string]any {
	runs := map[string]workerRequest{}
	for i, node := range d.nodes {
		runs[node] = nodeRequest(shares[i])
	}
	return map[string]any{
		"class":      TrogdorTaskClass,
		"startMs":    time.Now().Add(trogdorStartLead).UnixMilli(),
		"durationMs": (t.Timeout + workerTrialSlack).Milliseconds(),
		"nodes":      d.nodes,
		"runs":       runs,
	}
}

// nodeRequest is the worker run request of one node's share (id 1, as the
// task worker numbers it; its producers 2, 3, …).
func nodeRequest(t Trial) workerRequest {
	if producerCount(t) > 1 {
		return newSharedRunRequest(1, t)
	}
	return newRunRequest(1, t)
}

// nodeTrials spreads t over nodes: at least one producer per node, and
// t.Producers in all when more (as evenly as possible); each node's share
// of the records, warm-up records and rate is its producers' shares, its
// seeds follow on from the previous node's, and its audit tag is the
// trial's with the node's name (Tag/NODE; its producers Tag/NODE/p<i>).
func nodeTrials(t Trial, nodes []string) []Trial {
	n := len(nodes)
	total := max(producerCount(t), n)
	out := make([]Trial, n)
	first := 0
	for i, node := range nodes {
		k := int(splitCount(int64(total), i, n))
		s := t
		s.Producers = k
		s.Records, s.WarmupRecords = 0, 0
		for j := first; j < first+k; j++ {
			s.Records += splitCount(t.Records, j, total)
			s.WarmupRecords += splitCount(t.WarmupRecords, j, total)
		}
		s.Rate = t.Rate * float64(k) / float64(total)
		s.Seed = int64(uint64(t.Seed) + uint64(first)*seedStride)
		if t.Tag != "" {
			s.Tag = t.Tag + "/" + node
		}
		s.Settings = t.Settings.WithSuffixedTransactionalID(node)
		s.Progress = nil
		out[i] = s
		first += k
	}
	return out
}

// wait polls task id until it is done, passing the nodes' progress on.
// Once one node has its result, the others get a grace period
// (trogdorGrace) to report theirs: the nodes share the trial evenly and
// started together, so a node still silent by then has died or hung, and
// the task is stopped to collect what the others measured. On ctx's end,
// or when the trial outlives its timeout, the task is stopped too. When a
// stop goes unanswered, the task as last polled stands in for it, and a
// coordinator that stopped answering the polls is named.
func (d *Trogdor) wait(ctx context.Context, id string, t Trial) (trogdor.Task, error) {
	deadline := time.NewTimer(trogdorStartLead + t.Timeout + workerTrialSlack)
	defer deadline.Stop()
	tick := time.NewTicker(trogdorPoll)
	defer tick.Stop()
	prog := newProgressFan(len(d.nodes), t.Progress)
	start := time.Now()
	var firstResult time.Time
	var seen trogdor.Task // the task as last polled
	var pollErr error     // the last poll's error; nil once a poll answers
	for {
		task, err := d.poll(ctx, id)
		pollErr = err
		if err == nil {
			if task.Done() {
				return task, nil
			}
			seen = task
			if reported := d.observe(task, prog); firstResult.IsZero() && reported > 0 {
				firstResult = time.Now()
			}
			if !firstResult.IsZero() && time.Since(firstResult) > trogdorGrace(firstResult.Sub(start)) {
				return d.stopOr(id, trogdorGraceStopWait, seen), nil // collect names the silent nodes
			}
		}
		select {
		case <-ctx.Done():
			if _, err := d.stop(id, trogdorStopWait); err != nil {
				return trogdor.Task{}, fmt.Errorf("trogdor task %s: %w (stopping it: %w)", id, ctx.Err(), err)
			}
			return trogdor.Task{}, fmt.Errorf("trogdor task %s stopped: %w", id, ctx.Err())
		case <-deadline.C:
			return trogdor.Task{}, d.lateError(id, t.Timeout+workerTrialSlack, pollErr, d.stopOr(id, trogdorStopWait, seen))
		case <-tick.C:
		}
	}
}

// trogdorGrace is how long the other nodes may take to report once one
// has, after the trial has taken took so far: 10 s, or half of took.
func trogdorGrace(took time.Duration) time.Duration {
	return max(10*time.Second, took/2)
}

// lateError is the error of task id, stopped (as last) after no result
// within limit: the coordinator's when it no longer answered the polls
// (pollErr), else the nodes that never reported.
func (d *Trogdor) lateError(id string, limit time.Duration, pollErr error, last trogdor.Task) error {
	if pollErr != nil {
		return fmt.Errorf("trogdor task %s: no result within %s; the coordinator no longer answers: %w", id, limit, pollErr)
	}
	return fmt.Errorf("trogdor task %s: no result within %s: %s", id, limit, d.silentNodes(last))
}

// stopOr stops task id (stop) and returns it as last read while stopping
// (done or not), or seen, the task as last polled before, when the
// coordinator did not answer the stop at all.
func (d *Trogdor) stopOr(id string, wait time.Duration, seen trogdor.Task) trogdor.Task {
	if last, _ := d.stop(id, wait); last.State != "" {
		return last
	}
	return seen
}

// trogdorGraceStopWait bounds the wait for a task stopped because a node
// stayed silent: that node may never answer the stop either.
const trogdorGraceStopWait = 3 * time.Second

// messages are the nodes' latest worker lines (their task status), in
// node order; nil for a node without one.
func (d *Trogdor) messages(task trogdor.Task) []*workerMessage {
	out := make([]*workerMessage, len(d.nodes))
	statuses, err := trogdor.NodeStatuses(task.Status, d.nodes)
	if err != nil {
		return out
	}
	for i, node := range d.nodes {
		if m, err := decodeWorkerMessage(statuses[node]); err == nil {
			out[i] = m
		}
	}
	return out
}

// observe passes each node's latest progress line (its one producer's, or
// one of its producers') to prog and returns how many nodes have their
// result.
func (d *Trogdor) observe(task trogdor.Task, prog *progressFan) int {
	reported := 0
	for i, m := range d.messages(task) {
		switch {
		case m == nil:
		case m.Op == "result":
			reported++
		case m.Op == "progress" && prog.of(i) != nil:
			// Polls may see the same line twice: pass the counts only,
			// not the line's window, which would then count twice.
			p := m.progress()
			p.WindowCount, p.WindowLatencySumUs, p.WindowLatencyMaxUs = 0, 0, 0
			prog.of(i)(p)
		}
	}
	return reported
}

// stop stops task id on its nodes and waits, at most wait, for it to end;
// it returns the task as last seen.
func (d *Trogdor) stop(id string, wait time.Duration) (trogdor.Task, error) {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	var errs []error
	for _, tid := range d.taskIDs(id) {
		if err := d.c.StopTask(ctx, tid); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) == len(d.taskIDs(id)) {
		return trogdor.Task{}, errors.Join(errs...)
	}
	return trogdor.WaitDone(ctx, id, trogdorPoll, func(ctx context.Context) (trogdor.Task, error) { return d.poll(ctx, id) })
}

// forget destroys the trial's tasks, so that the fleet does not keep
// every trial.
func (d *Trogdor) forget(ctx context.Context, id string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	for _, tid := range d.taskIDs(id) {
		_ = d.c.DestroyTask(ctx, tid)
	}
}

// silentNodes names the nodes of a task that have no result.
func (d *Trogdor) silentNodes(task trogdor.Task) string {
	var silent []string
	for i, m := range d.messages(task) {
		if m == nil || m.Op != "result" {
			silent = append(silent, d.nodes[i])
		}
	}
	if len(silent) == 0 {
		return "every node reported"
	}
	return "node " + strings.Join(silent, ", ") + " never reported a result"
}

// collect reads each node's result from a finished task and merges them.
// A node without a result, or whose trial failed, fails the trial with its
// reason; the others' results are kept.
func (d *Trogdor) collect(id string, task trogdor.Task, shares []Trial) (*Result, error) {
	statuses, err := trogdor.NodeStatuses(task.Status, d.nodes)
	if err != nil {
		return nil, fmt.Errorf("trogdor task %s: %w", id, err)
	}
	parts := make([]*Result, len(d.nodes))
	var errs []error
	for i, node := range d.nodes {
		parts[i], err = nodeResult(statuses[node], shares[i], d.notStarted())
		if err != nil {
			errs = append(errs, fmt.Errorf("node %s: %w", node, err))
		}
	}
	// The coordinator's word: for the Java task when no node said why; for
	// external workers always, since their tasks' errors (the worker could
	// not start, wrote an error, exited non-zero) name their nodes and are
	// the only place such a failure is told.
	if task.Error != "" && (len(errs) == 0 || d.client != "") {
		errs = append(errs, errors.New(task.Error))
	}
	d.countCPU(parts)
	res := mergeNodes(d.nodes, shares, parts)
	if len(errs) > 0 {
		return res, fmt.Errorf("trogdor task %s: %w", id, errors.Join(errs...))
	}
	return res, nil
}

// notStarted says why a node may have no status at all.
func (d *Trogdor) notStarted() string {
	if d.client != "" {
		return "the agent never started the " + d.client + " worker, or it never ran the trial (does the agent's worker directory hold this prodlab's worker, and does it run there?)"
	}
	return "the agent never started the trial (is it running, and does its class path hold prodlab-worker.jar?)"
}

// nodeResult converts one node's final status (the worker's result line)
// for the node's share; a node that has none (notStarted says why it may
// not), or whose trial failed, is an error with its reason.
func nodeResult(status json.RawMessage, share Trial, notStarted string) (*Result, error) {
	if len(status) == 0 {
		return nil, errors.New("no status: " + notStarted)
	}
	m, err := decodeWorkerMessage(status)
	if err != nil {
		return nil, err
	}
	if m.Op != "result" {
		return nil, fmt.Errorf("no result; its last status was %q after %s (%d sent, %d acked)", m.Op, time.Duration(m.ElapsedNs).Round(time.Millisecond), m.Sent, m.Acked)
	}
	var res *Result
	if producerCount(share) > 1 {
		res, err = m.toSharedResult(share)
	} else {
		res, err = m.toResult(share)
	}
	if res != nil {
		res.CPU = time.Duration(m.CPUNs)
	}
	return res, err
}

// mergeNodes merges the nodes' results (nil for a node without one) like a
// trial of many producers, and names each producer's node: a node's
// producers keep their own figures when it ran several.
func mergeNodes(nodes []string, shares []Trial, parts []*Result) *Result {
	res := mergeResults(shares, parts)
	var producers []ProducerResult
	for i, p := range parts {
		if p != nil && len(p.Producers) > 0 {
			for _, pr := range p.Producers {
				pr.Node, pr.CPU = nodes[i], p.CPU
				producers = append(producers, pr)
			}
			continue
		}
		pr := res.Producers[i]
		pr.Node = nodes[i]
		if p != nil {
			pr.CPU = p.CPU
		}
		producers = append(producers, pr)
	}
	res.Producers = producers
	return res
}
