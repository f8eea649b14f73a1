package proc

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
)

// Alive reports whether pid is a running process. A zombie (exited, not yet
// reaped by its parent) counts as not alive: it no longer runs or holds
// ports, it only waits for its parent to collect its status.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		// No procfs: trust kill(2), which said the process exists.
		return !errors.Is(err, os.ErrNotExist)
	}
	// The state letter follows the parenthesised command name.
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}
