package cluster

import (
	"cmp"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/prodlab/prodlab/internal/proc"
	"github.com/prodlab/prodlab/internal/testtier"
)

// readyBound is the readiness time past which startCluster notes a slow
// start (the targets with a warm cache are 10s for one node and 20s for
// three); it fails nothing: the start's 3-minute context is the hang guard.
const readyBound = 60 * time.Second

// startCluster starts an embedded cluster for a test, logs how long it took
// to become ready, and stops it when the test ends.
func startCluster(t *testing.T, cfg Config) *Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("starts real Kafka brokers")
	}
	if cfg.Dir == "" {
		cfg.Dir = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// Resolve first, so the readiness figure excludes a cold Maven cache.
	if _, err := resolveDist(ctx, cmp.Or(cfg.Kafka, DefaultKafka)); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	c, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	t.Cleanup(func() {
		stopStart := time.Now()
		if err := c.Stop(); err != nil {
			t.Errorf("stop: %v", err)
		}
		t.Logf("%d-node cluster stopped in %v", cfg.Brokers, time.Since(stopStart).Round(time.Millisecond))
	})
	t.Logf("%d-node cluster ready in %v (warm cache): %v", cfg.Brokers, elapsed.Round(time.Millisecond), c.Bootstrap())
	if elapsed > readyBound {
		t.Logf("slow start: %d-node cluster took %v to become ready (target under %v)", cfg.Brokers, elapsed, readyBound)
	}
	return c
}

// metadataIDs asks the broker at addr itself (not any other) which brokers
// the cluster metadata lists.
func metadataIDs(ctx context.Context, addr string) ([]int, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.DialTimeout(time.Second))
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req := kmsg.NewPtrMetadataRequest()
	req.Topics = []kmsg.MetadataRequestTopic{}
	resp, err := req.RequestWith(ctx, cl.SeedBrokers()[0])
	if err != nil {
		return nil, err
	}
	var ids []int
	for _, b := range resp.Brokers {
		ids = append(ids, int(b.NodeID))
	}
	slices.Sort(ids)
	return ids, nil
}

// eventually polls cond every 100ms until it holds or d passes.
func eventually(t *testing.T, d time.Duration, what string, cond func() (bool, string)) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		ok, detail := cond()
		if ok {
			return time.Since(start)
		}
		if time.Since(start) > d {
			t.Fatalf("%s: not within %v (%s)", what, d, detail)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// procState returns the state letter of pid from /proc (R, S, T, Z, ...).
func procState(pid int) string {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "gone"
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return s[i+2 : i+3]
}

// TestThreeNodes starts one 3-node cluster and shares it between the
// checks that need several brokers.
func TestThreeNodes(t *testing.T) {
	testtier.Shared(t)
	c := startCluster(t, Config{
		Brokers: 3,
		// Fence a dead broker within a few seconds, so that the kill test
		// can see it leave the metadata without a long wait.
		ExtraProps: map[string]string{
			"broker.heartbeat.interval.ms": "500",
			"broker.session.timeout.ms":    "3000",
		},
	})
	ctx := context.Background()
	brokers := c.Brokers()

	t.Run("ready", func(t *testing.T) {
		if len(brokers) != 3 {
			t.Fatalf("Brokers() = %+v, want 3", brokers)
		}
		for _, b := range brokers {
			if !strings.HasPrefix(b.Addr, "127.0.0.1:") || b.Advertised != b.Addr || !proc.Alive(b.PID) {
				t.Errorf("broker %+v: want a live process on 127.0.0.1 advertising its own address", b)
			}
			ids, err := metadataIDs(ctx, b.Addr)
			if err != nil || !slices.Equal(ids, []int{1, 2, 3}) {
				t.Errorf("broker %d metadata = %v, %v; want [1 2 3]", b.ID, ids, err)
			}
		}
		if c.Version() != DefaultKafka {
			t.Errorf("Version() = %q, want %q", c.Version(), DefaultKafka)
		}
		log, err := os.ReadFile(c.nodes[0].logPath)
		if err != nil || !strings.Contains(string(log), "Kafka Server started") {
			t.Errorf("broker-1.log lacks the broker's own log lines (slf4j binding missing?): %v", err)
		}
	})

	// A node whose port another cluster's broker answers on (it bound the
	// port between prodlab choosing it and the node binding it) is not
	// ready, however complete that broker's metadata; the same probe with
	// this cluster's id is.
	t.Run("readiness knows its own cluster", func(t *testing.T) {
		n := newNode(t.TempDir(), c.nodes[1].spec)
		n.done = make(chan struct{}) // "running"
		cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(n.spec.Addr())}, c.ClientOpts()...)...)
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		p := &probe{node: n, client: cl}
		// One answer, however long a loaded machine takes to give it (a
		// request that times out is asked again, for at most a minute).
		deadline := time.Now().Add(time.Minute)
		for err = p.check(ctx, []int{1, 2, 3}, "a-foreign-cluster-id"); err != nil && strings.Contains(err.Error(), "metadata request") && time.Now().Before(deadline); {
			err = p.check(ctx, []int{1, 2, 3}, "a-foreign-cluster-id")
		}
		if err == nil || !strings.Contains(err.Error(), "not this one") {
			t.Errorf("probe with a foreign cluster id = %v, want 'not this one'", err)
		}
		if err := waitReady(ctx, time.Minute, []*node{n}, []int{1, 2, 3}, c.clusterID, c.ClientOpts()...); err != nil {
			t.Errorf("waitReady with the cluster's own id: %v", err)
		}
	})

	// Before the kill tests, on the cluster as it is fresh: the gap between
	// trials was 5 s here when the readiness probe read kgo's cached
	// metadata (a broker's early UNKNOWN_TOPIC_OR_PARTITION kept for the
	// cache's 5 s minimum age).
	t.Run("admin rounds", func(t *testing.T) {
		adminRounds(t, c.Bootstrap(), 10, 3, 3)
	})

	t.Run("kill and restart", func(t *testing.T) {
		victim := brokers[2]
		if err := c.Kill(victim.ID); err != nil {
			t.Fatal(err)
		}
		if proc.Alive(victim.PID) {
			t.Fatalf("broker %d (pid %d) alive after Kill", victim.ID, victim.PID)
		}
		if err := c.Kill(victim.ID); err == nil {
			t.Error("Kill of a dead broker succeeded, want an error")
		}
		if d := c.Describe(victim.ID); !strings.Contains(d, "is not running") || !strings.Contains(d, "broker-3.log") {
			t.Errorf("Describe of a killed broker = %q, want its state and log", d)
		}
		if d := c.Describe(1); !strings.Contains(d, "is running") {
			t.Errorf("Describe of a live broker = %q, want 'is running'", d)
		}
		fenced := eventually(t, 30*time.Second, "killed broker leaves the metadata", func() (bool, string) {
			ids, err := metadataIDs(ctx, brokers[0].Addr)
			return err == nil && slices.Equal(ids, []int{1, 2}), fmt.Sprint(ids, err)
		})
		t.Logf("killed broker fenced after %v", fenced.Round(time.Millisecond))
		start := time.Now()
		if err := c.Restart(ctx, victim.ID); err != nil {
			t.Fatal(err)
		}
		t.Logf("broker %d back in the metadata %v after Restart", victim.ID, time.Since(start).Round(time.Millisecond))
		now := c.Brokers()[2]
		if now.PID == victim.PID || !proc.Alive(now.PID) || now.Addr != victim.Addr {
			t.Errorf("after restart broker = %+v, want a new live process on %s", now, victim.Addr)
		}
		for _, b := range c.Brokers() {
			ids, err := metadataIDs(ctx, b.Addr)
			if err != nil || !slices.Equal(ids, []int{1, 2, 3}) {
				t.Errorf("broker %d metadata after restart = %v, %v; want [1 2 3]", b.ID, ids, err)
			}
		}
		if err := c.Restart(ctx, victim.ID); err == nil {
			t.Error("Restart of a running broker succeeded, want an error")
		}
	})

	t.Run("pause and resume", func(t *testing.T) {
		b := c.Brokers()[1]
		if err := c.Pause(b.ID); err != nil {
			t.Fatal(err)
		}
		// SIGSTOP takes effect asynchronously.
		eventually(t, 10*time.Second, "paused broker stopped", func() (bool, string) {
			s := procState(b.PID)
			return s == "T", "state " + s
		})
		if ids, err := metadataIDs(ctx, b.Addr); err == nil {
			t.Errorf("paused broker answered metadata %v, want a timeout", ids)
		}
		if err := c.Resume(b.ID); err != nil {
			t.Fatal(err)
		}
		eventually(t, 10*time.Second, "resumed broker running", func() (bool, string) {
			s := procState(b.PID)
			return s != "T", "state " + s
		})
		eventually(t, 30*time.Second, "resumed broker answers", func() (bool, string) {
			ids, err := metadataIDs(ctx, b.Addr)
			return err == nil && len(ids) == 3, fmt.Sprint(ids, err)
		})
	})

	t.Run("shutdown", func(t *testing.T) {
		b := c.Brokers()[0]
		start := time.Now()
		if err := c.Shutdown(b.ID); err != nil {
			t.Fatal(err)
		}
		t.Logf("clean shutdown of broker %d took %v", b.ID, time.Since(start).Round(time.Millisecond))
		if proc.Alive(b.PID) {
			t.Errorf("broker %d alive after Shutdown", b.ID)
		}
		if slices.Contains(proc.Registered(), b.PID) {
			t.Errorf("broker %d still in the proc registry after it exited", b.ID)
		}
	})
}

// TestOneNodeDetached starts a detached single node, reads it back as an
// external cluster and through a state file, and stops it from the state,
// as `prodlab cluster up`, `status` and `down` do.
func TestOneNodeDetached(t *testing.T) {
	testtier.Shared(t)
	c := startCluster(t, Config{Brokers: 1, Detached: true})
	b := c.Brokers()[0]
	if slices.Contains(proc.Registered(), b.PID) {
		t.Error("a detached broker is in the proc registry")
	}
	ctx := context.Background()

	ext, err := Connect(ctx, c.Bootstrap())
	if err != nil {
		t.Fatal(err)
	}
	if got := ext.Brokers(); len(got) != 1 || got[0].ID != 1 || got[0].Addr != b.Advertised {
		t.Errorf("Connect brokers = %+v, want broker 1 at %s", got, b.Advertised)
	}
	if !strings.Contains(ext.Version(), "4") {
		t.Errorf("Connect version guess = %q, want something naming 4.x", ext.Version())
	}
	t.Logf("external version guess: %q", ext.Version())
	adminRounds(t, c.Bootstrap(), 10, 3, 1)
	if err := ext.Kill(1); err == nil || !strings.Contains(err.Error(), "not an embedded cluster") {
		t.Errorf("Kill on a connected cluster = %v, want a not-embedded error", err)
	}

	path := t.TempDir() + "/cluster.json"
	if err := SaveState(path, c); err != nil {
		t.Fatal(err)
	}
	s, err := LoadState(path)
	if err != nil {
		t.Fatal(err)
	}
	if live := s.LiveBrokers(); len(live) != 1 || live[0].PID != b.PID {
		t.Fatalf("LiveBrokers = %+v, want broker pid %d", live, b.PID)
	}
	if err := StopState(s); err != nil {
		t.Fatal(err)
	}
	eventually(t, 15*time.Second, "broker stopped by StopState", func() (bool, string) {
		return !proc.Alive(b.PID), procState(b.PID)
	})
	if live := s.LiveBrokers(); len(live) != 0 {
		t.Errorf("LiveBrokers after StopState = %+v", live)
	}
}

// TestStartFailureCarriesLogTail checks that a broker that cannot start
// fails Start quickly with its own log lines, and leaves nothing running.
func TestStartFailureCarriesLogTail(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real Kafka brokers")
	}
	// An invalid value makes the broker exit during start-up.
	root := t.TempDir()
	_, err := Start(context.Background(), Config{Brokers: 1, Dir: t.TempDir(), DataRoot: root,
		ExtraProps: map[string]string{"num.io.threads": "not-a-number"}})
	if err == nil {
		t.Fatal("Start succeeded with an invalid broker property")
	}
	if !strings.Contains(err.Error(), "num.io.threads") {
		t.Errorf("error does not carry the broker's complaint:\n%v", err)
	}
	if n := len(proc.Registered()); n != 0 {
		t.Errorf("%d processes left registered after a failed Start", n)
	}
	if left, _ := os.ReadDir(root); len(left) != 0 {
		t.Errorf("a failed Start left %d directories in its data root", len(left))
	}
}

// TestDataRootInMemory: with DataRoot set to the tmpfs of storage: memory,
// the brokers' log.dirs live there, in the cluster's own directory, and
// Stop removes it (even though the cluster's data was not removed).
func TestDataRootInMemory(t *testing.T) {
	testtier.Shared(t)
	if testing.Short() {
		t.Skip("starts real Kafka brokers")
	}
	if err := CheckDataRoot(MemoryRoot); err != nil {
		t.Skip(err)
	}
	c := startCluster(t, Config{Brokers: 1, DataRoot: MemoryRoot})
	dir := c.dataRoot
	if !strings.HasPrefix(dir, MemoryRoot+"/prodlab-") {
		t.Fatalf("data root %q, want under %s", dir, MemoryRoot)
	}
	if _, err := os.Stat(filepath.Join(dir, "node-1", "meta.properties")); err != nil {
		t.Errorf("the broker's storage is not in the data root: %v", err)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Stop left %s (%v)", dir, err)
	}
}

// TestDirectListener advertises every broker's client listener at an
// address nobody listens on, as a proxy that is not there: a client that
// bootstraps from DirectBootstrap must still produce, which it can only do
// if the DIRECT listener's metadata names the DIRECT addresses.
func TestDirectListener(t *testing.T) {
	testtier.Shared(t)
	dead, release, err := freePorts(1)
	if err != nil {
		t.Fatal(err)
	}
	release() // nobody listens there
	c := startCluster(t, Config{Brokers: 1, Advertise: func(int, string) string { return fmt.Sprintf("127.0.0.1:%d", dead[0]) }})
	direct := c.DirectBootstrap()
	if len(direct) != 1 || slices.Contains(c.Bootstrap(), direct[0]) {
		t.Fatalf("DirectBootstrap() = %v beside Bootstrap() = %v, want one address of its own", direct, c.Bootstrap())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a, err := NewAdmin(direct)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := a.CreateTopic(ctx, "sec", 1, 1, nil); err != nil {
		t.Fatalf("create topic through DIRECT: %v", err)
	}
	if err := produceOne(ctx, direct); err != nil {
		t.Fatalf("produce through DIRECT: %v", err)
	}
}

// TestStartRetriesOnBindError makes the first attempt's client port taken,
// as if another program grabbed it after it was chosen: the broker exits
// with a bind error and Start must retry once with new ports.
func TestStartRetriesOnBindError(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real Kafka brokers")
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	calls := 0
	pickPorts = func(n int) ([]int, func(), error) {
		calls++
		ports, release, err := freePorts(n)
		if err == nil && calls == 1 {
			ports[0] = taken.Addr().(*net.TCPAddr).Port
		}
		return ports, release, err
	}
	t.Cleanup(func() { pickPorts = freePorts })
	c := startCluster(t, Config{Brokers: 1})
	if calls != 2 {
		t.Errorf("ports chosen %d times, want 2 (one retry)", calls)
	}
	if c.Brokers()[0].Addr == taken.Addr().String() {
		t.Error("the retry kept the taken port")
	}
	log, _ := os.ReadFile(c.nodes[0].logPath)
	if !isBindError(string(log)) {
		t.Error("broker log does not show the first attempt's bind error")
	}
}

// TestBrokerJVMOpts: the options of PRODLAB_BROKER_JVM_OPTS reach the
// broker's JVM, after prodlab's own (so they can override them). Not in
// parallel: it sets the environment every broker start reads.
func TestBrokerJVMOpts(t *testing.T) {
	t.Setenv(BrokerJVMOptsEnv, " -XX:TieredStopAtLevel=1   -Dprodlab.jvmopts.test=1 ")
	c := startCluster(t, Config{Brokers: 1})
	pid, _ := c.nodes[0].state()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Split(string(b), "\x00")
	own, added := slices.Index(args, "-XX:+UseG1GC"), slices.Index(args, "-Dprodlab.jvmopts.test=1")
	if own < 0 || added < 0 || added < own || !slices.Contains(args, "-XX:TieredStopAtLevel=1") {
		t.Errorf("broker command line %q: want prodlab's options, then -XX:TieredStopAtLevel=1 -Dprodlab.jvmopts.test=1", args)
	}
}
