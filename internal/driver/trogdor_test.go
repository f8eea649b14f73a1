package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/trogdor"
)

// TestNodeTrials spreads trials over nodes: at least one producer per node,
// records, warm-up records and rate in proportion to each node's
// producers, no record lost or counted twice, seeds never shared, and each
// node's audit tag named after it.
func TestNodeTrials(t *testing.T) {
	for _, tc := range []struct {
		name      string
		trial     Trial
		nodes     []string
		producers []int
		records   []int64
	}{
		{"one per node", Trial{Records: 10, Rate: 100, Tag: "r"}, []string{"a", "b"}, []int{1, 1}, []int64{5, 5}},
		{"odd records", Trial{Records: 11, Tag: "r"}, []string{"a", "b"}, []int{1, 1}, []int64{6, 5}},
		{"more producers than nodes", Trial{Records: 30, Producers: 5, Tag: "r"}, []string{"a", "b"}, []int{3, 2}, []int64{18, 12}},
		{"one node", Trial{Records: 7, Producers: 2}, []string{"a"}, []int{2}, []int64{7}},
		{"three nodes", Trial{Records: 100, WarmupRecords: 9, Rate: 90}, []string{"a", "b", "c"}, []int{1, 1, 1}, []int64{34, 33, 33}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := nodeTrials(tc.trial, tc.nodes)
			var records, warm int64
			var rate float64
			seeds := map[int64]bool{}
			for i, s := range got {
				if s.Producers != tc.producers[i] || s.Records != tc.records[i] {
					t.Errorf("node %s: %d producers, %d records; want %d, %d", tc.nodes[i], s.Producers, s.Records, tc.producers[i], tc.records[i])
				}
				if tc.trial.Tag != "" && s.Tag != tc.trial.Tag+"/"+tc.nodes[i] {
					t.Errorf("node %s: tag %q", tc.nodes[i], s.Tag)
				}
				if seeds[s.Seed] {
					t.Errorf("node %s: seed %d shared with another node", tc.nodes[i], s.Seed)
				}
				seeds[s.Seed] = true
				records, warm, rate = records+s.Records, warm+s.WarmupRecords, rate+s.Rate
			}
			if records != tc.trial.Records || warm != tc.trial.WarmupRecords {
				t.Errorf("nodes share %d records and %d warm-up records, want %d and %d", records, warm, tc.trial.Records, tc.trial.WarmupRecords)
			}
			if d := rate - tc.trial.Rate; d > 1e-9 || d < -1e-9 {
				t.Errorf("nodes share a rate of %v, want %v", rate, tc.trial.Rate)
			}
		})
	}
}

// TestNodeResult reads a node's final status: a result line converts, and
// a missing status, a progress line or a failed trial are errors with the
// node's reason.
func TestNodeResult(t *testing.T) {
	share := Trial{Records: 3, RecordSize: 10}
	for _, tc := range []struct {
		name, status, err string
		acked             int64
	}{
		{"result", `{"op":"result","id":1,"ok":true,"sent":3,"acked":3,"elapsed_ns":1000000}`, "", 3},
		{"no status", ``, "never started the trial", 0},
		{"progress only", `{"op":"progress","id":1,"sent":2,"acked":1,"elapsed_ns":2000000000}`, `last status was "progress" after 2s (2 sent, 1 acked)`, 0},
		{"refused", `{"op":"result","id":1,"ok":false,"error":"Invalid value bogus for configuration acks"}`, "Invalid value bogus", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := nodeResult(json.RawMessage(tc.status), share, NewTrogdor(nil, nil, "4.3.1").notStarted())
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Acked != tc.acked {
				t.Errorf("acked %d, want %d", res.Acked, tc.acked)
			}
		})
	}
}

// TestMergeNodes merges two nodes' results: counts add, the histogram
// holds both nodes' records, and each producer names its node, a node
// without a result included.
func TestMergeNodes(t *testing.T) {
	part := func(n int64, us int64) *Result {
		h := NewLatencyHistogram()
		for range n {
			_ = h.RecordValue(us)
		}
		return &Result{Sent: n, Acked: n, Latency: h}
	}
	nodes := []string{"a", "b", "c"}
	shares := nodeTrials(Trial{Records: 30, Tag: "r"}, nodes)
	res := mergeNodes(nodes, shares, []*Result{part(10, 100), part(10, 300), nil})
	if res.Acked != 20 || res.Latency.TotalCount() != 20 {
		t.Errorf("merged %d acked, histogram of %d; want 20 and 20", res.Acked, res.Latency.TotalCount())
	}
	if len(res.Producers) != 3 {
		t.Fatalf("%d producers, want 3", len(res.Producers))
	}
	for i, p := range res.Producers {
		if p.Node != nodes[i] || p.Tag != "r/"+nodes[i] {
			t.Errorf("producer %d: node %q tag %q", i, p.Node, p.Tag)
		}
	}
	if res.Producers[2].Acked != 0 {
		t.Errorf("the node without a result acked %d", res.Producers[2].Acked)
	}

	// A node that ran two producers keeps each one's figures, with its
	// node; the other node's single producer follows.
	own := part(12, 200)
	own.Producers = []ProducerResult{{Tag: "r/a/p0", Sent: 5, Acked: 5}, {Tag: "r/a/p1", Sent: 7, Acked: 7}}
	nodes = []string{"a", "b"}
	shares = nodeTrials(Trial{Records: 20, Producers: 3, Tag: "r"}, nodes)
	res = mergeNodes(nodes, shares, []*Result{own, part(8, 100)})
	var got []string
	for _, p := range res.Producers {
		got = append(got, fmt.Sprintf("%s@%s:%d", p.Tag, p.Node, p.Acked))
	}
	if s, want := strings.Join(got, " "), "r/a/p0@a:5 r/a/p1@a:7 r/b@b:8"; s != want {
		t.Errorf("producers %s, want %s", s, want)
	}
	if res.Acked != 20 {
		t.Errorf("merged %d acked, want 20", res.Acked)
	}
}

// TestTrogdorStopOr: a task stopped after a node stayed silent is reported
// as last read while stopping, or as last polled when the coordinator
// answers neither the stop nor the polls; and a trial past its time names
// the coordinator when it stopped answering, the silent nodes otherwise.
// The coordinator is a stand-in: what is under test is what prodlab makes
// of its answers. The stopped task ends on the stand-in's second poll, so
// the wait is only a hang guard: a 3 s wait for a task that never ended
// once expired before the first poll was answered, under golangci-lint and
// two CPU hogs.
func TestTrogdorStopOr(t *testing.T) {
	status := `{"a":{"op":"result","id":1,"ok":true},"b":{"op":"progress","id":1}}`
	for _, tc := range []struct {
		name       string
		stop, poll int // HTTP status of the stop and of the polls
		wantState  string
		wantSilent string
	}{
		{"stop answered, task stopped", http.StatusOK, http.StatusOK, "DONE", "node b never reported a result"},
		{"coordinator gone", http.StatusInternalServerError, http.StatusInternalServerError, "SEEN", "node b never reported a result"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var polls atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.Method == http.MethodPut && r.URL.Path == "/coordinator/task/stop":
					w.WriteHeader(tc.stop)
					_, _ = w.Write([]byte(`{}`))
				case r.Method == http.MethodGet && r.URL.Path == "/coordinator/tasks/t":
					state := "RUNNING"
					if polls.Add(1) > 1 {
						state = "DONE"
					}
					w.WriteHeader(tc.poll)
					_, _ = w.Write([]byte(`{"state":"` + state + `","status":` + status + `}`))
				default:
					http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusNotFound)
				}
			}))
			defer srv.Close()
			d := NewTrogdor(trogdor.NewClient(srv.URL), []string{"a", "b"}, "4.3.1")
			seen := trogdor.Task{State: "SEEN", Status: json.RawMessage(status)}
			last := d.stopOr("t", time.Minute, seen) // a hang guard
			if last.State != tc.wantState {
				t.Errorf("state %q, want %q", last.State, tc.wantState)
			}
			if got := d.silentNodes(last); got != tc.wantSilent {
				t.Errorf("silent %q, want %q", got, tc.wantSilent)
			}
		})
	}
	d := NewTrogdor(nil, []string{"a", "b"}, "4.3.1")
	last := trogdor.Task{State: "RUNNING", Status: json.RawMessage(status)}
	if err := d.lateError("t", time.Minute, errors.New("connection refused"), last); !strings.Contains(err.Error(), "the coordinator no longer answers: connection refused") {
		t.Errorf("coordinator gone: %v", err)
	}
	if err := d.lateError("t", time.Minute, nil, last); !strings.Contains(err.Error(), "no result within 1m0s: node b never reported a result") {
		t.Errorf("silent node: %v", err)
	}
}

// TestTrogdorCPU: the nodes' CPU times add up to the driver's CPU time,
// read before and after a trial; a trial in which a node reported none
// (or that never got to collect) reads as an error once, not as a share;
// and each producer carries its node's time.
func TestTrogdorCPU(t *testing.T) {
	d := NewTrogdor(nil, []string{"a", "b"}, "4.3.1")
	cpu := func() time.Duration {
		t.Helper()
		c, err := d.CPUTime()
		if err != nil {
			t.Fatalf("CPU time: %v", err)
		}
		return c
	}
	before := cpu()
	d.cpuGap.Store(true) // as Run does
	d.countCPU([]*Result{{CPU: 2 * time.Second}, {CPU: time.Second}})
	if got := cpu() - before; got != 3*time.Second {
		t.Errorf("trial CPU %s, want 3s", got)
	}
	d.cpuGap.Store(true)
	d.countCPU([]*Result{{CPU: time.Second}, nil})
	if _, err := d.CPUTime(); err == nil {
		t.Error("a trial with a silent node read as a CPU time")
	}
	if got := cpu(); got != 3*time.Second {
		t.Errorf("after the gap %s, want the 3s counted before", got)
	}
	// Run marks the trial's CPU unknown until its nodes' is counted: a trial
	// refused before any task (here by the client's checks: a client no
	// driver knows) has none.
	bad := d.ForClient("no-such-client", nil)
	if _, err := bad.Run(context.Background(), Trial{Records: 1}); err == nil {
		t.Fatal("a trial of an unknown client ran")
	}
	if _, err := bad.CPUTime(); err == nil {
		t.Error("a trial refused before it ran read as a CPU time")
	}
	ext := d.ForClient("franz-go", nil)
	if !strings.Contains(ext.notStarted(), "franz-go worker") || strings.Contains(ext.notStarted(), "prodlab-worker.jar") {
		t.Errorf("an external node without a status: %q", ext.notStarted())
	}
	nodes := []string{"a", "b"}
	res := mergeNodes(nodes, nodeTrials(Trial{Records: 10}, nodes), []*Result{{Acked: 5, CPU: time.Second, Latency: NewLatencyHistogram()}, {Acked: 5, CPU: 2 * time.Second, Latency: NewLatencyHistogram()}})
	if res.Producers[0].CPU != time.Second || res.Producers[1].CPU != 2*time.Second {
		t.Errorf("producers %+v: want each node's CPU", res.Producers)
	}
}

// TestExternalCreatesNothingWithoutCommands: a trial of an external client
// whose worker one node lacks fails before any task exists, so none is
// left running on the coordinator; with every node's command, one task per
// node is created, all with one start time and each with its own node.
func TestExternalCreatesNothingWithoutCommands(t *testing.T) {
	var specs []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/coordinator/task/create" {
			var req struct {
				Spec map[string]any `json:"spec"`
			}
			_ = json.NewDecoder(r.Body).Decode(&req)
			specs = append(specs, req.Spec)
			_, _ = w.Write([]byte(`{}`))
			return
		}
		http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusBadRequest)
	}))
	defer srv.Close()
	d := NewTrogdor(trogdor.NewClient(srv.URL), []string{"a", "b"}, "4.3.1")
	half := d.ForClient("franz-go", map[string][]string{"a": {"/w/prodlab", "worker", "franz-go", "trogdor"}})
	err := half.create(context.Background(), "t", Trial{Records: 2, Timeout: time.Minute}, nodeTrials(Trial{Records: 2}, []string{"a", "b"}))
	if err == nil || !strings.Contains(err.Error(), "node b has no franz-go worker command") || len(specs) != 0 {
		t.Fatalf("err %v, %d tasks created: want node b named and none created", err, len(specs))
	}
	cmd := []string{"/w/prodlab", "worker", "franz-go", "trogdor"}
	full := d.ForClient("franz-go", map[string][]string{"a": cmd, "b": cmd})
	if err := full.create(context.Background(), "t", Trial{Records: 2, Timeout: time.Minute}, nodeTrials(Trial{Records: 2}, []string{"a", "b"})); err != nil {
		t.Fatal(err)
	}
	if len(specs) != 2 || specs[0]["startMs"] != specs[1]["startMs"] || specs[0]["commandNode"] != "a" || specs[1]["commandNode"] != "b" || specs[0]["class"] != ExternalCommandClass {
		t.Errorf("specs %v: want one ExternalCommandSpec per node, one start time", specs)
	}
}
