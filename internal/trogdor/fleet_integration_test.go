package trogdor

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/testjar"
)

// nodeResult is the part of a worker result the test checks.
type nodeResult struct {
	Op        string `json:"op"`
	OK        bool   `json:"ok"`
	Error     string `json:"error"`
	Sent      int64  `json:"sent"`
	Acked     int64  `json:"acked"`
	Failed    int64  `json:"failed"`
	Histogram string `json:"histogram"`
}

// TestFleetRunsProduceTask starts a local fleet (coordinator + 2 agents) of
// the default trogdor release and a one-broker cluster, creates a
// ProduceTaskSpec over both agents through the coordinator's REST API, and
// checks that each node acknowledged every record and published an encoded
// histogram, and that a trial the worker refuses ends its task with the
// node's reason; then that Stop leaves no daemon running.
func TestFleetRunsProduceTask(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Kafka and Trogdor JVMs; skipped with -short")
	}
	runFleetTrial(t, DefaultRelease, true)
}

// TestFleetRunsProduceTaskOnTrogdor39 is the same trial on the agents of an
// older trogdor release (3.9.1, whose task API is the same).
func TestFleetRunsProduceTaskOnTrogdor39(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Kafka and Trogdor JVMs; skipped with -short")
	}
	runFleetTrial(t, "3.9.1", false)
}

// runFleetTrial is the body of the fleet tests for one trogdor release.
func runFleetTrial(t *testing.T, release string, checkRefusal bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	jar := testjar.WorkerJar(t)
	cl, err := cluster.Start(ctx, cluster.Config{Brokers: 1, Dir: t.TempDir()})
	if err != nil {
		t.Fatalf("start cluster: %v", err)
	}
	t.Cleanup(func() { _ = cl.Stop() })
	const topic = "trogdor-it"
	createTopic(ctx, t, cl.Bootstrap(), topic)

	f, err := Start(ctx, Config{Agents: 2, Release: release, WorkerJar: jar, Dir: t.TempDir()})
	if err != nil {
		t.Fatalf("start fleet: %v", err)
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			_ = f.Stop()
		}
	})
	state := StateOf(f)

	c := NewClient(f.URL())
	if _, err := c.Status(ctx); err != nil {
		t.Fatalf("coordinator status: %v", err)
	}
	for _, n := range f.Nodes() {
		if addrs := listeners(t, n.Port); len(addrs) != 1 || addrs[0] != "127.0.0.1" {
			t.Errorf("%s listens on %v, want 127.0.0.1 only", n.Name, addrs)
		}
	}
	const records = 5000
	spec := map[string]any{
		"class":      "dev.prodlab.worker.trogdor.ProduceTaskSpec",
		"startMs":    time.Now().UnixMilli(),
		"durationMs": 60_000,
		"nodes":      []string{AgentName(1), AgentName(2)},
		"run": map[string]any{
			"bootstrap": strings.Join(cl.Bootstrap(), ","), "topic": topic,
			"props":   map[string]string{"acks": "all", "linger.ms": "5"},
			"records": records, "record_size": 100, "tag": "it",
		},
	}
	if err := c.CreateTask(ctx, "produce-1", spec); err != nil {
		t.Fatalf("create task: %v", err)
	}
	task, err := c.WaitTask(ctx, "produce-1", 200*time.Millisecond)
	if err != nil {
		t.Fatalf("wait: %v", err)
	}
	if task.Error != "" {
		t.Fatalf("task error: %s\nstatus %s", task.Error, task.Status)
	}
	var perNode map[string]nodeResult
	if err := json.Unmarshal(task.Status, &perNode); err != nil {
		t.Fatalf("task status %s: %v", task.Status, err)
	}
	for _, name := range []string{AgentName(1), AgentName(2)} {
		r, ok := perNode[name]
		if !ok {
			t.Errorf("no status from %s: %s", name, task.Status)
			continue
		}
		if r.Op != "result" || !r.OK || r.Acked != records || r.Failed != 0 || !strings.HasPrefix(r.Histogram, "HIST") {
			t.Errorf("%s: op %s ok %v error %q acked %d of %d, failed %d, histogram %.8q", name, r.Op, r.OK, r.Error, r.Acked, records, r.Failed, r.Histogram)
		}
		t.Logf("%s: acked %d of %d, failed %d, histogram %d chars", name, r.Acked, records, r.Failed, len(r.Histogram))
	}

	if checkRefusal {
		checkRefused(ctx, t, c, cl.Bootstrap(), topic)
		checkStopped(ctx, t, c, cl.Bootstrap(), topic)
	}

	if err := f.Stop(); err != nil {
		t.Fatalf("stop fleet: %v", err)
	}
	stopped = true
	if live := state.LiveNodes(); len(live) != 0 {
		t.Errorf("after Stop, still running: %+v", live)
	}
}

// checkRefused runs a trial the worker refuses (acks=bogus) on one agent and
// checks that the task ends with the node's reason.
func checkRefused(ctx context.Context, t *testing.T, c *Client, bootstrap []string, topic string) {
	t.Helper()
	bad := map[string]any{
		"class": "dev.prodlab.worker.trogdor.ProduceTaskSpec", "startMs": time.Now().UnixMilli(), "durationMs": 60_000,
		"nodes": []string{AgentName(2)},
		"run": map[string]any{"bootstrap": strings.Join(bootstrap, ","), "topic": topic,
			"props": map[string]string{"acks": "bogus"}, "records": 10, "record_size": 100},
	}
	if err := c.CreateTask(ctx, "produce-bad", bad); err != nil {
		t.Fatalf("create task: %v", err)
	}
	task, err := c.WaitTask(ctx, "produce-bad", 200*time.Millisecond)
	if err != nil {
		t.Fatalf("wait: %v", err)
	}
	if !strings.Contains(task.Error, "trial failed") || !strings.Contains(task.Error, "acks") {
		t.Errorf("refused trial: task error %q, want the worker's reason about acks", task.Error)
	}
	t.Logf("refused trial: %s", task.Error)
}

// checkStopped starts a long rate-limited trial on one agent, stops its task
// once it runs and checks that the task ends soon, cancelled, with the
// trial's partial result as the node's status.
func checkStopped(ctx context.Context, t *testing.T, c *Client, bootstrap []string, topic string) {
	t.Helper()
	const records = 1_000_000
	long := map[string]any{
		"class": "dev.prodlab.worker.trogdor.ProduceTaskSpec", "startMs": time.Now().UnixMilli(), "durationMs": 600_000,
		"nodes": []string{AgentName(1)},
		"run": map[string]any{"bootstrap": strings.Join(bootstrap, ","), "topic": topic,
			"records": records, "record_size": 100, "rate": 1000},
	}
	if err := c.CreateTask(ctx, "produce-long", long); err != nil {
		t.Fatalf("create task: %v", err)
	}
	for {
		task, err := c.Task(ctx, "produce-long")
		if err != nil {
			t.Fatal(err)
		}
		if task.State == "RUNNING" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(time.Second)
	began := time.Now()
	if err := c.StopTask(ctx, "produce-long"); err != nil {
		t.Fatalf("stop task: %v", err)
	}
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	task, err := c.WaitTask(wctx, "produce-long", 100*time.Millisecond)
	if err != nil {
		t.Fatalf("stopped task: %v", err)
	}
	var r nodeResult
	_ = json.Unmarshal(task.Status, &r)
	if !task.Cancelled || r.Sent >= records {
		t.Errorf("stopped task: cancelled %v, sent %d of %d, status %.200s", task.Cancelled, r.Sent, records, task.Status)
	}
	t.Logf("stopped task: done %v after the stop, cancelled %v, node status %s with %d sent", time.Since(began).Round(time.Millisecond), task.Cancelled, r.Op, r.Sent)
}

// createTopic makes a 3-partition topic (the test cluster does not
// auto-create topics).
func createTopic(ctx context.Context, t *testing.T, bootstrap []string, topic string) {
	t.Helper()
	a, err := cluster.NewAdmin(bootstrap)
	if err != nil {
		t.Fatalf("admin: %v", err)
	}
	defer a.Close()
	if err := a.CreateTopic(ctx, topic, 3, 1, nil); err != nil {
		t.Fatal(fmt.Errorf("create topic %s: %w", topic, err))
	}
}

// listeners are the local addresses with a TCP socket listening on port,
// read from /proc/net/tcp and tcp6 ("0.0.0.0" or "::" for every interface).
func listeners(t *testing.T, port int) []string {
	t.Helper()
	var out []string
	for _, file := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 4 || f[3] != "0A" { // 0A: LISTEN
				continue
			}
			host, p, ok := strings.Cut(f[1], ":")
			if n, err := strconv.ParseInt(p, 16, 32); !ok || err != nil || int(n) != port {
				continue
			}
			out = append(out, procAddr(host))
		}
	}
	return out
}

// procAddr reads an address of /proc/net/tcp{,6}: hex, each 32-bit word in
// host (little-endian) order.
func procAddr(h string) string {
	b, err := hex.DecodeString(h)
	if err != nil || len(b)%4 != 0 {
		return h
	}
	for i := 0; i < len(b); i += 4 {
		b[i], b[i+1], b[i+2], b[i+3] = b[i+3], b[i+2], b[i+1], b[i]
	}
	return net.IP(b).String()
}
