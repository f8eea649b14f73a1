package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/prodlab/prodlab/internal/maven"
)

// Detached is something prodlab keeps running between commands: the
// embedded cluster of `prodlab cluster up` or the Trogdor fleet of
// `prodlab trogdor up`. Up, Status and Down are the same flow for both (a
// state file with a lock beside it, pids checked before they are
// signalled); what differs is the service behind it.
type Detached struct {
	// Noun names it in messages ("cluster", "trogdor fleet"), Command its
	// command group ("cluster", "trogdor").
	Noun, Command string
	// NodeNoun names one of its processes ("broker", "node").
	NodeNoun string
	// CountName and ReleaseName name UpRequest.Count and .Release in
	// messages, as the user sets them ("--brokers", "--kafka").
	CountName, ReleaseName string
	// MaxCount bounds UpRequest.Count; DefaultRelease is used when
	// UpRequest.Release is "".
	MaxCount       int
	DefaultRelease string
	svc            service
}

// service is one kind of detached thing: where its state lives, how to
// check, start and describe it.
type service interface {
	statePath() string
	lock(path string) (unlock func(), err error)
	// load reads the recorded state at path (an error matching
	// os.ErrNotExist when there is none).
	load(path string) (recorded, error)
	check(ctx context.Context, req UpRequest) error
	// start starts it detached and records its state at path.
	start(ctx context.Context, path string, req UpRequest) (Up, error)
	// plan says in a few lines what start would start, starting nothing.
	plan(ctx context.Context, path string, req UpRequest) ([]string, error)
	status(ctx context.Context, path string) (*Status, error)
}

// recorded is a service's saved state (cluster.State, trogdor.State).
type recorded interface {
	// Address is what clients use; Running whether any process of it is
	// alive; Stop stops those that are.
	Address() string
	Running() bool
	Stop() error
}

// running reports the address of the service recorded at path when any
// of its processes is alive.
func (d Detached) running(path string) (string, bool) {
	r, err := d.svc.load(path)
	if err != nil || !r.Running() {
		return "", false
	}
	return r.Address(), true
}

// UpRequest asks for a detached service of Count brokers or agents, of a
// release ("": the default), with its files in Dir ("": a fresh directory
// beside the state file).
type UpRequest struct {
	Count   int
	Release string
	Dir     string
}

// Up is a service that started: Address is what clients use (bootstrap
// servers, the coordinator's URL), Note a line for the log.
type Up struct {
	Address string
	Note    string
}

// Status is a detached service as recorded and as its processes are now.
type Status struct {
	// Title is the software and release ("Kafka 4.1.0").
	Title string
	// AddressName names Address ("bootstrap", "coordinator").
	AddressName, Address string
	Dir                  string
	Nodes                []NodeStatus
	// Coordinator is the fleet's own view of itself; nil for a cluster.
	Coordinator *Coordinator
}

// NodeStatus is one process of a detached service.
type NodeStatus struct {
	Name, Addr string
	PID        int
	Running    bool
}

// Live counts the running nodes.
func (s *Status) Live() int {
	n := 0
	for _, node := range s.Nodes {
		if node.Running {
			n++
		}
	}
	return n
}

// Coordinator is a Trogdor coordinator's report: since when it runs, and
// its tasks by id.
type Coordinator struct {
	Since time.Time
	Tasks []Task
}

// Task is one Trogdor task as its coordinator reports it.
type Task struct {
	ID, State, Error string
}

// Up starts the service detached and records it, refusing (InputError)
// a second one, a count out of range or a release that cannot run,
// before anything starts.
func (d Detached) Up(ctx context.Context, req UpRequest) (Up, error) {
	if err := maven.CheckCacheDir(); err != nil { // the state and the jars live there
		return Up{}, invalid(err)
	}
	path := d.svc.statePath()
	// Held until the state is saved: a second `up` is refused at once
	// instead of starting something the state cannot record.
	unlock, err := d.svc.lock(path)
	if err != nil {
		return Up{}, err
	}
	defer unlock()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	if req, err = d.check(ctx, path, req); err != nil {
		return Up{}, err
	}
	return d.svc.start(ctx, path, req)
}

// DryRun refuses what Up refuses, the same way, and says in a few lines
// what Up would start (`up --dry-run`). It starts nothing and writes no
// state; it takes no lock either, since it records nothing an `up` in
// progress could lose.
func (d Detached) DryRun(ctx context.Context, req UpRequest) ([]string, error) {
	if err := maven.CheckCacheDir(); err != nil {
		return nil, invalid(err)
	}
	path := d.svc.statePath()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	req, err := d.check(ctx, path, req)
	if err != nil {
		return nil, err
	}
	return d.svc.plan(ctx, path, req)
}

// check refuses (InputError) a request Up cannot start: a second service
// (recorded at path and running), a count out of range, a --dir that is a
// file, what the service's own check refuses. It fills in the default
// directory: a fresh one beside the state file, named by the time.
func (d Detached) check(ctx context.Context, path string, req UpRequest) (UpRequest, error) {
	if addr, ok := d.running(path); ok {
		return req, invalid(fmt.Errorf("a %s is already up at %s (run 'prodlab %s down' first)", d.Noun, addr, d.Command))
	}
	if req.Count < 1 || req.Count > d.MaxCount {
		return req, invalid(fmt.Errorf("%s must be between 1 and %d, got %d", d.CountName, d.MaxCount, req.Count))
	}
	if st, err := os.Stat(req.Dir); req.Dir != "" && err == nil && !st.IsDir() {
		return req, invalid(fmt.Errorf("--dir %s is a file, not a directory: name a directory for the logs (created if missing)", req.Dir))
	}
	if err := d.svc.check(ctx, req); err != nil {
		return req, invalid(err)
	}
	if req.Dir == "" {
		req.Dir = filepath.Join(filepath.Dir(path), d.Command+"-"+time.Now().Format("20060102-150405"))
	}
	return req, nil
}

// Status reads the recorded service and asks its processes (and, for a
// fleet, its coordinator) how they are. With a status whose Live() is
// 0 it returns an error too; an error from the coordinator comes with
// the nodes' status.
func (d Detached) Status(ctx context.Context) (*Status, error) {
	s, err := d.svc.status(ctx, d.svc.statePath())
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no %s is up (start one with 'prodlab %s up')", d.Noun, d.Command)
	}
	if err == nil && s.Live() == 0 {
		err = fmt.Errorf("no %s of the recorded %s is running", d.NodeNoun, d.Noun)
	}
	return s, err
}

// Down stops the recorded service and forgets it; stopped is false when
// none was recorded.
func (d Detached) Down() (stopped bool, err error) {
	path := d.svc.statePath()
	// Not while an `up` is starting what it will record.
	unlock, err := d.svc.lock(path)
	if err != nil {
		return false, err
	}
	defer unlock()
	r, err := d.svc.load(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := r.Stop(); err != nil {
		return false, err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return true, fmt.Errorf("remove %s state: %w", d.Command, err)
	}
	return true, nil
}

// Address is the address of the recorded service (what `status
// --bootstrap` and `status --url` print) while any of its processes runs.
func (d Detached) Address() (string, error) {
	addr, ok := d.running(d.svc.statePath())
	if !ok {
		return "", fmt.Errorf("no %s is up (start one with 'prodlab %s up')", d.Noun, d.Command)
	}
	return addr, nil
}
