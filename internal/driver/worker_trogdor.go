package driver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"syscall"
	"time"
)

// A protocol worker as the command of a Trogdor ExternalCommandSpec task
// (a franz-go or librdkafka trial on a fleet's agent, trogdor.go): the
// agent writes {"id": TASK, "workload": RUN REQUEST} on the command's
// stdin and reads {"status": …} lines from its stdout, the last of which
// stays the task's status on that node. Each progress line and the final
// result line of the worker protocol become the status in turn, so the
// driver reads an external node as it reads a Java node.

// trogdorStart is the line an ExternalCommandSpec's agent writes first.
type trogdorStart struct {
	ID       string         `json:"id"`
	Workload *workerRequest `json:"workload"`
}

// ServeTrogdor runs the one trial of a Trogdor task and returns when its
// result is written. Cancelling ctx (the agent's SIGTERM when the task is
// stopped) or the end of in (the agent is gone) cancels the trial. Its
// result is then still written, but the agent has closed the command's
// stdout before its SIGTERM: nobody reads it, and the process ends there
// (SIGPIPE); the node's last status stays its last progress line. The
// result carries the worker process's CPU time (cpu_ns): the process
// lives for this one trial.
func (w WorkerService) ServeTrogdor(ctx context.Context, in io.Reader, out io.Writer) error {
	status := &trogdorStatus{w: out}
	br := bufio.NewReaderSize(in, 64<<10)
	line, err := br.ReadBytes('\n')
	if err != nil && (err != io.EOF || len(bytes.TrimSpace(line)) == 0) {
		return status.fail(fmt.Errorf("read the task's start line: %w", err))
	}
	var start trogdorStart
	if err := json.Unmarshal(line, &start); err != nil {
		return status.fail(fmt.Errorf("the task's start line is not {\"id\":…,\"workload\":…}: %w", err))
	}
	if start.Workload == nil || start.Workload.Op != "run" {
		return status.fail(errors.New(`the task's workload is not a worker run request ({"op":"run",…})`))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { // the agent holds stdin open until the command exits
		_, _ = io.Copy(io.Discard, br)
		cancel()
	}()
	s := &serving{svc: w, out: status}
	m := s.run(ctx, *start.Workload)
	if cpu, err := ProcessCPU(); err == nil {
		m.CPUNs = int64(cpu)
	}
	s.write(m)
	return nil
}

// trogdorStatus turns each worker protocol line written to it into the
// Trogdor status line {"status": LINE}. serving writes one whole line per
// Write.
type trogdorStatus struct{ w io.Writer }

func (t *trogdorStatus) Write(p []byte) (int, error) {
	line := bytes.TrimRight(p, "\n")
	b := make([]byte, 0, len(line)+12)
	b = append(b, `{"status":`...)
	b = append(b, line...)
	b = append(b, "}\n"...)
	if _, err := t.w.Write(b); err != nil {
		return 0, err
	}
	return len(p), nil
}

// fail reports err as the task's error (Trogdor ends the task with it)
// and returns it.
func (t *trogdorStatus) fail(err error) error {
	b, _ := json.Marshal(map[string]string{"error": err.Error()})
	_, _ = t.w.Write(append(b, '\n'))
	return err
}

// ProcessCPU is the CPU time (user + system, every thread) this process
// has used: an external worker's own, or prodlab's, whose in-process
// client (franz-go) the lab measures this way.
func ProcessCPU() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("getrusage: %w", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}
