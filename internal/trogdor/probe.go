package trogdor

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/prodlab/prodlab/internal/secret"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// TaskAPI is the version of prodlab's Trogdor task API (ProduceTaskSpec and
// its status) this prodlab speaks; the worker jar on the agents reports its
// own (ProbeTaskWorker.TASK_API) and a different one is refused.
const TaskAPI = 1

// ProbeClass is the Java class of the probe task (ProbeTaskSpec).
const ProbeClass = "dev.prodlab.worker.trogdor.ProbeTaskSpec"

// AgentInfo is what one agent says of itself when probed.
type AgentInfo struct {
	Node     string `json:"node"`
	Hostname string `json:"hostname"`
	// Agents are the agent names of the fleet's topology, as this agent
	// read them from its config file.
	Agents       []string `json:"agents"`
	KafkaClients string   `json:"kafka_clients"`
	Java         string   `json:"java"`
	TaskAPI      int      `json:"task_api"`
	// WorkerDir is where the agent looks for prodlab's worker executables
	// ($PRODLAB_WORKER_DIR, else the directory of prodlab-worker.jar), and
	// Executables the prodlab* executables it found there: what the
	// clients other than Java run as on the agent (clients.Kind
	// FleetWorker). Empty from an agent jar older than this field.
	WorkerDir   string   `json:"worker_dir,omitempty"`
	Executables []string `json:"executables,omitempty"`
}

// Probed is a probed fleet: the agents that answered, by name, and every
// agent name the fleet's topology lists (answered or not).
type Probed struct {
	URL      string
	Answered map[string]AgentInfo
	Known    []string
}

// Probe asks every agent of the coordinator at c what it is, through one
// ProbeTaskSpec task, waiting at most wait for the agents to answer. It
// fails when the coordinator does not answer, when it cannot create the
// task (its class path lacks prodlab's worker jar, or its Trogdor task API
// differs), or when no agent answers; agents that stay silent are in
// Probed.Known and not in Probed.Answered.
func Probe(ctx context.Context, c *Client, wait time.Duration) (Probed, error) {
	f := Probed{URL: secret.RedactUserinfo(c.URL), Answered: map[string]AgentInfo{}}
	if _, err := c.Status(ctx); err != nil {
		return f, err
	}
	id := "prodlab-probe-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	spec := map[string]any{"class": ProbeClass, "startMs": 0, "durationMs": wait.Milliseconds()}
	if err := c.CreateTask(ctx, id, spec); err != nil {
		return f, explainCreate(secret.RedactUserinfo(c.URL), err)
	}
	defer func() {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = c.StopTask(dctx, id)
		_ = c.DestroyTask(dctx, id)
	}()
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	task, err := c.WaitTask(wctx, id, 100*time.Millisecond)
	if ctx.Err() != nil {
		return f, ctx.Err()
	}
	if err == nil && task.Error != "" {
		return f, fmt.Errorf("trogdor coordinator %s: probing its agents failed: %s", secret.RedactUserinfo(c.URL), textfmt.Foreign(task.Error))
	}
	if err != nil { // some agents never answered: take what the others said
		if task, err = c.Task(ctx, id); err != nil {
			return f, err
		}
	}
	statuses, err := probeStatuses(task.Status)
	if err != nil {
		return f, fmt.Errorf("trogdor coordinator %s: probe: %w", secret.RedactUserinfo(c.URL), err)
	}
	if len(statuses) > maxProbed {
		return f, fmt.Errorf("trogdor coordinator %s: %d agents answered the probe, more than the %d prodlab drives: is this a Trogdor coordinator?", secret.RedactUserinfo(c.URL), len(statuses), maxProbed)
	}
	for node, raw := range statuses {
		var info AgentInfo
		if err := json.Unmarshal(raw, &info); err != nil || info.Node == "" {
			return f, fmt.Errorf("trogdor agent %s answered the probe with %s: is prodlab's worker jar on its class path?", textfmt.Foreign(node), textfmt.Foreign(string(raw)))
		}
		if err := checkNodeNames(append([]string{node, info.Node}, info.Agents...)); err != nil {
			return f, fmt.Errorf("trogdor coordinator %s: %w", secret.RedactUserinfo(c.URL), err)
		}
		f.Answered[info.Node] = info
		for _, a := range info.Agents {
			if !slices.Contains(f.Known, a) {
				f.Known = append(f.Known, a)
			}
		}
	}
	slices.Sort(f.Known)
	if len(f.Answered) == 0 {
		return f, fmt.Errorf("trogdor coordinator %s: no agent answered within %s (are the agents running, and can the coordinator reach them?)", secret.RedactUserinfo(c.URL), wait)
	}
	return f, nil
}

// maxProbed is the most agents a probe may report: a fleet of more is
// no fleet prodlab drives from one process, and an answer that large is
// taken for a misbehaving server rather than read on.
const maxProbed = 1024

// maxNodeName is the longest node name accepted: a host name is at most
// 253 characters.
const maxNodeName = 253

// checkNodeNames refuses names no Trogdor node has (too long, or with
// spaces or control characters), which every message would otherwise
// quote: a misbehaving server's answer, refused at once and quoted
// clipped and escaped.
func checkNodeNames(names []string) error {
	for _, n := range names {
		if len(n) > maxNodeName || strings.IndexFunc(n, func(r rune) bool { return !unicode.IsPrint(r) || unicode.IsSpace(r) }) >= 0 {
			return fmt.Errorf("an agent answered with the node name %s, which no host has (at most %d printable characters, no spaces)", textfmt.Foreign(n), maxNodeName)
		}
	}
	return nil
}

// explainCreate turns a refused task creation into its likely cause.
func explainCreate(url string, err error) error {
	msg := err.Error()
	if strings.Contains(msg, "dev.prodlab.worker.trogdor") || strings.Contains(msg, "type id") {
		return fmt.Errorf("trogdor coordinator %s does not know prodlab's tasks: put prodlab-worker.jar on the class path of the coordinator and of every agent (CLASSPATH=…/prodlab-worker.jar bin/trogdor.sh …): %w", url, err)
	}
	return fmt.Errorf("trogdor coordinator %s: %w", url, err)
}

// NodeStatuses splits the status of a task on nodes into one status per
// node: the coordinator reports a task on one node as that node's status
// itself, and a task on several as an object keyed by node name.
func NodeStatuses(status json.RawMessage, nodes []string) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	if len(status) == 0 || string(status) == "null" {
		return out, nil
	}
	if len(nodes) == 1 {
		out[nodes[0]] = status
		return out, nil
	}
	if err := json.Unmarshal(status, &out); err != nil {
		return nil, fmt.Errorf("task status %s: want an object keyed by node: %w", textfmt.Foreign(string(status)), err)
	}
	return out, nil
}

// probeStatuses splits a probe task's status by node. Which agents ran it
// is known only from the answers, and each answer names its agent: a
// status with a "node" field is one agent's own (a fleet of one agent).
func probeStatuses(status json.RawMessage) (map[string]json.RawMessage, error) {
	var one struct {
		Node string `json:"node"`
	}
	if json.Unmarshal(status, &one) == nil && one.Node != "" {
		return map[string]json.RawMessage{one.Node: status}, nil
	}
	return NodeStatuses(status, nil)
}
