package cluster

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/proc"
	"github.com/prodlab/prodlab/internal/testtier"
)

// Environment of the child role of TestNoOrphanJVM.
const (
	orphanModeEnv = "PRODLAB_CLUSTER_ORPHAN_MODE"
	orphanDirEnv  = "PRODLAB_CLUSTER_ORPHAN_DIR"
)

// TestOrphanChild is the child side of TestNoOrphanJVM. Set up like
// prodlab's main (signal handler, deferred KillAll), it starts a 1-node
// cluster, prints "PIDS <pid>...", and then waits to be ended, or panics.
func TestOrphanChild(t *testing.T) {
	mode := os.Getenv(orphanModeEnv)
	if mode == "" {
		t.Skip("child role of TestNoOrphanJVM")
	}
	defer proc.KillAll()
	stop := proc.InstallSignalHandler()
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	c, err := Start(ctx, Config{Brokers: 1, Dir: os.Getenv(orphanDirEnv)})
	if err != nil {
		t.Fatal(err)
	}
	var pids []string
	for _, b := range c.Brokers() {
		pids = append(pids, strconv.Itoa(b.PID))
	}
	fmt.Printf("READY %v\nPIDS %s\n", time.Since(start).Round(time.Millisecond), strings.Join(pids, " "))
	if mode == "panic" {
		// Wait until the parent has seen the broker alive.
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		panic("child panics on purpose, with the deferred KillAll in place")
	}
	time.Sleep(5 * time.Minute) // until the parent ends this process
}

// TestNoOrphanJVM runs TestOrphanChild as a separate process, ends it in
// each way prodlab can end, and checks that its broker JVM dies too.
func TestNoOrphanJVM(t *testing.T) {
	testtier.Shared(t)
	if testing.Short() {
		t.Skip("starts real Kafka brokers")
	}
	// Warm the cache once, so the children do not all run mvn.
	if _, err := resolveDist(context.Background(), DefaultKafka); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		mode     string
		sig      syscall.Signal // sent by the parent; 0 for none
		wantCode int            // child's exit status; -1 when killed by a signal
	}{
		{"sigterm", syscall.SIGTERM, 143}, // handler: KillAll, exit 128+15
		{"sigint", syscall.SIGINT, 130},   // handler: KillAll, exit 128+2
		{"panic", 0, 2},                   // deferred KillAll while panicking
		{"sigkill", syscall.SIGKILL, -1},  // no code runs: Pdeathsig takes the JVM
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^TestOrphanChild$", "-test.v", "-test.timeout=3m")
			cmd.Env = append(os.Environ(), orphanModeEnv+"="+tc.mode, orphanDirEnv+"="+t.TempDir())
			var stderr bytes.Buffer // the child's panic trace and test failures
			cmd.Stderr = &stderr
			// Own pipes rather than StdoutPipe, so that Wait may run
			// while the output is still being read.
			out, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdout = w
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w.Close()
			exited := make(chan struct{})
			var waitErr error
			go func() {
				waitErr = cmd.Wait()
				close(exited)
			}()
			t.Cleanup(func() {
				_ = cmd.Process.Kill()
				<-exited
				out.Close()
				if t.Failed() {
					t.Logf("child stderr:\n%s", stderr.String())
				}
			})
			lines := make(chan string)
			go func() {
				sc := bufio.NewScanner(out)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()
			var pids []int
			timeout := time.After(2 * time.Minute)
			for pids == nil {
				select {
				case line, ok := <-lines:
					if !ok {
						t.Fatal("child ended without printing its broker pids")
					}
					if r, ok := strings.CutPrefix(line, "READY "); ok {
						t.Logf("child's 1-node cluster ready in %s", r)
					}
					if p, ok := strings.CutPrefix(line, "PIDS "); ok {
						for _, f := range strings.Fields(p) {
							pid, _ := strconv.Atoi(f)
							pids = append(pids, pid)
						}
					}
				case <-timeout:
					t.Fatal("child printed no broker pids within 2 minutes")
				}
			}
			go func() {
				for range lines {
				}
			}()
			for _, pid := range pids {
				if !proc.Alive(pid) {
					t.Fatalf("broker pid %d not alive before the child ends", pid)
				}
			}
			if tc.sig != 0 {
				if err := cmd.Process.Signal(tc.sig); err != nil {
					t.Fatal(err)
				}
			} else {
				fmt.Fprintln(stdin, "go") // the panicking child waits for this
			}
			select {
			case <-exited:
			case <-time.After(30 * time.Second):
				t.Fatal("child did not exit within 30s")
			}
			if code := cmd.ProcessState.ExitCode(); code != tc.wantCode {
				t.Errorf("child exit code = %d (%v), want %d", code, waitErr, tc.wantCode)
			}
			for _, pid := range pids {
				start := time.Now()
				for proc.Alive(pid) {
					if time.Since(start) > 20*time.Second {
						_ = syscall.Kill(pid, syscall.SIGKILL) // do not leak it past the test
						t.Fatalf("broker JVM %d outlived the child by 20s", pid)
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
}
