package proc

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// session returns the session id of pid from /proc/<pid>/stat.
func session(t *testing.T, pid int) int {
	t.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(stat)
	// After "pid (comm) ": state ppid pgrp session ...
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	sid, err := strconv.Atoi(fields[3])
	if err != nil {
		t.Fatalf("parse session of %d: %v", pid, err)
	}
	return sid
}

// waitGone waits up to d for pid to stop running.
func waitGone(t *testing.T, pid int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for Alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still alive after %v", pid, d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestStartSetsGroupAndKillAllKillsIt(t *testing.T) {
	// sh starts a grandchild in the same group: KillAll must take both.
	cmd := exec.Command("sh", "-c", "sleep 60 & echo $!; wait")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := Start(cmd); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	t.Cleanup(func() { _ = syscall.Kill(-pid, syscall.SIGKILL); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	grandchild, _ := strconv.Atoi(strings.TrimSpace(line))
	if pgid, _ := syscall.Getpgid(pid); pgid != pid {
		t.Errorf("child pgid = %d, want its own group %d", pgid, pid)
	}
	if got := Registered(); len(got) != 1 || got[0] != pid {
		t.Errorf("Registered() = %v, want [%d]", got, pid)
	}
	KillAll()
	KillAll() // idempotent
	_ = cmd.Wait()
	waitGone(t, pid, 10*time.Second)
	waitGone(t, grandchild, 10*time.Second)
	if got := Registered(); len(got) != 0 {
		t.Errorf("Registered() after KillAll = %v, want empty", got)
	}
}

func TestForget(t *testing.T) {
	cmd := exec.Command("true")
	if err := Start(cmd); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	Forget(cmd.Process.Pid)
	if got := Registered(); len(got) != 0 {
		t.Errorf("Registered() after Forget = %v, want empty", got)
	}
}

func TestStartDetachedIsNotRegistered(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := StartDetached(cmd); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL); _ = cmd.Wait() })
	if sid := session(t, pid); sid != pid {
		t.Errorf("detached child sid = %d, want its own session %d", sid, pid)
	}
	if got := Registered(); len(got) != 0 {
		t.Errorf("Registered() = %v, want a detached child left out", got)
	}
	KillAll()
	// A kill takes effect when the child is next scheduled: watch for 2 s.
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !Alive(pid) {
			t.Fatal("KillAll killed a detached child")
		}
	}
}

// childEnv switches the test binary into the child role of TestNoOrphans.
const childEnv = "PRODLAB_PROC_TEST_CHILD"

// TestChild is the child side of TestNoOrphans: with the handler and the
// deferred KillAll of a real main, it starts `sleep 60`, prints its pid and
// then waits for a signal, or panics.
func TestChild(t *testing.T) {
	mode := os.Getenv(childEnv)
	if mode == "" {
		t.Skip("child role of TestNoOrphans")
	}
	defer KillAll()
	stop := InstallSignalHandler()
	defer stop()
	// Start from a goroutine that then exits: the starter thread, not this
	// goroutine's, must be the parent that Pdeathsig is tied to.
	pidCh := make(chan int)
	go func() {
		cmd := exec.Command("sleep", "60")
		if err := Start(cmd); err != nil {
			panic(err)
		}
		pidCh <- cmd.Process.Pid
	}()
	fmt.Printf("PID %d\n", <-pidCh)
	if mode == "panic" {
		time.Sleep(100 * time.Millisecond)
		panic("child panics on purpose")
	}
	time.Sleep(time.Minute)
}

// TestNoOrphans runs TestChild in a child process, ends that child in each
// way prodlab can end, and checks that its grandchild dies with it.
func TestNoOrphans(t *testing.T) {
	cases := []struct {
		mode     string
		sig      syscall.Signal // sent by the parent; 0 for none
		wantCode int            // child's exit status; -1 for killed by signal
	}{
		{"sigterm", syscall.SIGTERM, 143}, // handler: KillAll, exit 128+15
		{"sigint", syscall.SIGINT, 130},   // handler: KillAll, exit 128+2
		{"panic", 0, 2},                   // deferred KillAll during the panic
		{"sigkill", syscall.SIGKILL, -1},  // no code runs: Pdeathsig
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestChild$", "-test.v")
			cmd.Env = append(os.Environ(), childEnv+"="+tc.mode)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill() })
			sc := bufio.NewScanner(out)
			grandchild := 0
			for sc.Scan() {
				if p, ok := strings.CutPrefix(sc.Text(), "PID "); ok {
					grandchild, _ = strconv.Atoi(p)
					break
				}
			}
			if grandchild == 0 {
				t.Fatal("child printed no PID line")
			}
			go func() {
				for sc.Scan() {
				}
			}()
			if tc.sig != 0 {
				if err := cmd.Process.Signal(tc.sig); err != nil {
					t.Fatal(err)
				}
			}
			err = cmd.Wait()
			code := cmd.ProcessState.ExitCode()
			if code != tc.wantCode {
				t.Errorf("child exit code = %d (%v), want %d", code, err, tc.wantCode)
			}
			waitGone(t, grandchild, 10*time.Second)
		})
	}
}

// TestStopDetached: a detached process that ignores SIGTERM is killed after
// the grace period, one that exits on SIGTERM is not; Cmdline reads a live
// process's arguments and none of a gone one.
func TestStopDetached(t *testing.T) {
	// exec keeps the ignored TERM; "ready" says the trap is in place.
	stubborn := exec.Command("sh", "-c", "trap '' TERM; echo ready; exec sleep 30")
	ready, err := stubborn.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	polite := exec.Command("sleep", "30")
	for _, c := range []*exec.Cmd{stubborn, polite} {
		if err := StartDetached(c); err != nil {
			t.Fatal(err)
		}
		go func(c *exec.Cmd) { _ = c.Wait() }(c)
	}
	// Until the child has exec'd, its command line is its parent's or empty.
	var args []string
	var ok bool
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if args, ok = Cmdline(polite.Process.Pid); ok && len(args) == 2 && args[0] == "sleep" {
			break
		}
	}
	if !ok || len(args) != 2 || args[0] != "sleep" {
		t.Errorf("Cmdline = %q, %v; want [sleep 30]", args, ok)
	}
	if line, err := bufio.NewReader(ready).ReadString('\n'); line != "ready\n" {
		t.Fatalf("stubborn child said %q, %v; want \"ready\"", line, err)
	}
	left := StopDetached([]int{stubborn.Process.Pid, polite.Process.Pid}, 300*time.Millisecond)
	if len(left) != 0 || Alive(stubborn.Process.Pid) || Alive(polite.Process.Pid) {
		t.Errorf("still alive after StopDetached: %v", left)
	}
	if _, ok := Cmdline(polite.Process.Pid); ok {
		t.Error("Cmdline of a gone process")
	}
}
