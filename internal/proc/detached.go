package proc

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Cmdline returns the command line of process pid (from /proc), or false
// when it cannot be read (the process is gone, or this is not Linux). It is
// how prodlab tells its own detached daemons from unrelated processes that
// reused their pids.
func Cmdline(pid int) ([]string, bool) {
	if pid <= 0 {
		return nil, false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || len(b) == 0 { // a zombie's is empty
		return nil, false
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00"), true
}

// StopDetached stops detached processes (each the leader of its own session
// and group, see StartDetached): SIGTERM (and SIGCONT, in case one is
// paused), up to grace for a clean exit, then SIGKILL and up to 5 s more. It
// returns the pids still alive after that.
func StopDetached(pids []int, grace time.Duration) (alive []int) {
	for _, pid := range pids {
		_ = Signal(pid, syscall.SIGTERM)
		_ = Signal(pid, syscall.SIGCONT)
	}
	waitExited(pids, grace)
	for _, pid := range pids {
		if Alive(pid) {
			_ = Signal(pid, syscall.SIGKILL)
		}
	}
	waitExited(pids, 5*time.Second)
	for _, pid := range pids {
		if Alive(pid) {
			alive = append(alive, pid)
		}
	}
	return alive
}

// waitExited waits up to d for every pid to end.
func waitExited(pids []int, d time.Duration) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		gone := true
		for _, pid := range pids {
			gone = gone && !Alive(pid)
		}
		if gone {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Named is a detached process with the name messages give it ("broker
// 1", "trogdor agent-1").
type Named struct {
	Name string
	PID  int
}

// StopNamed stops detached processes as StopDetached does, and names each
// one still running after SIGKILL in the error.
func StopNamed(ps []Named, grace time.Duration) error {
	pids := make([]int, len(ps))
	for i, p := range ps {
		pids[i] = p.PID
	}
	var errs []error
	for _, pid := range StopDetached(pids, grace) {
		for _, p := range ps {
			if p.PID == pid {
				errs = append(errs, fmt.Errorf("%s (pid %d) still running after SIGKILL", p.Name, p.PID))
			}
		}
	}
	return errors.Join(errs...)
}
