package lab

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
)

// An embedded broker that exits without prodlab asking (a crash, a full
// disk, an outside kill; not a fault) fails the trial it happens in at
// once, with its exit status and log tail (cluster.BrokerExitError). The
// next trial first brings the exited brokers back (Target.Recover); the
// second time in one group, the cluster is given up (ErrClusterLost), the
// group stops and its other scenarios are recorded as not run.

// ErrClusterLost is returned (wrapped) once a target's embedded cluster is
// given up: a broker exited unexpectedly after the target had already
// brought the brokers back once, or could not be brought back.
var ErrClusterLost = errors.New("embedded cluster lost")

// brokerExitCause returns the *cluster.BrokerExitError that cancelled ctx,
// if one did.
func brokerExitCause(ctx context.Context) (*cluster.BrokerExitError, bool) {
	var exit *cluster.BrokerExitError
	if ctx.Err() != nil && errors.As(context.Cause(ctx), &exit) {
		return exit, true
	}
	return nil, false
}

// Watch returns ctx, cancelled with a *cluster.BrokerExitError as cause
// as soon as an embedded broker exits without prodlab asking (see
// cluster.Cluster.Watch). Other targets only add a cancel. Call stop to
// release it.
func (t *Target) Watch(ctx context.Context) (watched context.Context, stop context.CancelFunc) {
	if !t.Embedded() {
		return context.WithCancel(ctx)
	}
	return t.c.Watch(ctx)
}

// Supervise returns ctx, cancelled with the ErrClusterLost reason when the
// target gives its cluster up, for a group to run its trials under: the
// group then stops instead of failing every remaining trial.
func (t *Target) Supervise(ctx context.Context) (supervised context.Context, stop func()) {
	sctx, cancel := context.WithCancelCause(ctx)
	t.giveUp = cancel
	return sctx, func() { cancel(nil) }
}

// Lost is why the target gave its cluster up, or nil.
func (t *Target) Lost() error {
	t.lostMu.Lock()
	defer t.lostMu.Unlock()
	return t.lost
}

// Recover makes the target fit for the next trial after an unexpected
// broker exit: the first time, it restarts the exited brokers (same ports,
// data and proxies); after that, or when a restart fails, it gives the
// cluster up and returns ErrClusterLost with the reason, as it does on
// every later call. With no unexpected exit it does nothing.
func (t *Target) Recover(ctx context.Context) error {
	if lost := t.Lost(); lost != nil {
		return lost
	}
	if !t.Embedded() {
		return nil
	}
	exit := t.c.Exited()
	if exit == nil {
		return nil
	}
	if t.restarted {
		return t.giveUpWith(fmt.Errorf("%w: a broker exited unexpectedly again after the brokers were restarted once: %w", ErrClusterLost, exit))
	}
	t.restarted = true
	t.cfg.Logf("%v", exit)
	t.cfg.Logf("restarting the exited brokers before the next trial")
	t0 := time.Now()
	if err := t.c.RestartExited(ctx); err != nil {
		return t.giveUpWith(fmt.Errorf("%w: %w (after: %w)", ErrClusterLost, err, exit))
	}
	t.cfg.Logf("brokers back in %.1fs", time.Since(t0).Seconds())
	return nil
}

// giveUpWith records why the cluster is given up, stops the supervised
// group and returns err. The first reason stays.
func (t *Target) giveUpWith(err error) error {
	t.lostMu.Lock()
	if t.lost != nil {
		err = t.lost
		t.lostMu.Unlock()
		return err
	}
	t.lost = err
	t.lostMu.Unlock()
	t.cfg.Logf("%v", err)
	if t.giveUp != nil {
		t.giveUp(err)
	}
	return err
}

// watchedDriver runs each trial of its driver under the target's watch: an
// unexpected broker exit cancels the trial and becomes its error.
type watchedDriver struct {
	driver.Driver
	t *Target
}

// Run runs the trial under the watch. A trial cut by a broker exit returns
// no result: its figures are of a broken cluster, and an audit would only
// wait for a broker that is gone.
func (w *watchedDriver) Run(ctx context.Context, tr driver.Trial) (*driver.Result, error) {
	wctx, stop := w.t.Watch(ctx)
	defer stop()
	res, err := w.Driver.Run(wctx, tr)
	if exit, ok := brokerExitCause(wctx); ok && ctx.Err() == nil {
		return nil, exit
	}
	return res, err
}

// PID is the client process's when the driver runs one (the Java worker),
// else 0 (prodlab's own), so that cluster.cpus: split and duet rounds pin
// the worker a watched driver wraps.
func (w *watchedDriver) PID() int {
	if p, ok := w.Driver.(pider); ok {
		return p.PID()
	}
	return 0
}

// CPUTime is the client process's CPU time when the driver runs one (see
// cpuTimer), else prodlab's own, as takeCPU reads for in-process clients.
func (w *watchedDriver) CPUTime() (time.Duration, error) {
	if ct, ok := w.Driver.(cpuTimer); ok {
		return ct.CPUTime()
	}
	return selfCPU()
}

// recordNotRun records, after a session stopped because its cluster was
// lost, one failed record for each of its scenarios that did not just fail
// with that reason, so the results say why they have fewer trials.
func (r *runner) recordNotRun(s *session, lost error) {
	last := ""
	if n := len(r.sum.Records); n > 0 {
		last = r.sum.Records[n-1].ScenarioID
	}
	for _, sc := range s.g.scs {
		if sc.ID == last {
			continue
		}
		rec := r.x.failedRecord(sc, 0, s.tgt.Version(), fmt.Errorf("not run: %w", lost))
		rec.Warmed, rec.Life = s.warmed, s.life
		s.g.measured.observe(&rec)
		r.publishUnrun(sc, rec, "NOT RUN: cluster lost")
	}
}
