// Package proc keeps track of every child process prodlab starts, so that none
// of them outlives prodlab: not on a normal exit, not on Ctrl-C or SIGTERM,
// not on a panic and not when prodlab itself is SIGKILLed.
//
// Three mechanisms work together:
//   - every child runs in its own process group (Setpgid), so killing the
//     group also kills anything the child started (a JVM's helpers, the
//     java process a shell wrapper such as mvn execs);
//   - a registry of those groups, which KillAll kills and which the signal
//     handler installed by InstallSignalHandler uses before exiting;
//   - a parent-death signal (Pdeathsig: SIGKILL), which the kernel delivers
//     when prodlab dies without running any code (SIGKILL, OOM kill).
//
// Pdeathsig fires when the OS thread that created the child exits, not when
// the process does. Go may retire threads, so every child is started from one
// goroutine that is locked to its OS thread and never returns: that thread
// lives exactly as long as the process.
package proc

import (
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// registry holds the process groups of all live, registered children.
var registry = struct {
	sync.Mutex
	groups map[int]struct{}
}{groups: make(map[int]struct{})}

// startReq asks the starter goroutine to start one command.
type startReq struct {
	cmd  *exec.Cmd
	done chan error
}

var (
	starterOnce sync.Once
	starterCh   chan startReq
)

// starter runs on a goroutine locked to its OS thread and never returns, so
// the thread that is the parent of every child (for Pdeathsig) never exits
// while the process lives.
func starter() {
	runtime.LockOSThread()
	for req := range starterCh {
		req.done <- startRegistered(req.cmd)
	}
}

// startRegistered starts cmd and registers its process group; the registry
// lock is held across both so that a concurrent KillAll either sees the
// child or runs before it exists.
func startRegistered(cmd *exec.Cmd) error {
	registry.Lock()
	defer registry.Unlock()
	if err := cmd.Start(); err != nil {
		return err
	}
	registry.groups[cmd.Process.Pid] = struct{}{}
	return nil
}

// Start starts cmd in its own process group with a parent-death signal of
// SIGKILL and registers it, so that KillAll (and the signal handler) kill it.
// Any SysProcAttr already set on cmd is kept apart from Setpgid, Pgid and
// Pdeathsig, which Start sets. Call Forget after the child has exited.
func Start(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pgid = 0
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	starterOnce.Do(func() {
		starterCh = make(chan startReq)
		go starter()
	})
	req := startReq{cmd: cmd, done: make(chan error, 1)}
	starterCh <- req
	if err := <-req.done; err != nil {
		return fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	return nil
}

// StartDetached starts cmd in a new session (Setsid), without a parent-death
// signal and without registering it: the child outlives prodlab. It is meant
// for `prodlab cluster up`, whose brokers must keep running after the command
// returns. Redirect the child's output to files, not pipes, before calling.
func StartDetached(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid = true
	cmd.SysProcAttr.Setpgid = false
	cmd.SysProcAttr.Pdeathsig = 0
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start detached %s: %w", cmd.Path, err)
	}
	return nil
}

// Forget removes a child from the registry, typically after it has exited
// and been waited for, so that KillAll never signals a reused process id.
func Forget(pid int) {
	registry.Lock()
	defer registry.Unlock()
	delete(registry.groups, pid)
}

// Registered returns the process ids of all registered children.
func Registered() []int {
	registry.Lock()
	defer registry.Unlock()
	pids := make([]int, 0, len(registry.groups))
	for pid := range registry.groups {
		pids = append(pids, pid)
	}
	return pids
}

// KillAll sends SIGKILL to the process group of every registered child and
// empties the registry. It is idempotent and safe to call from any goroutine,
// including a deferred call during a panic.
func KillAll() {
	registry.Lock()
	defer registry.Unlock()
	for pgid := range registry.groups {
		// ESRCH means the group is already gone: nothing to do.
		if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			// Fall back to the leader alone; there is no one to report to.
			_ = syscall.Kill(pgid, syscall.SIGKILL)
		}
		delete(registry.groups, pgid)
	}
}

// Signal sends sig to the process group led by pid. Use it instead of
// Process.Signal so that a child's own children receive the signal too.
func Signal(pid int, sig syscall.Signal) error {
	if err := syscall.Kill(-pid, sig); err != nil {
		return fmt.Errorf("send %v to process group %d: %w", sig, pid, err)
	}
	return nil
}
