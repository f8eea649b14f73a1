package driver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/testtier"
)

// chattyWorker says hello, then answers a run with progress lines for ever
// and never reads stdin again: a worker that ignores cancel.
var chattyWorker = helloThen(`while :; do printf '{"op":"progress","id":%s,"sent":1,"acked":1}\n' "$id"; sleep 0.01; done`)

// TestWorkerIgnoringCancelIsKilled: a cancelled trial whose worker goes on
// talking ends within workerCancelGrace (plus a hang guard's margin), with
// an error that says so, and the worker's process is gone.
func TestWorkerIgnoringCancelIsKilled(t *testing.T) {
	testtier.Shared(t)
	if testing.Short() {
		t.Skip("waits out the cancel grace")
	}
	script := filepath.Join(t.TempDir(), "chatty.sh")
	if err := os.WriteFile(script, []byte(chattyWorker), 0o755); err != nil {
		t.Fatal(err)
	}
	j, err := startWorker(t.Context(), "fake", "1", func(string, map[string]string) error { return nil }, exec.Command(script), "", "")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = j.Close() }()
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	_, err = j.Run(ctx, Trial{Topic: "t", Records: 10, RecordSize: 10, Payload: "random", Timeout: time.Minute})
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "did not stop within") {
		t.Errorf("Run = %v, want the worker named as not stopping", err)
	}
	if took < workerCancelGrace || took > workerCancelGrace+30*time.Second { // the grace is a floor; the ceiling a hang guard
		t.Errorf("Run returned %v after the cancel, want about the %v grace", took, workerCancelGrace)
	}
	if pid := j.cmd.Process.Pid; syscall.Kill(pid, 0) == nil {
		t.Errorf("the worker (pid %d) still runs", pid)
	}
}
