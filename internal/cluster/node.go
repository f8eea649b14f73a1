package cluster

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/prodlab/prodlab/internal/proc"
	"github.com/prodlab/prodlab/internal/secret"
)

// BrokerMainClass is the main class of a Kafka broker's JVM: what prodlab
// starts, what tells its brokers' processes apart (State.owns), and what a
// Trogdor agent names to stop one (jcmd lists JVMs by it).
const BrokerMainClass = "kafka.Kafka"

// BrokerJVMOptsEnv names the environment variable whose options (split on
// white space) every broker and controller JVM gets after brokerJVMArgs,
// so they can override them. A run records them (environment.json), since
// they change what a broker costs: make test's shared tier runs brokers
// with -XX:TieredStopAtLevel=1, which halves a start's CPU.
const BrokerJVMOptsEnv = "PRODLAB_BROKER_JVM_OPTS"

// BrokerJVMOpts returns the options of BrokerJVMOptsEnv (none when unset).
func BrokerJVMOpts() []string { return strings.Fields(os.Getenv(BrokerJVMOptsEnv)) }

// brokerJVMArgs are the GC settings of every broker JVM; the heap is sized
// per cluster from the machine's memory (memory.go, node.heap).
var brokerJVMArgs = []string{
	"-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20",
	"-XX:+ExitOnOutOfMemoryError",
	"-Djava.awt.headless=true",
}

// node is one running (or stopped) embedded node.
type node struct {
	spec   nodeSpec
	dir    string // Dir/node-<id>: server.properties and data
	config string // server.properties path
	// props are what config holds, kept to redact it when the cluster
	// stops (redactConfig).
	props   map[string]string
	logPath string // Dir/broker-<id>.log
	heap    int64  // -Xmx in bytes; 0 for maxHeap
	// jvmExtra are JVM options before the class path: prodlab's agent
	// when the cluster emulates KIP-1269 (kip1269.go).
	jvmExtra []string

	mu   sync.Mutex
	pid  int
	done chan struct{} // closed when the current process has exited
	// asked is set when prodlab itself signals the process to end (Kill,
	// Shutdown, Stop), so its exit is expected; start clears it.
	asked bool
	// onExit, if set, hears of every exit prodlab did not ask for, before
	// done is closed (the cluster's watch, see watch.go).
	onExit func(*BrokerExitError)
}

// newNode lays out node spec under the cluster directory.
func newNode(clusterDir string, spec nodeSpec) *node {
	dir := filepath.Join(clusterDir, fmt.Sprintf("node-%d", spec.ID))
	spec.DataDir = filepath.Join(dir, "data")
	return &node{
		spec:    spec,
		dir:     dir,
		config:  filepath.Join(dir, "server.properties"),
		logPath: filepath.Join(clusterDir, fmt.Sprintf("broker-%d.log", spec.ID)),
	}
}

// running reports whether the node's process is alive (it may be paused).
func (n *node) running() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.done == nil {
		return false
	}
	select {
	case <-n.done:
		return false
	default:
		return true
	}
}

// state returns the pid and exit channel of the current process.
func (n *node) state() (pid int, done chan struct{}) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.pid, n.done
}

// writeConfig writes the node's server.properties.
func (n *node) writeConfig(props map[string]string) error {
	for _, dir := range []string{n.dir, n.spec.DataDir} { // the data may live elsewhere (Config.DataRoot)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create directory for node %d: %w", n.spec.ID, err)
		}
	}
	if err := os.WriteFile(n.config, []byte(renderProps(props)), 0o600); err != nil {
		return fmt.Errorf("write config for node %d: %w", n.spec.ID, err)
	}
	n.props = props
	return nil
}

// redactConfig rewrites the node's server.properties with every secret
// (passwords, JAAS logins, the listener's private key and certificates)
// shown as [hidden]: a run directory is something users share, and the
// broker does not read its configuration again once stopped for good.
func (n *node) redactConfig() error {
	if n.props == nil {
		return nil
	}
	if err := os.WriteFile(n.config, []byte(renderProps(secret.Mask(n.props))), 0o644); err != nil {
		return fmt.Errorf("redact config of node %d: %w", n.spec.ID, err)
	}
	return nil
}

// format runs kafka-storage format for the node, with extra arguments
// (SCRAM users), appending the tool's output to the broker log.
func (n *node) format(ctx context.Context, java string, d dist, cds classArchive, clusterID string, extra ...string) error {
	// C1 only: the tool runs for a second, so fast JVM start-up matters more
	// than peak speed.
	args := append([]string{"-XX:TieredStopAtLevel=1", "-Xshare:auto"}, cds.useArgs()...)
	args = append(args, "-cp", d.classpath, "kafka.tools.StorageTool", "format", "-t", clusterID, "-c", n.config)
	cmd := exec.Command(java, append(args, extra...)...)
	cmd.Dir = n.dir
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := runToEnd(ctx, cmd)
	appendLog(n.logPath, fmt.Sprintf("prodlab: format storage of node %d", n.spec.ID), out.Bytes())
	if err != nil {
		return fmt.Errorf("format storage for node %d: %w\n%s", n.spec.ID, err, indent(lastLines(out.String(), logTailLines)))
	}
	return nil
}

// runToEnd runs cmd through the proc registry and waits for it, killing it
// if ctx ends first.
func runToEnd(ctx context.Context, cmd *exec.Cmd) error {
	if err := proc.Start(cmd); err != nil {
		return err
	}
	pid := cmd.Process.Pid
	defer proc.Forget(pid)
	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()
	select {
	case err := <-waitErr:
		return err
	case <-ctx.Done():
		_ = proc.Signal(pid, syscall.SIGKILL)
		<-waitErr //nolint:errcheck // killed on purpose: its exit status says nothing new
		return ctx.Err()
	}
}

// start launches the node's broker JVM with its output going to the broker
// log, and watches for its exit. The JVM maps cds's archive, or dumps it
// when there is none yet (not a detached node, whose exit prodlab does not
// see, nor one with a Java agent).
func (n *node) start(java string, d dist, cds classArchive, clusterDir string, detached bool) error {
	if n.running() {
		return fmt.Errorf("start node %d: already running", n.spec.ID)
	}
	args := append(heapArgs(cmp.Or(n.heap, maxHeap)), brokerJVMArgs...)
	args = append(args, BrokerJVMOpts()...)
	args = append(args, d.loggingArgs(clusterDir, n.spec.ID)...)
	args = append(args, n.jvmExtra...)
	var pending string
	switch {
	case len(n.jvmExtra) > 0:
	case detached:
		args = append(args, cds.useArgs()...)
	default:
		var a []string
		a, pending = cds.brokerArgs()
		args = append(args, a...)
	}
	args = append(args, "-cp", d.classpath, BrokerMainClass, n.config)
	log, err := os.OpenFile(n.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open log of node %d: %w", n.spec.ID, err)
	}
	defer log.Close() // the child has its own copy
	fmt.Fprintf(log, "=== %s prodlab: start node %d: %s %s\n",
		time.Now().Format(time.RFC3339), n.spec.ID, java, strings.Join(args, " "))
	cmd := exec.Command(java, args...)
	cmd.Dir = n.dir
	cmd.Stdout = log
	cmd.Stderr = log
	if detached {
		err = proc.StartDetached(cmd)
	} else {
		err = proc.Start(cmd)
	}
	if err != nil {
		return fmt.Errorf("start node %d: %w", n.spec.ID, err)
	}
	done := make(chan struct{})
	n.mu.Lock()
	n.pid = cmd.Process.Pid
	n.done = done
	n.asked = false
	n.mu.Unlock()
	go func() {
		_ = cmd.Wait()
		if !detached {
			proc.Forget(cmd.Process.Pid)
		}
		cds.keep(pending, cmd.ProcessState)
		n.exited(cmd.Process.Pid, cmd.ProcessState.String())
		close(done)
	}()
	return nil
}

// exited reports an exit prodlab did not ask for to onExit, with the exit
// status and the end of the broker log.
func (n *node) exited(pid int, status string) {
	n.mu.Lock()
	asked, onExit := n.asked, n.onExit
	n.mu.Unlock()
	if asked || onExit == nil {
		return
	}
	onExit(&BrokerExitError{ID: n.spec.ID, PID: pid, Status: status, Log: n.logPath,
		Tail: lastLinesOf(n.logPath, exitTailLines)})
}

// signal sends sig to the node's process group. A SIGTERM or SIGKILL
// marks the exit that follows as asked for, so the watch does not report it.
func (n *node) signal(sig syscall.Signal) error {
	pid, _ := n.state()
	if !n.running() {
		return fmt.Errorf("node %d is not running", n.spec.ID)
	}
	if sig == syscall.SIGTERM || sig == syscall.SIGKILL {
		n.mu.Lock()
		n.asked = true
		n.mu.Unlock()
	}
	if err := proc.Signal(pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("node %d: %w", n.spec.ID, err)
	}
	return nil
}

// wait waits up to d for the current process to exit.
func (n *node) wait(d time.Duration) bool {
	_, done := n.state()
	if done == nil {
		return true
	}
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// stop ends the node: SIGTERM (and SIGCONT, in case it is paused), up to
// grace for a clean exit, then SIGKILL.
func (n *node) stop(grace time.Duration) error {
	if !n.running() {
		return nil
	}
	_ = n.signal(syscall.SIGTERM)
	_ = n.signal(syscall.SIGCONT)
	if n.wait(grace) {
		return nil
	}
	_ = n.signal(syscall.SIGKILL)
	if !n.wait(5 * time.Second) {
		pid, _ := n.state()
		return fmt.Errorf("node %d (pid %d) did not exit after SIGKILL", n.spec.ID, pid)
	}
	return fmt.Errorf("node %d did not stop within %v of SIGTERM and was killed", n.spec.ID, grace)
}

// logTail returns the last lines of the node's broker log.
func (n *node) logTail() string {
	return lastLinesOf(n.logPath, logTailLines)
}

// tailBytes bounds how much of a log's end lastLinesOf reads: a broker log
// can grow to many megabytes over a run.
const tailBytes = 64 << 10

// lastLinesOf returns the last count lines of the file at path (within its
// last tailBytes), or says why it cannot be read.
func lastLinesOf(path string, count int) string {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Sprintf("(no log: %v)", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Sprintf("(no log: %v)", err)
	}
	off := max(st.Size()-tailBytes, 0)
	data, err := io.ReadAll(io.NewSectionReader(f, off, st.Size()-off))
	if err != nil {
		return fmt.Sprintf("(log unreadable: %v)", err)
	}
	return lastLines(string(data), count)
}

// firstErrors returns the first few ERROR lines of the node's log, which
// usually say why it stopped, formatted to follow an error message; the log
// tail alone often holds only the shutdown that followed.
func (n *node) firstErrors() string {
	data, err := os.ReadFile(n.logPath)
	if err != nil {
		return ""
	}
	var found []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, " ERROR ") || strings.HasPrefix(line, "ERROR ") {
			found = append(found, line)
			if len(found) == 3 {
				break
			}
		}
	}
	if len(found) == 0 {
		return ""
	}
	return ":\n" + indent(strings.Join(found, "\n")) + "\n"
}

// logTailLines is how many lines of a broker log an error carries.
const logTailLines = 30

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// indent indents every line of s for embedding in an error message.
func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// appendLog appends a tool's output, under a header, to a broker log.
func appendLog(path, header string, output []byte) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "=== %s %s\n", time.Now().Format(time.RFC3339), header)
	_, _ = f.Write(output)
}
