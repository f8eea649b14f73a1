package cluster

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/prodlab/prodlab/internal/proc"
)

// MemoryRoot is the tmpfs that storage: memory puts broker data on:
// every Linux machine has it, and an unprivileged process can write it.
const MemoryRoot = "/dev/shm"

// MinMemoryFree is the free space storage: memory asks of MemoryRoot
// before a cluster starts there: a trial's topic lives on it until the
// trial ends (about 850 MiB for 3 s of 1 KB records at 200k/s on one
// broker).
const MinMemoryFree = 2 << 30

// dataPrefix starts the name of every data directory prodlab makes under
// a data root: prodlab-<pid>-<cluster id>, so that a later run can tell a
// dead run's directory (its pid is gone) and remove it.
const dataPrefix = "prodlab-"

// CheckDataRoot fails when root cannot hold a cluster's data: not a
// directory, or less than MinMemoryFree free.
func CheckDataRoot(root string) error {
	free, err := FreeBytes(root)
	if err != nil {
		return fmt.Errorf("storage: memory needs %s: %w", root, err)
	}
	if free < MinMemoryFree {
		return fmt.Errorf("storage: memory needs %d MiB free in %s, it has %d MiB", MinMemoryFree>>20, root, free>>20)
	}
	return nil
}

// FreeBytes is the space an unprivileged process may still write in the
// file system that holds root.
func FreeBytes(root string) (int64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(root, &st); err != nil {
		return 0, fmt.Errorf("free space of %s: %w", root, err)
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

// makeDataRoot creates this cluster's directory under cfg.DataRoot, after
// removing those of runs that are gone (a prodlab killed with SIGKILL
// cannot remove its own, and on a tmpfs they hold memory).
func (c *Cluster) makeDataRoot() error {
	reapDataRoots(c.cfg.DataRoot)
	dir := filepath.Join(c.cfg.DataRoot, fmt.Sprintf("%s%d-%s", dataPrefix, os.Getpid(), c.clusterID))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("storage under %s: %w", c.cfg.DataRoot, err)
	}
	c.dataRoot = dir
	return nil
}

// reapDataRoots removes the data directories under root of prodlab
// processes that no longer run.
func reapDataRoots(root string) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range ents {
		pid, ok := dataRootPID(e.Name())
		if ok && e.IsDir() && pid != os.Getpid() && !proc.Alive(pid) {
			_ = os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
}

// dataRootPID reads the pid from a data directory's name
// (prodlab-<pid>-<cluster id>).
func dataRootPID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, dataPrefix)
	if !ok {
		return 0, false
	}
	p, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(p)
	return pid, err == nil && pid > 0
}

// removeDataRoot removes this cluster's directory under cfg.DataRoot, if
// it made one.
func (c *Cluster) removeDataRoot() error {
	if c.dataRoot == "" {
		return nil
	}
	if err := os.RemoveAll(c.dataRoot); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove broker data in %s: %w", c.dataRoot, err)
	}
	return nil
}
