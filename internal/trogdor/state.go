package trogdor

import (
	"path/filepath"
	"time"

	"github.com/prodlab/prodlab/internal/maven"
	"github.com/prodlab/prodlab/internal/proc"
	"github.com/prodlab/prodlab/internal/statefile"
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
func DefaultStatePath() string { return maven.StatePath("trogdor.json") }

// StateOf is the state to record for fleet f.
func StateOf(f *Fleet) State {
	return State{Release: f.Release, URL: f.URL(), Dir: f.Dir, Coordinator: f.Coordinator,
		Agents: append([]Node(nil), f.Agents...), Started: time.Now().UTC()}
}

// SaveState writes s to path as JSON, atomically (temporary file, rename).
func SaveState(path string, s State) error {
	return statefile.Save(path, "trogdor state", s)
}

// LoadState reads a state file written by SaveState. A missing file gives an
// error that matches os.ErrNotExist (no fleet is up).
func LoadState(path string) (*State, error) {
	var s State
	if err := statefile.Load(path, "trogdor state", &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// Nodes is the coordinator followed by the agents.
func (s *State) Nodes() []Node { return append([]Node{s.Coordinator}, s.Agents...) }

// Address is the coordinator's URL.
func (s *State) Address() string { return s.URL }

// Running reports whether any daemon of s still runs.
func (s *State) Running() bool { return len(s.LiveNodes()) > 0 }

// Stop stops the daemons that still run (StopState).
func (s *State) Stop() error { return StopState(s) }

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
	args, ok := proc.Cmdline(pid)
	if !ok || !proc.Alive(pid) || s.Dir == "" {
		return false
	}
	return ownsCmdline(args, filepath.Join(s.Dir, "trogdor.json"))
}

// ownsCmdline reports whether args run a Trogdor daemon with config file cfg.
func ownsCmdline(args []string, cfg string) bool {
	hasMain, hasCfg := false, false
	for _, a := range args {
		if a == daemonMain || a == coordinatorMain || a == agentMain {
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
	var ps []proc.Named
	for _, n := range s.LiveNodes() {
		ps = append(ps, proc.Named{Name: "trogdor " + n.Name, PID: n.PID})
	}
	return proc.StopNamed(ps, stopGrace)
}

// ErrStateLocked is returned (wrapped) by LockState when another process
// holds the lock.
var ErrStateLocked = statefile.ErrLocked

// LockState takes the lock of the state file at path, so that `trogdor up`
// and `trogdor down` never race on it (see statefile.Lock). Call unlock
// when done.
func LockState(path string) (unlock func(), err error) {
	return statefile.Lock(path, "trogdor state", "prodlab trogdor up or down")
}
