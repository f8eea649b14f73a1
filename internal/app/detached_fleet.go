package app

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/trogdor"
)

// Fleet is the local Trogdor fleet (a coordinator and agents running
// prodlab's worker) kept up by `prodlab trogdor up`.
var Fleet = Detached{
	Noun: "trogdor fleet", Command: "trogdor", NodeNoun: "node",
	CountName: "--agents", ReleaseName: "--release",
	MaxCount: trogdor.MaxAgents, DefaultRelease: trogdor.DefaultRelease,
	svc: fleetService{},
}

// fleetService is the service behind Fleet.
type fleetService struct{}

func (fleetService) statePath() string { return trogdor.DefaultStatePath() }

func (fleetService) lock(path string) (func(), error) { return trogdor.LockState(path) }

func (fleetService) load(path string) (recorded, error) { return trogdor.LoadState(path) }

func (fleetService) check(_ context.Context, req UpRequest) error {
	if err := trogdor.CheckRelease(req.Release); err != nil {
		return fmt.Errorf("%s: %w", Fleet.ReleaseName, err)
	}
	if jar := WorkerJar(); !exists(jar) {
		return fmt.Errorf("the Java worker is not at %s: build it with 'make build' (or point PRODLAB_WORKER_JAR at it)", jar)
	} else if err := checkJarPath(jar); err != nil {
		return fmt.Errorf("the Java worker: %w", err)
	}
	return nil
}

func (fleetService) start(ctx context.Context, path string, req UpRequest) (Up, error) {
	f, err := trogdor.Start(ctx, trogdor.Config{Agents: req.Count, Release: req.Release, WorkerJar: WorkerJar(), Dir: req.Dir, Detached: true})
	if err != nil {
		return Up{}, err
	}
	if err := trogdor.SaveState(path, trogdor.StateOf(f)); err != nil {
		_ = f.Stop()
		return Up{}, err
	}
	return Up{
		Address: f.URL(),
		Note:    fmt.Sprintf("Trogdor %s: coordinator and %d agent(s) up; config and logs in %s", f.Release, req.Count, req.Dir),
	}, nil
}

// plan names the release (and whether it is in the cache), the nodes,
// the worker jar, and where the logs and the state would go.
func (fleetService) plan(_ context.Context, path string, req UpRequest) ([]string, error) {
	p, err := trogdor.Plan(trogdor.Config{Agents: req.Count, Release: req.Release, WorkerJar: WorkerJar(), Dir: req.Dir, Detached: true})
	if err != nil {
		return nil, err
	}
	release := "in the cache"
	if !p.Cached {
		release = "not in the cache: mvn downloads it as it starts"
	}
	return []string{
		fmt.Sprintf("would start Trogdor %s (%s): a %s and %d agent(s) (%s) on %s", p.Release, release, p.Coordinator, len(p.Agents), strings.Join(p.Agents, ", "), trogdor.Loopback),
		fmt.Sprintf("ports: %d, one per node, picked free as it starts; the coordinator's URL is printed then", len(p.Agents)+1),
		"worker jar (on every daemon's class path): " + p.WorkerJar,
		"config and logs: " + p.Dir,
		"state: " + path + " (not written by a dry run)",
	}, nil
}

// status lists the fleet's nodes and, while any runs, asks the
// coordinator when it started and for its tasks.
func (fleetService) status(ctx context.Context, path string) (*Status, error) {
	s, err := trogdor.LoadState(path)
	if err != nil {
		return nil, err
	}
	live := map[string]bool{}
	for _, n := range s.LiveNodes() {
		live[n.Name] = true
	}
	st := &Status{Title: "Trogdor " + s.Release, AddressName: "coordinator", Address: s.URL, Dir: s.Dir}
	for _, n := range s.Nodes() {
		st.Nodes = append(st.Nodes, NodeStatus{Name: n.Name, Addr: fmt.Sprintf("127.0.0.1:%d", n.Port), PID: n.PID, Running: live[n.Name]})
	}
	if len(live) == 0 {
		return st, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	st.Coordinator, err = coordinatorOf(ctx, s.URL)
	return st, err
}

// coordinatorOf asks the coordinator at url for its status and tasks.
func coordinatorOf(ctx context.Context, url string) (*Coordinator, error) {
	cl := trogdor.NewClient(url)
	cs, err := cl.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("coordinator status: %w", err)
	}
	tasks, err := cl.Tasks(ctx)
	if err != nil {
		return nil, fmt.Errorf("coordinator tasks: %w", err)
	}
	c := &Coordinator{Since: time.UnixMilli(cs.ServerStartMs).UTC()}
	for id, t := range tasks {
		c.Tasks = append(c.Tasks, Task{ID: id, State: t.State, Error: t.Error})
	}
	sort.Slice(c.Tasks, func(i, j int) bool { return c.Tasks[i].ID < c.Tasks[j].ID })
	return c, nil
}

// exists reports whether path names a file that can be stat'ed.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
