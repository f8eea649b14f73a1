package driver

import (
	"bufio"
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
	"github.com/prodlab/prodlab/internal/textfmt"
)

// Timeouts of the worker conversation.
const (
	// workerHelloTimeout bounds JVM start-up and the hello handshake.
	workerHelloTimeout = 60 * time.Second
	// workerCancelGrace is how long a cancelled trial may take to report
	// before the worker is killed: a cancelled trial's result is not kept
	// (the workers answer a cancel at once, closing the producer without
	// waiting), Ctrl-C must end a run within 5 s whatever a worker does,
	// and a killed worker is replaced for the next trial (Gone).
	workerCancelGrace = 4 * time.Second
	// workerTrialSlack is how long past its own timeout a trial may take
	// before the worker is presumed hung and killed (the worker enforces the
	// timeout itself; closing the producer can take a while).
	workerTrialSlack = 2 * time.Minute
	// workerExitTimeout bounds the wait for the worker to exit on Close.
	workerExitTimeout = 10 * time.Second
	// workerDefaultTrialTimeout applies when a trial has none.
	workerDefaultTrialTimeout = 10 * time.Minute
	// workerIODelay bounds how long, once a worker's process has exited,
	// its stderr may stay open (held by a child it left); the child's
	// whole process group is then killed, so its stdout ends too.
	workerIODelay = time.Second
	// maxWorkerLine bounds one line a worker writes: a result with its
	// acknowledgement ranges and histograms fits many times over, and a
	// worker writing without newlines must not grow our memory for ever.
	maxWorkerLine = 256 << 20
)

// Worker runs trials in one long-lived protocol worker driven over line-
// delimited JSON (docs/worker-protocol.md): the official Kafka Java
// producer (kafka-clients) of one version in a worker JVM (java/worker),
// or another client's worker process (librdkafka.go). It serves one trial
// at a time.
type Worker struct {
	// name is the driver's Name: "java@VERSION", "librdkafka"; the kind's
	// name leads messages about the worker ("librdkafka worker stopped").
	name    string
	version string
	// check is the client kind's check of producer properties (CheckJava,
	// CheckLibrdkafka): the worker's client, not the Java one, judges them.
	check  func(name string, props map[string]string) error
	client string // "kafka-clients 3.9.1", from the worker's hello
	jvm    string // the worker's Java version

	mu     sync.Mutex // serializes Run and Close
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	msgs   <-chan *workerMessage // closed when the worker's stdout ends
	readEr error                 // why msgs closed, set before close
	exited chan struct{}         // closed when the process has been waited for
	waitEr error
	stderr *tailWriter
	log    *logLines // the client's WARN/ERROR lines, to explain failures
	logf   *os.File
	nextID int64
	closed bool
	// slack is how long past its own timeout a trial may take before the
	// worker is presumed hung and killed (workerTrialSlack; tests shorten it).
	slack time.Duration
}

// startWorker starts any protocol worker (docs/worker-protocol.md) with cmd
// and says hello: the Java worker JVM, or a client's worker process of its
// own (librdkafka). name is the driver's Name; version the client's
// release, for messages; its stderr goes to logDir/logName.
func startWorker(ctx context.Context, name, version string, check func(string, map[string]string) error, cmd *exec.Cmd, logDir, logName string) (*Worker, error) {
	j := &Worker{name: name, version: version, check: check, cmd: cmd, stderr: &tailWriter{max: 8 << 10}, exited: make(chan struct{}), slack: workerTrialSlack}
	logPath := ""
	if logDir != "" {
		if err := os.MkdirAll(logDir, 0o755); err != nil {
			return nil, fmt.Errorf("%s driver: %w", name, err)
		}
		logPath = filepath.Join(logDir, logName)
	}
	var err error
	if j.log, err = newLogLines(logPath); err != nil {
		return nil, err
	}
	errOut := io.MultiWriter(j.stderr, j.log)
	if logPath != "" {
		f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, fmt.Errorf("%s driver: %w", name, err)
		}
		j.logf = f
		errOut = io.MultiWriter(&cappedWriter{w: f, left: maxWorkerLog}, j.stderr, j.log)
	}
	stderr := secret.NewLineWriter(errOut) // a client logging the URL it could not reach
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		j.closeLog()
		return nil, fmt.Errorf("%s driver: %w", name, err)
	}
	// An os.Pipe rather than StdoutPipe: Wait closes StdoutPipe's reader,
	// which could lose the last lines of a worker that exits.
	stdout, stdoutW, err := os.Pipe()
	if err != nil {
		j.closeLog()
		return nil, fmt.Errorf("%s driver: %w", name, err)
	}
	cmd.Stdout = stdoutW
	cmd.WaitDelay = workerIODelay
	j.stdin = stdin
	err = proc.Start(cmd)
	_ = stdoutW.Close()
	if err != nil {
		_ = stdout.Close()
		j.closeLog()
		return nil, fmt.Errorf("%s driver: start worker: %w", name, err)
	}
	msgs := make(chan *workerMessage, 16)
	j.msgs = msgs
	go func() {
		defer stdout.Close()
		j.read(stdout, msgs)
	}()
	go func() {
		j.waitEr = cmd.Wait()
		_ = stderr.Flush() // a last line without its newline
		// Whatever the worker left running in its group (a child holding
		// its stdout) goes with it, before the group is forgotten.
		_ = proc.Signal(cmd.Process.Pid, syscall.SIGKILL)
		proc.Forget(cmd.Process.Pid)
		close(j.exited)
	}()

	hctx, cancel := context.WithTimeout(ctx, workerHelloTimeout)
	defer cancel()
	m, err := j.roundTrip(hctx, workerRequest{Op: "hello"}, "hello", 0, nil)
	if err != nil {
		j.kill()
		return nil, fmt.Errorf("%s driver: worker did not start: %w", name, err)
	}
	j.client, j.jvm = m.Client, m.Java
	return j, nil
}

// read decodes the worker's stdout lines until it ends, or until a line
// longer than maxWorkerLine.
func (j *Worker) read(r io.Reader, msgs chan<- *workerMessage) {
	defer close(msgs)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br, maxWorkerLine)
		if len(line) > 0 && strings.TrimSpace(string(line)) != "" {
			m, derr := decodeWorkerMessage(line)
			if derr != nil {
				j.readEr = derr
				return
			}
			msgs <- m
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				j.readEr = err
			}
			return
		}
	}
}

// readLine reads up to and including the next newline, refusing a line of
// more than max bytes.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		part, err := br.ReadSlice('\n')
		if len(line)+len(part) > max {
			return nil, fmt.Errorf("worker wrote a line longer than %d MiB", max>>20)
		}
		line = append(line, part...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// Name implements Driver.
func (j *Worker) Name() string { return j.name }

// Client is the client's version string, e.g. "kafka-clients 3.9.1".
func (j *Worker) Client() string { return j.client }

// JavaVersion is the worker JVM's version, e.g. "17.0.15".
func (j *Worker) JavaVersion() string { return j.jvm }

// Check implements Driver with the worker's client's own check: for the
// Java worker every Java producer property passes (the client itself
// validates them when the trial starts) and prodlab-only keys it cannot
// honour are rejected; the librdkafka worker's is CheckLibrdkafka.
func (j *Worker) Check(props map[string]string) error { return j.check(j.Name(), props) }

// Run implements Driver. A configuration the Java client rejects returns a
// *JavaError carrying the client's message and a hint; the worker stays up.
// With Trial.Producers > 1 the worker runs one KafkaProducer per producer
// in its JVM, concurrently (java_producers.go).
func (j *Worker) Run(ctx context.Context, t Trial) (*Result, error) {
	if err := j.Check(t.Settings.Raw()); err != nil {
		return nil, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return nil, fmt.Errorf("%s: driver is closed", j.Name())
	}
	if t.Timeout <= 0 {
		t.Timeout = workerDefaultTrialTimeout
	}
	j.nextID++
	id := j.nextID
	req, toResult := newRunRequest(id, t), (*workerMessage).toResult
	if producerCount(t) > 1 {
		req, toResult = newSharedRunRequest(id, t), (*workerMessage).toSharedResult
		j.nextID += int64(len(req.Producers))
	}
	mark := j.log.mark()
	m, err := j.roundTrip(ctx, req, "result", t.Timeout+j.slack, progressRouter(req, t.Progress))
	if err != nil {
		return nil, j.explainErr(err, mark)
	}
	res, err := toResult(m, t)
	if err != nil { // res is nil but for a fenced producer's figures
		return res, j.explainErr(err, mark)
	}
	j.explainFailed(res, mark)
	return res, nil
}

// Gone reports whether the worker's process has exited (it crashed, or
// was killed after a trial it would not answer or end): the driver can
// run no more trials, and its owner starts another.
func (j *Worker) Gone() bool {
	select {
	case <-j.exited:
		return true
	default:
		return false
	}
}

// LogPath is the worker's log file, "" when its stderr is not kept.
func (j *Worker) LogPath() string { return j.log.path }

// explainErr adds to a failed trial's error the client's WARN/ERROR lines
// logged during it (file and line numbers), which often hold the cause the
// exception lacks. A bare *JavaError keeps its type, with the lines in Log;
// one inside a chain (ErrFenced, a producer's number) gets them in Log and
// after the chain's own text, which was written when it was wrapped.
func (j *Worker) explainErr(err error, mark int) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	j.log.settle()
	why := j.log.explain(mark)
	if why == "" {
		return err
	}
	var je *JavaError
	if errors.As(err, &je) {
		je.Log = why
		if error(je) == err { //nolint:errorlint // identity: is err the JavaError itself, or a chain around it
			return je
		}
		return fmt.Errorf("%w\n%s", err, why)
	}
	return fmt.Errorf("%w\n%s", err, why)
}

// explainFailed does the same for a trial whose records failed: the client
// reports each record's exception (often only a time-out), so the log
// lines go into res.Log, which the lab quotes after the trial's error.
func (j *Worker) explainFailed(res *Result, mark int) {
	if len(res.Errors) == 0 {
		return
	}
	j.log.settle()
	res.Log = j.log.explain(mark)
}

// roundTrip sends req and waits for the answer of op want (with req's id),
// passing the worker's progress messages for req to progress (if non-nil)
// on the way. If ctx ends first, a run is cancelled and given workerCancelGrace to report;
// if limit (>0) passes, or the grace ends, the worker is killed.
func (j *Worker) roundTrip(ctx context.Context, req workerRequest, want string, limit time.Duration, progress func(id int64, p Progress)) (*workerMessage, error) {
	line, err := encodeWorkerRequest(req)
	if err != nil {
		return nil, err
	}
	if _, err := j.stdin.Write(line); err != nil {
		return nil, j.deadErr(fmt.Errorf("write %s request: %w", req.Op, err))
	}
	var hard <-chan time.Time
	if limit > 0 {
		timer := time.NewTimer(limit)
		defer timer.Stop()
		hard = timer.C
	}
	done := ctx.Done()
	var grace <-chan time.Time
	for {
		select {
		case m, ok := <-j.msgs:
			if !ok {
				return nil, j.deadErr(nil)
			}
			switch {
			case m.Op == want && m.ID == req.ID:
				if grace != nil { // cancelled: report the cancellation, not the partial result
					return nil, ctx.Err()
				}
				return m, nil
			case m.Op == "progress" && ownsID(req, m.ID):
				if progress != nil && grace == nil {
					progress(m.ID, m.progress())
				}
			case m.Op == "error":
				return nil, fmt.Errorf("%s: worker: %s", j.Name(), m.Error)
			}
		case <-done:
			done = nil
			if req.Op != "run" {
				j.kill()
				return nil, ctx.Err()
			}
			if c, err := encodeWorkerRequest(workerRequest{Op: "cancel", ID: req.ID}); err == nil {
				_, _ = j.stdin.Write(c)
			}
			t := time.NewTimer(workerCancelGrace)
			defer t.Stop()
			grace = t.C
		case <-grace:
			j.kill()
			return nil, fmt.Errorf("%s: trial cancelled and the worker did not stop within %s: %w", j.Name(), workerCancelGrace, ctx.Err())
		case <-hard:
			j.kill()
			return nil, fmt.Errorf("%s: no answer to %s request within %s; worker killed", j.Name(), req.Op, limit)
		}
	}
}

// deadErr explains a worker that stopped talking, with its stderr tail.
func (j *Worker) deadErr(cause error) error {
	select {
	case <-j.exited:
	case <-time.After(2 * time.Second):
		j.kill() // it stopped talking, not running: it is of no more use
	}
	j.closed = true
	msg := fmt.Sprintf("%s: worker stopped", j.Name())
	if j.readEr != nil {
		msg += ": " + j.readEr.Error()
	} else if cause != nil {
		msg += ": " + cause.Error()
	}
	select {
	case <-j.exited:
		if j.waitEr != nil {
			msg += " (" + j.waitEr.Error() + ")"
		}
	default:
	}
	if tail := foreignTail(j.stderr.String(), maxTailLines); tail != "" {
		msg += "; stderr:\n" + tail
	}
	return errors.New(msg)
}

// maxTailLines is how many of a dead worker's last stderr lines its error
// quotes.
const maxTailLines = 12

// foreignTail is the last n non-blank lines of text another program
// wrote, each as textfmt.Foreign shows it: clipped and escaped, so that a
// worker's stderr can neither flood a message nor drive the terminal.
func foreignTail(text string, n int) string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimRight(l, "\r \t"); strings.TrimSpace(l) != "" {
			lines = append(lines, textfmt.Foreign(l))
		}
	}
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

// kill ends the worker's process group and waits for it.
func (j *Worker) kill() {
	j.closed = true
	if j.cmd.Process != nil {
		_ = proc.Signal(j.cmd.Process.Pid, syscall.SIGKILL)
	}
	select {
	case <-j.exited:
	case <-time.After(workerExitTimeout):
	}
	j.closeLog()
}

func (j *Worker) closeLog() {
	if j.logf != nil {
		_ = j.logf.Close()
		j.logf = nil
	}
}

// Close implements Driver: it asks the worker to exit and waits; a worker
// that does not exit in time is killed.
func (j *Worker) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		select {
		case <-j.exited:
		default:
			j.kill()
		}
		j.closeLog()
		return nil
	}
	j.closed = true
	if line, err := encodeWorkerRequest(workerRequest{Op: "exit"}); err == nil {
		_, _ = j.stdin.Write(line)
	}
	_ = j.stdin.Close()
	select {
	case <-j.exited:
	case <-time.After(workerExitTimeout):
		j.kill()
		return fmt.Errorf("%s: worker did not exit within %s; killed", j.Name(), workerExitTimeout)
	}
	j.closeLog()
	if j.waitEr != nil {
		return fmt.Errorf("%s: worker exit: %w", j.Name(), j.waitEr)
	}
	return nil
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if over := len(w.buf) - w.max; over > 0 {
		w.buf = append(w.buf[:0], w.buf[over:]...)
	}
	return len(p), nil
}

func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.buf)
}

var _ Driver = (*Worker)(nil)
