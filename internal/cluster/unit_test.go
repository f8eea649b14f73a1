package cluster

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// props parses rendered server.properties back into a map.
func props(t *testing.T, text string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("malformed line %q", line)
		}
		m[k] = v
	}
	return m
}

func specs(n int) []nodeSpec {
	out := make([]nodeSpec, n)
	for i := range out {
		out[i] = nodeSpec{ID: i + 1, ClientPort: 19092 + 10*i, ControllerPort: 19093 + 10*i, Repl: []replListener{{Name: "REPLICATION", Port: 19094 + 10*i}}, DataDir: "/run/node-" + string(rune('1'+i)) + "/data"}
		out[i].Advertised = out[i].Addr()
	}
	return out
}

func TestBrokerProps(t *testing.T) {
	cases := []struct {
		name  string
		nodes []nodeSpec
		self  int // index into nodes
		extra map[string]string
		want  map[string]string
	}{
		{
			name:  "single node, the configuration verified by hand",
			nodes: specs(1),
			want: map[string]string{
				"process.roles":                            "broker,controller",
				"node.id":                                  "1",
				"controller.quorum.voters":                 "1@127.0.0.1:19093",
				"listeners":                                "PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093,REPLICATION://127.0.0.1:19094",
				"advertised.listeners":                     "PLAINTEXT://127.0.0.1:19092,REPLICATION://127.0.0.1:19094",
				"controller.listener.names":                "CONTROLLER",
				"listener.security.protocol.map":           "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,REPLICATION:PLAINTEXT",
				"inter.broker.listener.name":               "REPLICATION",
				"log.dirs":                                 "/run/node-1/data",
				"offsets.topic.replication.factor":         "1",
				"transaction.state.log.replication.factor": "1",
				"transaction.state.log.min.isr":            "1",
				"group.initial.rebalance.delay.ms":         "0",
				"auto.create.topics.enable":                "false",
			},
		},
		{
			name:  "three nodes: all voters, own listeners, replication factor 3",
			nodes: specs(3),
			self:  1,
			want: map[string]string{
				"node.id":                          "2",
				"controller.quorum.voters":         "1@127.0.0.1:19093,2@127.0.0.1:19103,3@127.0.0.1:19113",
				"listeners":                        "PLAINTEXT://127.0.0.1:19102,CONTROLLER://127.0.0.1:19103,REPLICATION://127.0.0.1:19104",
				"advertised.listeners":             "PLAINTEXT://127.0.0.1:19102,REPLICATION://127.0.0.1:19104",
				"log.dirs":                         "/run/node-2/data",
				"offsets.topic.replication.factor": "3",
			},
		},
		{
			name: "advertised address differs from the listener (netem proxy)",
			nodes: func() []nodeSpec {
				s := specs(1)
				s[0].Advertised = "127.0.0.1:30001"
				return s
			}(),
			want: map[string]string{
				// Clients see the proxy; replication stays on its direct listener.
				"listeners":            "PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093,REPLICATION://127.0.0.1:19094",
				"advertised.listeners": "PLAINTEXT://127.0.0.1:30001,REPLICATION://127.0.0.1:19094",
			},
		},
		{
			name: "behind a proxy with a DIRECT listener, advertised at its own address",
			nodes: func() []nodeSpec {
				s := specs(1)
				s[0].Advertised, s[0].DirectPort = "127.0.0.1:30001", 19095
				return s
			}(),
			want: map[string]string{
				"listeners":                      "PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093,REPLICATION://127.0.0.1:19094,DIRECT://127.0.0.1:19095",
				"advertised.listeners":           "PLAINTEXT://127.0.0.1:30001,REPLICATION://127.0.0.1:19094,DIRECT://127.0.0.1:19095",
				"listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,REPLICATION:PLAINTEXT,DIRECT:PLAINTEXT",
			},
		},
		{
			name: "a broker-only node keeps its DIRECT listener",
			nodes: func() []nodeSpec {
				s := withControllers(specs(3), 1)
				s[0].DirectPort = 19095
				return s
			}(),
			want: map[string]string{
				"listeners": "PLAINTEXT://127.0.0.1:19092,REPLICATION://127.0.0.1:19094,DIRECT://127.0.0.1:19095",
			},
		},
		{
			name: "replication through its own proxy (network.replication.rtt.ms)",
			nodes: func() []nodeSpec {
				s := specs(1)
				s[0].Repl[0].Advertised = "127.0.0.1:30002"
				return s
			}(),
			want: map[string]string{
				"advertised.listeners": "PLAINTEXT://127.0.0.1:19092,REPLICATION://127.0.0.1:30002",
			},
		},
		{
			name:  "separate controllers: a broker-only node votes not, registers with the controllers",
			nodes: withControllers(specs(3), 1),
			self:  0,
			want: map[string]string{
				"process.roles":                    "broker",
				"controller.quorum.voters":         "3@127.0.0.1:19113",
				"listeners":                        "PLAINTEXT://127.0.0.1:19092,REPLICATION://127.0.0.1:19094",
				"offsets.topic.replication.factor": "2",
			},
		},
		{
			name:  "separate controllers: a controller-only node has only its controller listener",
			nodes: withControllers(specs(3), 1),
			self:  2,
			want: map[string]string{
				"process.roles":                  "controller",
				"controller.quorum.voters":       "3@127.0.0.1:19113",
				"listeners":                      "CONTROLLER://127.0.0.1:19113",
				"listener.security.protocol.map": "CONTROLLER:PLAINTEXT",
				"advertised.listeners":           "",
				"inter.broker.listener.name":     "",
			},
		},
		{
			name:  "extra properties override prodlab's and add new ones",
			nodes: specs(1),
			extra: map[string]string{"num.io.threads": "8", "message.max.bytes": "2097152"},
			want:  map[string]string{"num.io.threads": "8", "message.max.bytes": "2097152"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := props(t, renderProps(brokerProps(tc.nodes, tc.nodes[tc.self], tc.extra)))
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
			for k, v := range got {
				if strings.Contains(v, "0.0.0.0") || strings.Contains(v, "localhost") {
					t.Errorf("%s = %q binds beyond 127.0.0.1", k, v)
				}
			}
		})
	}
}

func TestRenderPropsSortedAndEscaped(t *testing.T) {
	got := renderProps(map[string]string{"b": `C:\data`, "a": "x\ny"})
	want := "# Written by prodlab for an embedded KRaft node.\na=x\\ny\nb=C:\\\\data\n"
	if got != want {
		t.Errorf("renderProps = %q, want %q", got, want)
	}
}

// TestClusterID draws 2000 ids: with 1 in 64 base64url strings starting
// with '-', an id the storage tool would take for an option shows up here
// unless newClusterID rules it out (the chance of missing it is 1e-14).
func TestClusterID(t *testing.T) {
	seen := map[string]bool{}
	for range 2000 {
		id, err := newClusterID()
		if err != nil {
			t.Fatal(err)
		}
		if len(id) != 22 {
			t.Fatalf("cluster id %q has %d characters, want 22", id, len(id))
		}
		raw, err := base64.RawURLEncoding.DecodeString(id)
		if err != nil || len(raw) != 16 {
			t.Fatalf("cluster id %q is not 16 bytes of unpadded base64url: %v", id, err)
		}
		if id[0] == '-' {
			t.Fatalf("cluster id %q starts with '-': kafka-storage format would read it as an option", id)
		}
		if seen[id] {
			t.Fatalf("cluster id %q repeated", id)
		}
		seen[id] = true
	}
}

func TestNormalize(t *testing.T) {
	dist := t.TempDir()
	if err := os.Mkdir(filepath.Join(dist, "libs"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		cfg     Config
		wantErr string // substring; "" for success
	}{
		{"one broker, default Kafka", Config{Brokers: 1, Dir: "d"}, ""},
		{"three brokers", Config{Brokers: 3, Dir: "d", Kafka: "3.9.1"}, ""},
		{"zero brokers", Config{Brokers: 0, Dir: "d"}, "want 1 to 9"},
		{"negative brokers", Config{Brokers: -1, Dir: "d"}, "want 1 to 9"},
		{"ten brokers", Config{Brokers: 10, Dir: "d"}, "want 1 to 9"},
		{"six controllers", Config{Brokers: 1, Controllers: 6, Dir: "d"}, "want 0 to 5"},
		{"local distribution", Config{Brokers: 1, Dir: "d", Kafka: dist}, ""},
		{"neither version nor distribution", Config{Brokers: 1, Dir: "d", Kafka: "latest"}, "neither a release version"},
		{"no directory", Config{Brokers: 1}, "cluster directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.cfg.normalize()
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("normalize() error = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.cfg.Kafka == "" && got.Kafka != DefaultKafka {
				t.Errorf("Kafka = %q, want default %q", got.Kafka, DefaultKafka)
			}
			if !filepath.IsAbs(got.Dir) || got.ReadyTimeout <= 0 || got.StopGrace <= 0 {
				t.Errorf("defaults not filled in: %+v", got)
			}
		})
	}
}

func TestVersionFromJars(t *testing.T) {
	cases := []struct {
		name  string
		files []string
		want  string
	}{
		{"distribution 4.3.0", []string{"kafka_2.13-4.3.0.jar", "kafka_2.13-4.3.0-test.jar", "kafka-clients-4.3.0.jar"}, "4.3.0"},
		{"test jar sorts first", []string{"kafka_2.13-3.9.1-sources.jar", "kafka_2.13-3.9.1.jar"}, "3.9.1"},
		{"scala 2.12 build", []string{"kafka_2.12-3.6.0.jar"}, "3.6.0"},
		{"no broker jar", []string{"kafka-clients-4.3.0.jar"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := versionFromJars(dir); got != tc.want {
				t.Errorf("versionFromJars = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestIsRelease(t *testing.T) {
	for in, want := range map[string]bool{
		"4.3.0": true, "3.9.1": true, "4.0.0-rc1": true,
		"4.3": false, "/opt/kafka": false, "./kafka_2.13-4.3.0": false, "": false,
	} {
		if got := isRelease(in); got != want {
			t.Errorf("isRelease(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestFreePortsHeldUntilRelease: the ports differ, lie below the kernel's
// ephemeral range, and nobody else can bind them (a proxy binding port 0,
// say) until release; then a node can.
func TestFreePortsHeldUntilRelease(t *testing.T) {
	ports, release, err := freePorts(6)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	lo, hi := portsBelow()
	for _, p := range ports {
		if p <= 0 || seen[p] {
			t.Fatalf("ports %v: want 6 distinct positive ports", ports)
		}
		seen[p] = true
		// Below the ephemeral range: no outgoing connection (a proxy
		// dialing the stopped broker, even to itself) can take the port
		// while a fault has the broker down.
		if hi-lo >= 1000 && (p < lo || p >= hi) {
			t.Errorf("port %d outside [%d, %d), the range below the kernel's ephemeral ports", p, lo, hi)
		}
	}
	addr := fmt.Sprintf("%s:%d", loopback, ports[0])
	if l, err := net.Listen("tcp", addr); err == nil {
		_ = l.Close()
		t.Fatalf("bound %s before release: the port was not held", addr)
	}
	release()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("bind %s after release: %v", addr, err)
	}
	_ = l.Close()
}

func TestIsBindError(t *testing.T) {
	cases := []struct {
		log  string
		want bool
	}{
		{"org.apache.kafka.common.KafkaException: Socket server failed to bind to 127.0.0.1:1: Address already in use.", true},
		{"Caused by: java.net.BindException: Address already in use", true},
		{"INFO [KafkaRaftServer nodeId=1] Kafka Server started", false},
	}
	for _, tc := range cases {
		if got := isBindError(tc.log); got != tc.want {
			t.Errorf("isBindError(%q) = %v, want %v", tc.log, got, tc.want)
		}
	}
}

func TestExternalClusterRefusesProcessControl(t *testing.T) {
	c := &Cluster{external: true, bootstrap: []string{"kafka:9092"}}
	if err := c.Stop(); err != nil {
		t.Errorf("Stop on an external cluster = %v, want a no-op", err)
	}
	ops := map[string]error{
		"Kill":     c.Kill(1),
		"Pause":    c.Pause(1),
		"Resume":   c.Resume(1),
		"Shutdown": c.Shutdown(1),
		"Restart":  c.Restart(t.Context(), 1),
	}
	for name, err := range ops {
		if !errors.Is(err, errExternal) {
			t.Errorf("%s on an external cluster = %v, want %v", name, err, errExternal)
		}
	}
	if got := c.Bootstrap(); len(got) != 1 || got[0] != "kafka:9092" {
		t.Errorf("Bootstrap() = %v", got)
	}
}

func TestStateRoundTripAndForeignPIDs(t *testing.T) {
	dir := t.TempDir()
	// A live process that is not a broker of this cluster: StopState must
	// leave it alone even though its pid is in the state.
	sleeper := exec.Command("sleep", "30")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sleeper.Process.Kill(); _ = sleeper.Wait() })
	c := &Cluster{cfg: Config{Dir: dir}, version: "4.3.0", nodes: []*node{newNode(dir, nodeSpec{ID: 1, ClientPort: 1234, ControllerPort: 1235, Advertised: "127.0.0.1:1234"})}}
	path := filepath.Join(dir, "state", "cluster.json")
	if err := SaveState(path, c); err != nil {
		t.Fatal(err)
	}
	s, err := LoadState(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Version != "4.3.0" || s.Dir != dir || len(s.Bootstrap) != 1 || s.Bootstrap[0] != "127.0.0.1:1234" || len(s.Brokers) != 1 || s.Brokers[0].Addr != "127.0.0.1:1234" {
		t.Fatalf("LoadState = %+v", s)
	}
	s.Brokers[0].PID = sleeper.Process.Pid
	if live := s.LiveBrokers(); len(live) != 0 {
		t.Errorf("LiveBrokers counts a foreign process: %+v", live)
	}
	if err := StopState(s); err != nil {
		t.Fatal(err)
	}
	if err := sleeper.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("StopState signalled a process that is not a broker: %v", err)
	}
	if _, err := LoadState(filepath.Join(dir, "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadState(missing) = %v, want os.ErrNotExist", err)
	}
}

// TestWaitReadyTimeoutCarriesLogTail checks the timeout error of a node that
// runs but never answers: it names the node and carries the last 30 lines of
// its log, not more.
func TestWaitReadyTimeoutCarriesLogTail(t *testing.T) {
	dir := t.TempDir()
	ports, release, err := freePorts(2)
	if err != nil {
		t.Fatal(err)
	}
	release() // nothing listens there
	n := newNode(dir, nodeSpec{ID: 2, ClientPort: ports[0], ControllerPort: ports[1]})
	n.done = make(chan struct{}) // "running", never exits
	var log strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&log, "log line %d\n", i)
	}
	if err := os.WriteFile(n.logPath, []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	err = waitReady(t.Context(), 600*time.Millisecond, []*node{n}, []int{2}, "id")
	if err == nil {
		t.Fatal("waitReady succeeded with nothing listening")
	}
	msg := err.Error()
	for _, want := range []string{"node 2 not ready", "broker-2.log", "log line 40", "log line 11\n"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "log line 10\n") {
		t.Errorf("error carries more than %d log lines:\n%s", logTailLines, msg)
	}
	// A node whose process exited fails at once, without waiting.
	close(n.done)
	start := time.Now()
	err = waitReady(t.Context(), time.Minute, []*node{n}, []int{2}, "id")
	if err == nil || !strings.Contains(err.Error(), "exited") || time.Since(start) > 5*time.Second {
		t.Errorf("waitReady on an exited node = %v after %v, want a quick 'exited' error", err, time.Since(start))
	}
}

// withControllers makes the last n of nodes controllers and the others
// brokers only.
func withControllers(nodes []nodeSpec, n int) []nodeSpec {
	for i := range nodes {
		nodes[i].Role = roleBroker
		if i >= len(nodes)-n {
			nodes[i].Role = roleController
		}
	}
	return nodes
}

// TestReapDataRoots: a data root's directories of prodlab processes that
// are gone are removed; this process's, a live process's and anything not
// named by prodlab are kept.
func TestReapDataRoots(t *testing.T) {
	root := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{ // name → kept
		fmt.Sprintf("prodlab-%d-abc", dead.Process.Pid): false,
		fmt.Sprintf("prodlab-%d-abc", os.Getpid()):      true,
		fmt.Sprintf("prodlab-%d-abc", os.Getppid()):     true,
		"prodlab-x-abc": true,
		"other":         true,
	}
	for n := range names {
		if err := os.MkdirAll(filepath.Join(root, n, "node-1"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	reapDataRoots(root)
	for n, kept := range names {
		_, err := os.Stat(filepath.Join(root, n))
		if got := err == nil; got != kept {
			t.Errorf("%s kept = %v, want %v", n, got, kept)
		}
	}
}

// TestZoneProps lays three combined nodes over zones a, b, c with proxies
// for replication and controller traffic, as Start does, and checks node
// 2's configuration: its rack, a REPLICATION_<ZONE> listener per zone each
// advertised through the proxy of that zone's followers, fetching through
// its own zone's, and the other controllers through its zone's links.
func TestZoneProps(t *testing.T) {
	c := &Cluster{cfg: Config{Brokers: 3, Zones: []string{"a", "b", "c"},
		AdvertiseReplication: func(from string, id int, addr string) string { return fmt.Sprintf("repl-%s-%d", from, id) },
		AdvertiseController:  func(from string, id int, addr string) string { return fmt.Sprintf("ctl-%s-%d", from, id) },
	}}
	var nodes []nodeSpec
	for id := 1; id <= 3; id++ {
		b := 100 * id
		nodes = append(nodes, c.nodeSpec(id, []int{b, b + 1, b + 2, b + 3, b + 4}))
	}
	got := props(t, renderProps(brokerProps(nodes, nodes[1], nil)))
	want := map[string]string{
		"broker.rack":                    "b",
		"listeners":                      "PLAINTEXT://127.0.0.1:200,CONTROLLER://127.0.0.1:201,REPLICATION_A://127.0.0.1:202,REPLICATION_B://127.0.0.1:203,REPLICATION_C://127.0.0.1:204",
		"advertised.listeners":           "PLAINTEXT://127.0.0.1:200,REPLICATION_A://repl-a-2,REPLICATION_B://repl-b-2,REPLICATION_C://repl-c-2",
		"listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,REPLICATION_A:PLAINTEXT,REPLICATION_B:PLAINTEXT,REPLICATION_C:PLAINTEXT",
		"inter.broker.listener.name":     "REPLICATION_B",
		"controller.quorum.voters":       "1@ctl-b-1,2@127.0.0.1:201,3@ctl-b-3",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	for id, zone := range map[int]string{1: "a", 2: "b", 3: "c", 4: "a"} {
		if z := c.Zone(id); z != zone {
			t.Errorf("Zone(%d) = %q, want %q", id, z, zone)
		}
	}
}
