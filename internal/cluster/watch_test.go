package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/testtier"
)

// fakeBroker returns a cluster of one node whose "JVM" is a shell script:
// it prints 25 numbered log lines and then runs body. It is started and
// watched as Start would leave a real one; the test stops it.
func fakeBroker(t *testing.T, body string) *Cluster {
	t.Helper()
	dir := t.TempDir()
	script := filepath.Join(dir, "fake-java")
	src := "#!/bin/sh\nfor i in $(seq 1 25); do echo \"fake log line $i\"; done\n" + body + "\n"
	if err := os.WriteFile(script, []byte(src), 0o755); err != nil {
		t.Fatal(err)
	}
	n := newNode(dir, nodeSpec{ID: 1})
	if err := os.MkdirAll(n.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c := &Cluster{cfg: Config{Dir: dir, StopGrace: time.Second}, java: script, dist: dist{classpath: "none"}, nodes: []*node{n}}
	if err := n.start(c.java, c.dist, c.cds, dir, false); err != nil {
		t.Fatal(err)
	}
	c.watchNodes()
	t.Cleanup(func() { _ = c.Stop() })
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if data, _ := os.ReadFile(n.logPath); strings.Contains(string(data), "fake log line 25") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the fake broker's log lacks line 25 after 30s")
		}
	}
	return c
}

// TestWatchReportsUnexpectedExits: a broker that exits by itself or is
// killed from outside cancels Watch's context at once, with its exit status
// and log tail as the cause; an exit prodlab asked for (Kill, Shutdown,
// Stop) is not reported.
func TestWatchReportsUnexpectedExits(t *testing.T) {
	testtier.Shared(t)
	cases := []struct {
		name   string
		body   string                 // the fake broker's script after its log lines
		act    func(c *Cluster) error // what happens to it
		status string                 // "" when no report is wanted
	}{
		{"exits by itself", "echo 'ERROR No space left on device'; exit 1", nil, "exit status 1"},
		{"killed from outside", "exec sleep 60", func(c *Cluster) error {
			return syscall.Kill(c.Pids()[1], syscall.SIGKILL)
		}, "signal: killed"},
		{"Kill (a fault)", "exec sleep 60", func(c *Cluster) error { return c.Kill(1) }, ""},
		{"Shutdown (a fault)", "exec sleep 60", func(c *Cluster) error { return c.Shutdown(1) }, ""},
		{"Stop", "exec sleep 60", func(c *Cluster) error { return c.Stop() }, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := fakeBroker(t, tc.body)
			ctx, stop := c.Watch(context.Background())
			defer stop()
			if tc.act != nil {
				if err := tc.act(c); err != nil {
					t.Fatal(err)
				}
			}
			// An exit not to report gets 1 s to show up anyway; a reported
			// one has up to 10 s to arrive.
			wait := 10 * time.Second
			if tc.status == "" {
				wait = time.Second
			}
			select {
			case <-ctx.Done():
			case <-time.After(wait):
			}
			cause := context.Cause(ctx)
			if tc.status == "" {
				if cause != nil || c.Exited() != nil {
					t.Fatalf("an exit prodlab asked for was reported: %v / %v", cause, c.Exited())
				}
				return
			}
			var exit *BrokerExitError
			if !errors.As(cause, &exit) {
				t.Fatalf("Watch cause = %v, want a *BrokerExitError within 10s", cause)
			}
			msg := exit.Error()
			for _, want := range []string{"broker 1 (pid ", "exited unexpectedly (" + tc.status + ")", "broker-1.log", "fake log line 25"} {
				if !strings.Contains(msg, want) {
					t.Errorf("cause lacks %q:\n%s", want, msg)
				}
			}
			if strings.Contains(msg, "fake log line 5\n") {
				t.Errorf("cause carries more than %d log lines:\n%s", exitTailLines, msg)
			}
			if !errors.Is(c.Exited(), exit) {
				t.Errorf("Exited() = %v, want the same exit", c.Exited())
			}
			// A watch started after the exit is cancelled at once.
			late, stopLate := c.Watch(context.Background())
			defer stopLate()
			select {
			case <-late.Done():
			case <-time.After(10 * time.Second):
				t.Error("a Watch begun after the exit was not cancelled")
			}
		})
	}
}

// TestWatchStopReleases: stopping a watch cancels its context without a
// cause, and a later exit does not touch it.
func TestWatchStopReleases(t *testing.T) {
	c := fakeBroker(t, "exec sleep 60")
	ctx, stop := c.Watch(context.Background())
	stop()
	if err := syscall.Kill(c.Pids()[1], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !c.nodes[0].wait(time.Minute) { // a hang guard
		t.Fatal("the killed process was not reaped within a minute")
	}
	if !errors.Is(context.Cause(ctx), context.Canceled) {
		t.Errorf("cause after stop = %v, want context.Canceled", context.Cause(ctx))
	}
	if c.Exited() == nil {
		t.Error("the kill was not recorded by the cluster")
	}
}

// TestLastLinesOfReadsTheEnd: a log longer than tailBytes gives its last
// lines without reading it all.
func TestLastLinesOfReadsTheEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.log")
	var b strings.Builder
	for i := 1; b.Len() < 3*tailBytes; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	all := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if got, want := lastLinesOf(path, 3), strings.Join(all[len(all)-3:], "\n"); got != want {
		t.Errorf("lastLinesOf = %q, want %q", got, want)
	}
	if got := lastLinesOf(filepath.Join(t.TempDir(), "none"), 3); !strings.Contains(got, "no log") {
		t.Errorf("missing log gives %q", got)
	}
}

// TestRestartExited kills a real broker from outside: Watch reports it at
// once, and RestartExited brings it back with its data, ready for
// clients, with the watch rearmed.
func TestRestartExited(t *testing.T) {
	testtier.Shared(t)
	c := startCluster(t, Config{Brokers: 1})
	ctx, stop := c.Watch(context.Background())
	defer stop()
	pid := c.Pids()[1]
	killed := time.Now()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
		t.Logf("exit reported %v after the kill", time.Since(killed).Round(time.Millisecond))
	case <-time.After(15 * time.Second):
		t.Fatal("the kill was not reported within 15s")
	}
	rctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t0 := time.Now()
	if err := c.RestartExited(rctx); err != nil {
		t.Fatalf("RestartExited: %v", err)
	}
	t.Logf("broker back in %v", time.Since(t0).Round(time.Millisecond))
	if c.Exited() != nil {
		t.Errorf("Exited() after RestartExited = %v, want nil (rearmed)", c.Exited())
	}
	if c.Pids()[1] == pid {
		t.Error("the broker has its old pid")
	}
	adminRounds(t, c.Bootstrap(), 2, 1, 1)
}
