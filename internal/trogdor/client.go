package trogdor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/secret"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// Client talks to a Trogdor coordinator's REST API.
type Client struct {
	// URL is the coordinator's base URL, e.g. http://127.0.0.1:8889.
	URL  string
	HTTP *http.Client
}

// NewClient returns a client for the coordinator at url with a 10 s request
// timeout.
func NewClient(url string) *Client {
	return &Client{URL: strings.TrimRight(url, "/"), HTTP: &http.Client{Timeout: 10 * time.Second}}
}

// CoordinatorStatus is GET /coordinator/status.
type CoordinatorStatus struct {
	ServerStartMs int64 `json:"serverStartMs"`
}

// Task is one entry of GET /coordinator/tasks: its state (PENDING, RUNNING,
// STOPPING, DONE), its spec, its error ("" when it succeeded or is not done)
// and its status: for a task on several nodes, an object keyed by node name.
type Task struct {
	State     string          `json:"state"`
	Spec      json.RawMessage `json:"spec"`
	StartedMs int64           `json:"startedMs,omitempty"`
	DoneMs    int64           `json:"doneMs,omitempty"`
	Cancelled bool            `json:"cancelled,omitempty"`
	Error     string          `json:"error,omitempty"`
	Status    json.RawMessage `json:"status,omitempty"`
}

// Done reports whether the task has finished, successfully or not.
func (t Task) Done() bool { return t.State == "DONE" }

// Status fetches the coordinator's status; it fails when the coordinator
// does not answer.
func (c *Client) Status(ctx context.Context) (CoordinatorStatus, error) {
	var s CoordinatorStatus
	err := c.do(ctx, http.MethodGet, "/coordinator/status", nil, &s)
	return s, err
}

// Tasks fetches every task the coordinator knows, by id.
func (c *Client) Tasks(ctx context.Context) (map[string]Task, error) {
	var r struct {
		Tasks map[string]Task `json:"tasks"`
	}
	if err := c.do(ctx, http.MethodGet, "/coordinator/tasks", nil, &r); err != nil {
		return nil, err
	}
	return r.Tasks, nil
}

// Task fetches one task (GET /coordinator/tasks/{id}); it fails when the
// coordinator does not know id.
func (c *Client) Task(ctx context.Context, id string) (Task, error) {
	var t Task
	if err := c.do(ctx, http.MethodGet, "/coordinator/tasks/"+url.PathEscape(id), nil, &t); err != nil {
		return Task{}, fmt.Errorf("trogdor task %q: %w", id, err)
	}
	return t, nil
}

// DestroyTask makes the coordinator and its agents forget task id, so that
// finished trials do not pile up in a long-lived fleet's memory.
func (c *Client) DestroyTask(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodDelete, "/coordinator/tasks?taskId="+url.QueryEscape(id), nil, nil)
}

// CreateTask asks the coordinator to create task id with spec, a JSON object
// naming its Java class ("class") and its start time and duration.
func (c *Client) CreateTask(ctx context.Context, id string, spec any) error {
	body := map[string]any{"id": id, "spec": spec}
	return c.do(ctx, http.MethodPost, "/coordinator/task/create", body, nil)
}

// StopTask asks the coordinator to stop task id on its nodes.
func (c *Client) StopTask(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodPut, "/coordinator/task/stop", map[string]any{"id": id}, nil)
}

// WaitTask polls task id every interval until it is done or ctx ends.
func (c *Client) WaitTask(ctx context.Context, id string, interval time.Duration) (Task, error) {
	return WaitDone(ctx, id, interval, func(ctx context.Context) (Task, error) { return c.Task(ctx, id) })
}

// WaitDone calls poll every interval until the task it reads (named id in
// errors) is done or ctx ends; the task as last read comes back either way.
func WaitDone(ctx context.Context, id string, interval time.Duration, poll func(context.Context) (Task, error)) (Task, error) {
	for {
		t, err := poll(ctx)
		if err == nil && t.Done() {
			return t, nil
		}
		select {
		case <-ctx.Done():
			if err == nil {
				err = fmt.Errorf("trogdor task %q still %s", id, t.State)
			}
			return t, fmt.Errorf("wait for trogdor task %q: %w (%w)", id, ctx.Err(), err)
		case <-time.After(interval):
		}
	}
}

// maxAnswer bounds a coordinator's or agent's answer: the task list of a
// long-lived fleet fits many times over.
const maxAnswer = 64 << 20

// do sends one request with an optional JSON body and decodes a JSON answer
// into out (when not nil). A status other than 2xx is an error carrying the
// coordinator's message.
func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		data, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("trogdor %s %s: encode request: %w", method, path, err)
		}
		body = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.URL+path, body)
	if err != nil {
		return fmt.Errorf("trogdor %s %s: %w", method, path, err)
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("trogdor coordinator %s: %w", secret.RedactUserinfo(c.URL), err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return fmt.Errorf("trogdor %s %s: read answer: %w", method, path, err)
	}
	if len(data) > maxAnswer {
		return fmt.Errorf("trogdor %s %s: the answer is larger than %d MiB: refused (is this a Trogdor coordinator?)", method, path, maxAnswer>>20)
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("trogdor %s %s: %s: %s", method, path, textfmt.Foreign(resp.Status), textfmt.Foreign(strings.TrimSpace(string(data))))
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("trogdor %s %s: decode answer: %w", method, path, err)
	}
	return nil
}

// AgentStatus is GET /agent/status of an agent: its workers by id.
type AgentStatus struct {
	ServerStartMs int64                  `json:"serverStartMs"`
	Workers       map[string]AgentWorker `json:"workers"`
}

// AgentWorker is one worker of an agent: its state (STARTING, RUNNING,
// STOPPING, DONE) and task.
type AgentWorker struct {
	State  string `json:"state"`
	TaskID string `json:"taskId"`
}

// AgentStatus fetches an agent's status; the client's URL must be the
// agent's (AgentURL).
func (c *Client) AgentStatus(ctx context.Context) (AgentStatus, error) {
	var s AgentStatus
	err := c.do(ctx, http.MethodGet, "/agent/status", nil, &s)
	return s, err
}

// AgentURL is the REST base URL of a local fleet's agent.
func AgentURL(n Node) string {
	return fmt.Sprintf("http://%s:%d", Loopback, n.Port)
}
