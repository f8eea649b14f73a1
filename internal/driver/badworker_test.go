package driver

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/secret"
	"github.com/prodlab/prodlab/internal/testtier"
)

// helloThen is a fake protocol worker: it answers hello, then does what
// onRun says when a run request comes (with $id the request's id, and
// $dir the test's directory), reading stdin until it ends.
func helloThen(onRun string) string {
	return `#!/bin/sh
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
    *'"op":"hello"'*) printf '{"op":"hello","id":%s,"client":"fake 1"}\n' "${id:-0}" ;;
    *'"op":"run"'*) ` + onRun + ` ;;
  esac
done
`
}

// TestMisbehavingWorkers: a protocol worker that goes silent, talks
// without ever answering, never says hello, dies leaving a child that
// holds its stdout, writes garbage or floods its stderr fails its trial
// within the trial's timeout plus the stated slack (shortened here), with
// an error naming what it did not do, clipped and escaped; and nothing it
// started is left running.
func TestMisbehavingWorkers(t *testing.T) {
	testtier.Shared(t)
	const slack = time.Second
	tests := []struct {
		name string
		// script is the worker; noHello: it is started under a 2 s
		// context and must fail its hello.
		script  string
		noHello bool
		// within bounds how long the trial (or start) may take.
		within time.Duration
		want   string
	}{
		{name: "silent after hello", script: helloThen(":"), within: 2*time.Second + slack + 5*time.Second,
			want: "no answer to run request within 3s; worker killed"},
		{name: "chatty, never a result",
			script: chattyWorker,
			within: 2*time.Second + slack + 5*time.Second, want: "no answer to run request within 3s; worker killed"},
		{name: "no hello", script: "#!/bin/sh\nwhile read -r line; do :; done\n", noHello: true, within: 2*time.Second + 5*time.Second,
			want: "worker did not start"},
		{name: "dies, leaving a child on its stdout", script: helloThen(`sleep 300 & echo $! > "$dir/child"; exit 0`),
			within: 10 * time.Second, want: "worker stopped"},
		{name: "garbage with a terminal escape", script: helloThen(`printf '\033[2Jnot json\n'`),
			within: 10 * time.Second, want: `malformed line "\x1b[2Jnot json\n"`},
		{name: "a flood of stderr, then death",
			script: helloThen(`i=0; while [ $i -lt 2000 ]; do printf 'line %s \033]0;title\007 %0500d\n' $i 0 >&2; i=$((i+1)); done; exit 3`),
			within: 10 * time.Second, want: "worker stopped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			script := filepath.Join(dir, "worker.sh")
			if err := os.WriteFile(script, []byte(tt.script), 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(script)
			cmd.Env = append(os.Environ(), "dir="+dir)
			ctx := t.Context()
			if tt.noHello {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, 2*time.Second)
				defer cancel()
			}
			start := time.Now()
			j, err := startWorker(ctx, "fake", "1", func(string, map[string]string) error { return nil }, cmd, dir, "worker.log")
			if err == nil {
				defer func() { _ = j.Close() }()
				j.slack = slack
				_, err = j.Run(t.Context(), Trial{Topic: "t", Records: 10, RecordSize: 10, Payload: "random", Timeout: 2 * time.Second})
			}
			took := time.Since(start)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one saying %q", err, tt.want)
			}
			if took > tt.within {
				t.Errorf("took %v, want at most %v", took, tt.within)
			}
			if strings.ContainsAny(err.Error(), "\x1b\x07\r") {
				t.Errorf("the error carries raw control characters: %q", err)
			}
			if n := len(err.Error()); n > 5<<10 {
				t.Errorf("the error is %d bytes long, want it clipped", n)
			}
			if pid := cmd.Process.Pid; syscall.Kill(pid, 0) == nil {
				t.Errorf("the worker (pid %d) still runs", pid)
			}
			if j != nil && !j.Gone() {
				t.Error("the driver does not say its worker is gone: the lab would not start another")
			}
			checkChildGone(t, filepath.Join(dir, "child"))
		})
	}
}

// checkChildGone fails t if the pid written in file (when there is one)
// still runs a moment later.
func checkChildGone(t *testing.T, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		return
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("child pid %q: %v", b, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Errorf("the worker's child (pid %d) still runs", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestReadLineBounded: a worker's line longer than the bound is refused
// (a worker writing without newlines cannot grow our memory for ever);
// lines up to it, split across the reader's buffer, come whole.
func TestReadLineBounded(t *testing.T) {
	tests := []struct {
		name  string
		input string
		max   int
		want  []string
		err   string
	}{
		{name: "short lines", input: "a\nbb\n", max: 10, want: []string{"a\n", "bb\n"}},
		{name: "a line across buffers", input: strings.Repeat("x", 40) + "\n", max: 100, want: []string{strings.Repeat("x", 40) + "\n"}},
		{name: "too long", input: strings.Repeat("x", 200), max: 100, err: "line longer than"},
		{name: "last line unterminated", input: "a\nb", max: 10, want: []string{"a\n", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			br := bufio.NewReaderSize(strings.NewReader(tt.input), 16)
			var got []string
			for {
				line, err := readLine(br, tt.max)
				if len(line) > 0 {
					got = append(got, string(line))
				}
				if err != nil {
					if tt.err != "" && !strings.Contains(err.Error(), tt.err) {
						t.Errorf("err = %v, want %q", err, tt.err)
					}
					if tt.err == "" && err.Error() != "EOF" {
						t.Errorf("err = %v, want EOF", err)
					}
					break
				}
			}
			if tt.err == "" && strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("lines %q, want %q", got, tt.want)
			}
		})
	}
}

// TestWorkerLogScrubbed: a worker's stderr that quotes a secret the
// process remembers (a client logging the URL it could not reach) is
// kept in the worker's log, and quoted in its error, without it.
func TestWorkerLogScrubbed(t *testing.T) {
	testtier.Shared(t)
	const marker = "worker-log-marker-pw"
	secret.Remember(marker)
	dir := t.TempDir()
	script := filepath.Join(dir, "worker.sh")
	body := helloThen(`printf 'token endpoint https://app:` + marker + `@idp/token refused\n' >&2; exit 1`)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	j, err := startWorker(t.Context(), "fake", "1", func(string, map[string]string) error { return nil }, exec.Command(script), dir, "worker.log")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = j.Close() }()
	_, err = j.Run(t.Context(), Trial{Topic: "t", Records: 10, RecordSize: 10, Payload: "random", Timeout: 5 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "app:[hidden]@idp") {
		t.Errorf("err = %v, want the worker's stderr quoted, scrubbed", err)
	}
	_ = j.Close()
	log, rerr := os.ReadFile(filepath.Join(dir, "worker.log"))
	if rerr != nil || !strings.Contains(string(log), "app:[hidden]@idp") || strings.Contains(string(log), marker) {
		t.Errorf("worker.log = %q (%v), want the line kept and the secret hidden", log, rerr)
	}
}
