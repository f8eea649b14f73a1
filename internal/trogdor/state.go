package trogdor

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/prodlab/prodlab/internal/maven"
	"github.com/prodlab/prodlab/internal/proc"
)

// State is what `prodlab trogdor up` records about a detached fleet, so that
// `trogdor status` and `trogdor down` find it again.
type State struct {
	Release     string    `json:"release"`
	URL         string    `json:"url"`
	Dir         string    `json:"dir"`
	Coordinator Node      `json:"coordinator"`
	Agents      []Node    `json:"agents"`
	Started     time.Time `json:"started"`
}

// DefaultStatePath returns CacheDir()/trogdor.json, or a path in the
// temporary directory when there is no cache directory.
func DefaultStatePath() string {
	dir, err := maven.CacheDir()
	if err != nil {
		dir = filepath.Join(os.TempDir(), "prodlab")
	}
	return filepath.Join(dir, "trogdor.json")
}

// StateOf is the state to record for fleet f.
func StateOf(f *Fleet) State {
	return State{Release: f.Release, URL: f.URL(), Dir: f.Dir, Coordinator: f.Coordinator,
		Agents: append([]Node(nil), f.Agents...), Started: time.Now().UTC()}
}

// SaveState writes s to path as JSON, atomically (temporary file, rename).
func SaveState(path string, s State) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("encode trogdor state: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("save trogdor state: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("save trogdor state: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("save trogdor state: %w", err)
	}
	return nil
}

// LoadState reads a state file written by SaveState. A missing file gives an
// error that matches os.ErrNotExist (no fleet is up).
func LoadState(path string) (*State, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load trogdor state: %w", err)
	}
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("load trogdor state %s: %w", path, err)
	}
	return &s, nil
}

// Nodes is the coordinator followed by the agents.
func (s *State) Nodes() []Node { return append([]Node{s.Coordinator}, s.Agents...) }

// LiveNodes returns the nodes of s whose process is still running.
func (s *State) LiveNodes() []Node {
	var live []Node
	for _, n := range s.Nodes() {
		if s.owns(n.PID) {
			live = append(live, n)
		}
	}
	return live
}

// owns reports whether pid is alive and is a daemon of this fleet: a
// Trogdor JVM whose command line names the fleet's config file. It guards
// against signalling an unrelated process that reused a pid.
func (s *State) owns(pid int) bool {
	if pid <= 0 || !proc.Alive(pid) || s.Dir == "" {
		return false
	}
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return false
	}
	return ownsCmdline(strings.Split(string(cmdline), "\x00"), filepath.Join(s.Dir, "trogdor.json"))
}

// ownsCmdline reports whether args run a Trogdor daemon with config file cfg.
func ownsCmdline(args []string, cfg string) bool {
	hasMain, hasCfg := false, false
	for _, a := range args {
		if a == coordinatorMain || a == agentMain {
			hasMain = true
		}
		if a == cfg {
			hasCfg = true
		}
	}
	return hasMain && hasCfg
}

// StopState stops the daemons of a detached fleet: SIGTERM, up to stopGrace
// for a clean exit, then SIGKILL. Pids that are gone, or that now belong to
// another program, are left alone.
func StopState(s *State) error {
	live := s.LiveNodes()
	for _, n := range live {
		_ = proc.Signal(n.PID, syscall.SIGTERM) // each leads its own session and group
	}
	waitGone(live, stopGrace)
	for _, n := range live {
		if proc.Alive(n.PID) {
			_ = proc.Signal(n.PID, syscall.SIGKILL)
		}
	}
	waitGone(live, 5*time.Second)
	var errs []error
	for _, n := range live {
		if proc.Alive(n.PID) {
			errs = append(errs, fmt.Errorf("trogdor %s (pid %d) still running after SIGKILL", n.Name, n.PID))
		}
	}
	return errors.Join(errs...)
}

// waitGone waits up to d for every node's process to end.
func waitGone(nodes []Node, d time.Duration) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		alive := false
		for _, n := range nodes {
			alive = alive || proc.Alive(n.PID)
		}
		if !alive {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ErrStateLocked is returned (wrapped) by LockState when another process
// holds the lock.
var ErrStateLocked = errors.New("trogdor state is locked")

// LockState takes an exclusive flock(2) on path+".lock" without waiting, so
// that `trogdor up` and `trogdor down` never race on the state file; the
// kernel drops it if its holder dies. Call unlock when done.
func LockState(path string) (unlock func(), err error) {
	lock := path + ".lock"
	if err := os.MkdirAll(filepath.Dir(lock), 0o755); err != nil {
		return nil, fmt.Errorf("lock trogdor state: %w", err)
	}
	f, err := os.OpenFile(lock, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock trogdor state: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: another prodlab trogdor up or down holds %s; wait for it to finish, then try again", ErrStateLocked, lock)
		}
		return nil, fmt.Errorf("lock trogdor state %s: %w", lock, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
	}, nil
}
