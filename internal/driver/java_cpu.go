package driver

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"
)

// procClockTicks is the unit of utime and stime in /proc/<pid>/stat: the
// kernel reports them in USER_HZ, which is 100 on every Linux architecture
// (it is part of the user-space ABI; sysconf(_SC_CLK_TCK), i.e. `getconf
// CLK_TCK`, returns it). golang.org/x/sys/unix has no sysconf, hence the
// constant.
const procClockTicks = 100

// PID is the worker JVM's process id, or 0 when no worker runs.
func (j *Worker) PID() int {
	if j.cmd == nil || j.cmd.Process == nil || j.exited == nil {
		return 0
	}
	select {
	case <-j.exited:
		return 0
	default:
		return j.cmd.Process.Pid
	}
}

// CPUTime is the CPU time (user + system) the worker JVM has used since it
// started, read from /proc/<pid>/stat, so the lab can charge a trial with
// the difference of two readings. It fails when no worker runs (not
// started, closed or dead) or /proc cannot be read (not Linux). It does not
// wait for a running trial.
func (j *Worker) CPUTime() (time.Duration, error) {
	pid := j.PID()
	if pid == 0 {
		return 0, fmt.Errorf("%s: no worker process runs", j.Name())
	}
	d, err := procCPUTime(pid)
	if err != nil {
		return 0, fmt.Errorf("%s: worker CPU time: %w", j.Name(), err)
	}
	return d, nil
}

// procCPUTime reads utime + stime of a process from /proc/<pid>/stat.
func procCPUTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	ticks, err := parseProcStatTicks(b)
	if err != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
	}
	return time.Duration(ticks) * (time.Second / procClockTicks), nil
}

// parseProcStatTicks returns utime + stime (fields 14 and 15, in clock
// ticks) of a /proc/<pid>/stat line. The command name (field 2) is in
// parentheses and may itself hold spaces and parentheses, so fields are
// counted from the last ')'.
func parseProcStatTicks(stat []byte) (uint64, error) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errors.New("no command name")
	}
	f := bytes.Fields(stat[i+1:]) // f[0] is field 3 (state)
	if len(f) < 13 {
		return 0, fmt.Errorf("%d fields after the command name, want at least 13", len(f))
	}
	utime, err := strconv.ParseUint(string(f[11]), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("utime: %w", err)
	}
	stime, err := strconv.ParseUint(string(f[12]), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("stime: %w", err)
	}
	return utime + stime, nil
}
