package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/trogdor"
)

// Trials of a client other than the agents' Java client (franz-go,
// librdkafka) on a Trogdor fleet: Trogdor's own ExternalCommandSpec runs
// the kind's worker (clients.Kind.FleetWorker) on each node, one task per
// node with one start time, the node's run request as the task's workload
// (worker_trogdor.go is the command's side). The tasks are read together
// as one task on every node (combineTasks), so waiting, a silent node,
// stopping and merging are the Java task's (trogdor.go).

// ExternalCommandClass is Trogdor's task class that runs a command on one
// agent.
const ExternalCommandClass = "org.apache.kafka.trogdor.workload.ExternalCommandSpec"

// externalGrace is how long an agent waits, after the SIGTERM of a stop,
// before it kills the worker.
const externalGrace = 5 * time.Second

// taskIDs are the coordinator's ids of trial id's tasks: id itself for the
// Java task, id-NODE for each node's external task.
func (d *Trogdor) taskIDs(id string) []string {
	if d.client == "" {
		return []string{id}
	}
	out := make([]string, len(d.nodes))
	for i, n := range d.nodes {
		out[i] = id + "-" + n
	}
	return out
}

// createExternal creates each node's task, all starting at one time; when
// one cannot be created, those created are stopped and destroyed.
func (d *Trogdor) createExternal(ctx context.Context, id string, t Trial, shares []Trial) error {
	for _, node := range d.nodes { // before any task exists
		if len(d.commands[node]) == 0 {
			return fmt.Errorf("node %s has no %s worker command", node, d.client)
		}
	}
	start := time.Now().Add(trogdorStartLead).UnixMilli()
	ids := d.taskIDs(id)
	for i, node := range d.nodes {
		cmd := d.commands[node]
		spec := map[string]any{
			"class":                 ExternalCommandClass,
			"startMs":               start,
			"durationMs":            (t.Timeout + workerTrialSlack).Milliseconds(),
			"commandNode":           node,
			"command":               cmd,
			"workload":              nodeRequest(shares[i]),
			"shutdownGracePeriodMs": externalGrace.Milliseconds(),
		}
		if err := d.c.CreateTask(ctx, ids[i], spec); err != nil {
			for _, created := range ids[:i] {
				_ = d.c.StopTask(context.WithoutCancel(ctx), created)
			}
			d.forget(ctx, id)
			return fmt.Errorf("node %s: %w", node, err)
		}
	}
	return nil
}

// pollExternal reads every node's task and combines them.
func (d *Trogdor) pollExternal(ctx context.Context, id string) (trogdor.Task, error) {
	tasks := make([]trogdor.Task, len(d.nodes))
	for i, tid := range d.taskIDs(id) {
		t, err := d.c.Task(ctx, tid)
		if err != nil {
			return trogdor.Task{}, fmt.Errorf("node %s: %w", d.nodes[i], err)
		}
		tasks[i] = t
	}
	return combineTasks(d.nodes, tasks)
}

// combineTasks reads one task per node as one task on every node: done
// when all are, its status the nodes' statuses as the coordinator gives a
// task on several nodes (an object keyed by node; a single node's own
// status for one), its error the nodes' errors, each named.
func combineTasks(nodes []string, tasks []trogdor.Task) (trogdor.Task, error) {
	out := trogdor.Task{State: "DONE"}
	statuses := map[string]json.RawMessage{}
	var errs []string
	for i, t := range tasks {
		if !t.Done() {
			out.State = "RUNNING"
		}
		if t.Error != "" {
			errs = append(errs, "node "+nodes[i]+": "+t.Error)
		}
		if len(t.Status) > 0 && string(t.Status) != "null" {
			statuses[nodes[i]] = t.Status
		}
	}
	out.Error = strings.Join(errs, "; ")
	if len(nodes) == 1 {
		out.Status = statuses[nodes[0]]
		return out, nil
	}
	b, err := json.Marshal(statuses)
	if err != nil {
		return out, fmt.Errorf("combine the nodes' statuses: %w", err)
	}
	out.Status = b
	return out, nil
}
