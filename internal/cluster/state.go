package cluster

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/maven"
	"github.com/prodlab/prodlab/internal/proc"
	"github.com/prodlab/prodlab/internal/statefile"
)

// State is what `prodlab cluster up` records about a detached cluster, so
// that `cluster status` and `cluster down` find it again.
type State struct {
	Version   string    `json:"version"`
	Bootstrap []string  `json:"bootstrap"`
	Dir       string    `json:"dir"`
	Brokers   []Broker  `json:"brokers"`
	Started   time.Time `json:"started"`
}

// DefaultStatePath returns CacheDir()/cluster.json, or a path in the
// temporary directory when there is no cache directory.
func DefaultStatePath() string { return maven.StatePath("cluster.json") }

// SaveState writes the state of embedded cluster c to path as JSON,
// atomically (write a temporary file, then rename).
func SaveState(path string, c *Cluster) error {
	if c.external {
		return fmt.Errorf("save cluster state: %w", errExternal)
	}
	s := State{
		Version:   c.Version(),
		Bootstrap: c.Bootstrap(),
		Dir:       c.cfg.Dir,
		Brokers:   c.Brokers(),
		Started:   time.Now().UTC(),
	}
	return statefile.Save(path, "cluster state", s)
}

// LoadState reads a state file written by SaveState. A missing file gives
// an error that matches os.ErrNotExist (no cluster is up).
func LoadState(path string) (*State, error) {
	var s State
	if err := statefile.Load(path, "cluster state", &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// Address is the cluster's bootstrap list, "host:port,host:port".
func (s *State) Address() string { return strings.Join(s.Bootstrap, ",") }

// Running reports whether any broker of s still runs.
func (s *State) Running() bool { return len(s.LiveBrokers()) > 0 }

// Stop stops the brokers that still run (StopState).
func (s *State) Stop() error { return StopState(s) }

// LiveBrokers returns the brokers of s whose process is still running.
func (s *State) LiveBrokers() []Broker {
	var live []Broker
	for _, b := range s.Brokers {
		if s.owns(b.PID) {
			live = append(live, b)
		}
	}
	return live
}

// owns reports whether pid is alive and is one of this cluster's brokers:
// a Kafka JVM whose command line names a file under the cluster directory.
// It guards against signalling an unrelated process that reused a pid.
func (s *State) owns(pid int) bool {
	args, ok := proc.Cmdline(pid)
	if !ok || !proc.Alive(pid) || s.Dir == "" {
		return false
	}
	hasMain, hasDir := false, false
	for _, a := range args {
		if a == BrokerMainClass {
			hasMain = true
		}
		if strings.HasPrefix(a, s.Dir+string(filepath.Separator)) {
			hasDir = true
		}
	}
	return hasMain && hasDir
}

// StopState stops the brokers of a detached cluster: SIGTERM, up to 10s for
// a clean exit, then SIGKILL. Pids that are gone, or that now belong to
// another program, are left alone.
func StopState(s *State) error {
	var ps []proc.Named
	for _, b := range s.LiveBrokers() {
		ps = append(ps, proc.Named{Name: fmt.Sprintf("broker %d", b.ID), PID: b.PID})
	}
	return proc.StopNamed(ps, defaultStopGrace)
}
