package cluster

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ErrStateLocked is returned (wrapped) by LockState when another process
// holds the lock.
var ErrStateLocked = errors.New("cluster state is locked")

// LockState takes an exclusive flock(2) on path+".lock", for `prodlab
// cluster up` and `cluster down` to read, start or stop and write the state
// file at path without racing each other. It does not wait: a second `up`
// could only find the first one's cluster afterwards and refuse, minutes
// later, so it is refused at once, naming the holder's pid. The kernel
// drops the lock if its holder dies. Call unlock when done.
func LockState(path string) (unlock func(), err error) {
	lock := path + ".lock"
	if err := os.MkdirAll(filepath.Dir(lock), 0o755); err != nil {
		return nil, fmt.Errorf("lock cluster state: %w", err)
	}
	f, err := os.OpenFile(lock, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock cluster state: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder := lockHolder(f)
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: another prodlab cluster up or down%s holds %s; wait for it to finish, then try again", ErrStateLocked, holder, lock)
		}
		return nil, fmt.Errorf("lock cluster state %s: %w", lock, err)
	}
	// Say who holds it, for the message of the one refused.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() {
		_ = f.Truncate(0)
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
	}, nil
}

// lockHolder is " (pid N)" from a held lock file, or "" if it names none.
func lockHolder(f *os.File) string {
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil || pid <= 0 {
		return ""
	}
	return fmt.Sprintf(" (pid %d)", pid)
}
