package cluster

import "github.com/prodlab/prodlab/internal/statefile"

// ErrStateLocked is returned (wrapped) by LockState when another process
// holds the lock.
var ErrStateLocked = statefile.ErrLocked

// LockState takes the lock of the state file at path, for `prodlab cluster
// up` and `cluster down` to read, start or stop and write it without racing
// each other; a second one is refused at once, naming the holder's pid (see
// statefile.Lock). Call unlock when done.
func LockState(path string) (unlock func(), err error) {
	return statefile.Lock(path, "cluster state", "prodlab cluster up or down")
}
