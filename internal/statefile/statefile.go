// Package statefile keeps the state of something prodlab left running
// between commands (`prodlab cluster up`, `prodlab trogdor up`): a JSON file
// written atomically, and an exclusive lock beside it so that two commands
// never race on it. Of prodlab it imports only inputfile (the names of
// file types it refuses).
package statefile

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/prodlab/prodlab/internal/inputfile"
)

// ErrLocked is returned (wrapped) by Lock when another process holds the
// lock.
var ErrLocked = errors.New("state is locked")

// Save writes v to path as indented JSON, atomically (a temporary file
// renamed over path), so that a reader never sees half a file. what names
// the state in errors ("cluster state").
func Save(path, what string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", what, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("save %s: %w", what, err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("save %s: %w", what, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("save %s: %w", what, err)
	}
	return nil
}

// Load reads a file written by Save into v. A missing file gives an error
// that matches os.ErrNotExist (nothing is up). A path that is not a
// regular file (a FIFO would block the read) or a file that does not
// decode is refused, saying how to recover: Save never leaves either, so
// something else wrote it.
func Load(path, what string, v any) error {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("load %s: %s is not a regular file (%s): %s", what, path, inputfile.Kind(st.Mode()), recovery)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("load %s: %w", what, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		why := err.Error()
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			why = "a JSON " + te.Value + " where prodlab writes something else"
		}
		return fmt.Errorf("load %s: %s is damaged (%s): %s", what, path, why, recovery)
	}
	return nil
}

// recovery says what to do about a state file prodlab cannot read.
const recovery = "prodlab did not write it so; if nothing it started is still running, remove it"

// Lock takes an exclusive flock(2) on path+".lock" without waiting: a
// second command could only find the first one's work afterwards and
// refuse, minutes later, so it is refused at once, naming the holder's pid
// and saying who it is (holder, e.g. "prodlab cluster up or down"). The
// kernel drops the lock if its holder dies. Call unlock when done.
func Lock(path, what, holder string) (unlock func(), err error) {
	lock := path + ".lock"
	if err := os.MkdirAll(filepath.Dir(lock), 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", what, err)
	}
	f, err := os.OpenFile(lock, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", what, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		pid := lockHolder(f)
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s: %w: another %s%s holds %s; wait for it to finish, then try again", what, ErrLocked, holder, pid, lock)
		}
		return nil, fmt.Errorf("lock %s %s: %w", what, lock, err)
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
