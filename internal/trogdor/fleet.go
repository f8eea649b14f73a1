package trogdor

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/prodlab/prodlab/internal/maven"
	"github.com/prodlab/prodlab/internal/proc"
)

// DefaultRelease is the trogdor release a fleet runs unless told otherwise;
// its kafka-clients is the client the agents' trials use.
const DefaultRelease = "4.3.1"

// MaxAgents bounds a local fleet: each agent is a JVM on this machine.
const MaxAgents = 8

// Java classes of Trogdor's daemons: prodlab's launcher
// (dev.prodlab.worker.trogdor.LoopbackDaemon), which does what Trogdor's
// own coordinator and agent mains do with the REST server on 127.0.0.1
// only (theirs listen on every interface), and the mains themselves, which
// fleets started by earlier prodlab versions run (ownsCmdline).
const (
	daemonMain      = "dev.prodlab.worker.trogdor.LoopbackDaemon"
	coordinatorMain = "org.apache.kafka.trogdor.coordinator.Coordinator"
	agentMain       = "org.apache.kafka.trogdor.agent.Agent"
)

// slf4jSimple gives the daemons a logger (trogdor brings slf4j-api 1.7).
const slf4jSimple = "org.slf4j:slf4j-simple:1.7.36"

// readyTimeout bounds how long a fleet may take to answer on every port.
const readyTimeout = 90 * time.Second

// Config describes a local fleet.
type Config struct {
	Agents    int    // number of agents, 1..MaxAgents
	Release   string // trogdor release from Maven Central; DefaultRelease when ""
	WorkerJar string // prodlab's worker jar, put on every daemon's class path
	// WorkerDir, when set, is the agents' $PRODLAB_WORKER_DIR: where they
	// find the franz-go and librdkafka workers (prodlab,
	// prodlab-librdkafka); by default the worker jar's directory.
	WorkerDir string
	Dir       string // where the config file and the logs go
	// Detached starts daemons that outlive prodlab (`trogdor up`); otherwise
	// they are registered with internal/proc and die with it.
	Detached bool
}

// Fleet is a running local fleet.
type Fleet struct {
	Release     string
	Dir         string
	Coordinator Node
	Agents      []Node
	cmds        []*exec.Cmd
	exited      []chan struct{}
	detached    bool
	workerDir   string
}

// URL is the coordinator's REST base URL.
func (f *Fleet) URL() string {
	return "http://" + net.JoinHostPort(Loopback, strconv.Itoa(f.Coordinator.Port))
}

// Start resolves the trogdor jars, writes the fleet's config file to
// cfg.Dir and starts the coordinator and the agents, returning once every
// one answers on its port. On any failure, what was started is stopped.
func Start(ctx context.Context, cfg Config) (*Fleet, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	classpath, err := classPath(ctx, cfg)
	if err != nil {
		return nil, err
	}
	java, err := javaPath()
	if err != nil {
		return nil, err
	}
	f, err := layout(cfg)
	if err != nil {
		return nil, err
	}
	if err := f.launch(java, classpath); err != nil {
		_ = f.Stop()
		return nil, err
	}
	if err := f.awaitReady(ctx); err != nil {
		_ = f.Stop()
		return nil, err
	}
	return f, nil
}

// check refuses a config Start cannot run (and fills in defaults: the
// release, an absolute Dir).
func (cfg *Config) check() error {
	if cfg.Agents < 1 || cfg.Agents > MaxAgents {
		return fmt.Errorf("trogdor fleet: agents must be between 1 and %d, got %d", MaxAgents, cfg.Agents)
	}
	if cfg.Release == "" {
		cfg.Release = DefaultRelease
	}
	if err := CheckRelease(cfg.Release); err != nil {
		return fmt.Errorf("trogdor fleet: %w", err)
	}
	if cfg.Dir == "" {
		return errors.New("trogdor fleet: no directory given")
	}
	// The daemons run in Dir and read the config file by its path: a
	// relative --dir would name another file there.
	abs, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return fmt.Errorf("trogdor fleet dir: %w", err)
	}
	cfg.Dir = abs
	if _, err := os.Stat(cfg.WorkerJar); err != nil {
		return fmt.Errorf("trogdor fleet: prodlab worker jar (build it with 'make bin/prodlab-worker.jar'): %w", err)
	}
	return nil
}

// Planned is what Start would start for a config, worked out without
// starting it: for `prodlab trogdor up --dry-run`.
type Planned struct {
	// Config is checked, with the release and an absolute Dir filled in.
	Config
	// Coordinator and Agents are the nodes' names; Start picks their
	// ports free on Loopback when it starts them.
	Coordinator string
	Agents      []string
	// Cached reports whether the release's jars are in prodlab's cache;
	// otherwise Start downloads them (mvn).
	Cached bool
}

// Plan checks cfg as Start does and names what Start would start,
// without resolving, writing or starting anything.
func Plan(cfg Config) (Planned, error) {
	if err := cfg.check(); err != nil {
		return Planned{}, err
	}
	key, coords := artifacts(cfg.Release)
	p := Planned{Config: cfg, Coordinator: CoordinatorName, Cached: maven.Cached(key, coords...)}
	for i := 1; i <= cfg.Agents; i++ {
		p.Agents = append(p.Agents, AgentName(i))
	}
	return p, nil
}

// CheckRelease refuses a trogdor release prodlab's task cannot run on,
// for a local fleet and for the agents of any fleet: not a release
// number, or older than 3.0, the oldest whose task API the task is built
// for.
func CheckRelease(release string) error {
	v, ok := maven.ParseVersion(release)
	if !ok {
		return fmt.Errorf("release %q is not a Kafka release number such as %s", release, DefaultRelease)
	}
	if !v.AtLeast(3, 0) {
		return fmt.Errorf("release %s is older than 3.0, the oldest whose task API prodlab's task is built for (tested on 3.9.1 and %s)", release, DefaultRelease)
	}
	return nil
}

// artifacts are the cache key and the Maven artifacts of a trogdor
// release's daemons.
func artifacts(release string) (key string, coords []string) {
	return "trogdor-" + release, []string{"org.apache.kafka:trogdor:" + release, slf4jSimple}
}

// classPath is the trogdor release's jars (resolved and cached), then the
// worker jar.
func classPath(ctx context.Context, cfg Config) (string, error) {
	key, coords := artifacts(cfg.Release)
	jars, err := maven.Resolve(ctx, key, coords...)
	if err != nil {
		return "", fmt.Errorf("resolve trogdor %s: %w", cfg.Release, err)
	}
	worker, err := filepath.Abs(cfg.WorkerJar)
	if err != nil {
		return "", fmt.Errorf("worker jar: %w", err)
	}
	return strings.Join(append(jars, worker), string(os.PathListSeparator)), nil
}

// layout chooses the ports and names and writes the config file.
func layout(cfg Config) (*Fleet, error) {
	ports, err := freePorts(cfg.Agents + 1)
	if err != nil {
		return nil, err
	}
	f := &Fleet{Release: cfg.Release, Dir: cfg.Dir, detached: cfg.Detached, workerDir: cfg.WorkerDir,
		Coordinator: Node{Name: CoordinatorName, Port: ports[0]}}
	for i := 1; i <= cfg.Agents; i++ {
		f.Agents = append(f.Agents, Node{Name: AgentName(i), Port: ports[i]})
	}
	data, err := platformConfig(f.Coordinator, f.Agents)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("trogdor fleet dir: %w", err)
	}
	if err := os.WriteFile(f.configPath(), data, 0o644); err != nil {
		return nil, fmt.Errorf("write trogdor config: %w", err)
	}
	return f, nil
}

func (f *Fleet) configPath() string { return filepath.Join(f.Dir, "trogdor.json") }

// launch starts the coordinator, then every agent.
func (f *Fleet) launch(java, classpath string) error {
	if err := f.startNode(java, classpath, "coordinator", &f.Coordinator); err != nil {
		return err
	}
	for i := range f.Agents {
		if err := f.startNode(java, classpath, "agent", &f.Agents[i]); err != nil {
			return err
		}
	}
	return nil
}

// startNode starts one daemon (role coordinator or agent) with its log in
// Dir/<name>.log.
func (f *Fleet) startNode(java, classpath, role string, n *Node) error {
	n.Log = filepath.Join(f.Dir, n.Name+".log")
	log, err := os.Create(n.Log)
	if err != nil {
		return fmt.Errorf("trogdor %s log: %w", n.Name, err)
	}
	defer log.Close()
	cmd := exec.Command(java, "-Xmx512m", "-Dorg.slf4j.simpleLogger.showDateTime=true",
		"-cp", classpath, daemonMain, role, f.configPath(), n.Name)
	cmd.Dir = f.Dir
	if f.workerDir != "" {
		cmd.Env = append(os.Environ(), "PRODLAB_WORKER_DIR="+f.workerDir)
	}
	cmd.Stdout, cmd.Stderr = log, log
	start := proc.Start
	if f.detached {
		start = proc.StartDetached
	}
	if err := start(cmd); err != nil {
		return fmt.Errorf("start trogdor %s: %w", n.Name, err)
	}
	n.PID = cmd.Process.Pid
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	f.cmds = append(f.cmds, cmd)
	f.exited = append(f.exited, done)
	return nil
}

// awaitReady waits until every node accepts connections on its port, and
// fails at once, with the end of its log, when one exits.
func (f *Fleet) awaitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	for i, n := range f.Nodes() {
		if err := waitPort(ctx, n, f.exited[i]); err != nil {
			return err
		}
	}
	return nil
}

// Nodes is the coordinator followed by the agents.
func (f *Fleet) Nodes() []Node { return append([]Node{f.Coordinator}, f.Agents...) }

// waitPort polls n's port until it accepts a connection.
func waitPort(ctx context.Context, n Node, exited <-chan struct{}) error {
	addr := net.JoinHostPort(Loopback, strconv.Itoa(n.Port))
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			_ = c.Close()
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("trogdor %s exited before listening on %s: %s", n.Name, addr, logTail(n.Log))
		case <-ctx.Done():
			return fmt.Errorf("trogdor %s did not listen on %s: %w; log %s", n.Name, addr, ctx.Err(), n.Log)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// logTail is the last lines of a log file, for an error message.
func logTail(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "no log: " + err.Error()
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return strings.Join(lines, " | ")
}

// Stop stops every daemon of a fleet started by Start: SIGTERM, then
// SIGKILL after the grace period. A detached fleet is stopped the same way.
func (f *Fleet) Stop() error {
	for _, c := range f.cmds {
		_ = proc.Signal(c.Process.Pid, syscall.SIGTERM)
	}
	var errs []error
	for i, c := range f.cmds {
		select {
		case <-f.exited[i]:
		case <-time.After(stopGrace):
			_ = proc.Signal(c.Process.Pid, syscall.SIGKILL)
			select {
			case <-f.exited[i]:
			case <-time.After(5 * time.Second):
				errs = append(errs, fmt.Errorf("trogdor pid %d still running after SIGKILL", c.Process.Pid))
			}
		}
		proc.Forget(c.Process.Pid)
	}
	f.cmds, f.exited = nil, nil
	return errors.Join(errs...)
}

// stopGrace is how long a daemon gets to exit after SIGTERM.
const stopGrace = 10 * time.Second

// freePorts returns n distinct free TCP ports on the loopback address (all
// held open until every one is chosen).
func freePorts(n int) ([]int, error) {
	var ports []int
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			_ = l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", net.JoinHostPort(Loopback, "0"))
		if err != nil {
			return nil, fmt.Errorf("find a free port on %s: %w", Loopback, err)
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// javaPath returns $JAVA_HOME/bin/java when it exists, else java from PATH.
func javaPath() (string, error) {
	if home := os.Getenv("JAVA_HOME"); home != "" {
		p := filepath.Join(home, "bin", "java")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath("java")
	if err != nil {
		return "", fmt.Errorf("find java (install a JDK 17+ or set JAVA_HOME): %w", err)
	}
	return p, nil
}
