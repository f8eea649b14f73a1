// Package lab is the orchestration loop: for every scenario and trial it
// creates a fresh topic, runs the scenario's driver, measures the topic on
// disk and appends the trial to results.jsonl. It is the only package that
// ties spec, cluster, driver, results and report together.
package lab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/netem"
	"github.com/prodlab/prodlab/internal/progress"
	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/spec"
)

// Options are the run-time choices that are not part of the experiment.
type Options struct {
	// Dir is the run directory; it must exist.
	Dir string
	// Bootstrap, if set, runs against an existing cluster instead of
	// starting embedded brokers.
	Bootstrap []string
	// Out receives the results table; Log receives progress lines.
	Out, Log io.Writer
	// KeepTopics leaves each trial's topic in place after the run.
	KeepTopics bool
	// WorkerJar is the Java worker jar for java clients.
	WorkerJar string
}

// Summary tells the caller how the run went.
type Summary struct {
	Trials int
	Failed int
}

// ErrTrialsFailed is returned (wrapped) when the run completed but some
// trials failed; their reasons are in results.jsonl and the table.
var ErrTrialsFailed = errors.New("some trials failed")

// Plan expands and checks an experiment completely: every scenario's
// client must accept every producer property. Nothing is started.
func Plan(exp *spec.Experiment) ([]spec.Scenario, error) {
	scs, err := exp.Scenarios()
	if err != nil {
		return nil, err
	}
	var errs []string
	for _, sc := range scs {
		if err := driver.Check(sc.Exp.Client, sc.Exp.Producer); err != nil {
			errs = append(errs, fmt.Sprintf("scenario %s: %v", label(sc), err))
		}
	}
	if len(errs) > 0 {
		return nil, &PlanError{Problems: errs}
	}
	return scs, nil
}

// PlanError lists every scenario a client cannot run as configured.
type PlanError struct{ Problems []string }

func (e *PlanError) Error() string { return strings.Join(e.Problems, "\n") }

// Run executes a planned experiment and writes results into opts.Dir.
func Run(ctx context.Context, exp *spec.Experiment, scs []spec.Scenario, opts Options) (*Summary, error) {
	if opts.Out == nil {
		opts.Out = io.Discard
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if y, err := exp.YAML(); err == nil {
		if err := os.WriteFile(filepath.Join(opts.Dir, results.ExperimentFile), y, 0o644); err != nil {
			return nil, fmt.Errorf("write resolved experiment: %w", err)
		}
	}
	w, err := results.Create(opts.Dir)
	if err != nil {
		return nil, err
	}
	defer w.Close() //nolint:errcheck // closed and checked below; this covers early returns

	r := &runner{exp: exp, opts: opts, w: w, run: filepath.Base(opts.Dir), drivers: map[string]driver.Driver{}}
	r.total = len(scs) * (exp.Warmup + exp.Trials)
	r.bar = progress.New(opts.Log, r.total)
	defer r.closeDrivers()
	for _, g := range groupByCluster(scs) {
		if ctx.Err() != nil {
			break
		}
		r.runGroup(ctx, g)
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	recs, err := results.Read(opts.Dir)
	if err != nil {
		return nil, err
	}
	if err := writeTable(opts.Dir, opts.Out, recs); err != nil {
		return nil, err
	}
	if err := report.WriteRunHTML(opts.Dir, recs, report.Environment(recs)); err != nil {
		r.logf("html report: %v", err)
	}
	if ctx.Err() != nil {
		return &r.sum, fmt.Errorf("run interrupted: %w", ctx.Err())
	}
	if r.sum.Failed > 0 {
		return &r.sum, fmt.Errorf("%d of %d trials: %w", r.sum.Failed, r.sum.Trials, ErrTrialsFailed)
	}
	return &r.sum, nil
}

// writeTable prints the table and keeps a copy in the run directory.
func writeTable(dir string, out io.Writer, recs []results.Record) error {
	f, err := os.Create(filepath.Join(dir, results.TableFile))
	if err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	defer f.Close()
	if err := report.Table(io.MultiWriter(out, f), recs); err != nil {
		return fmt.Errorf("render table: %w", err)
	}
	return f.Close()
}

type runner struct {
	exp     *spec.Experiment
	opts    Options
	w       *results.Writer
	run     string
	sum     Summary
	drivers map[string]driver.Driver
	done    int
	total   int
	bar     *progress.Bar
}

func (r *runner) logf(format string, args ...any) {
	r.bar.Logf("%s "+format, append([]any{time.Now().Format("15:04:05")}, args...)...)
}

func (r *runner) closeDrivers() {
	for _, d := range r.drivers {
		_ = d.Close()
	}
}

// clusterGroup is a run of scenarios that share one cluster shape.
type clusterGroup struct {
	brokers int
	kafka   string
	scs     []spec.Scenario
}

// groupByCluster keeps scenario order within a group and orders groups by
// first appearance, so each cluster shape is started once.
func groupByCluster(scs []spec.Scenario) []*clusterGroup {
	var gs []*clusterGroup
	idx := map[string]*clusterGroup{}
	for _, sc := range scs {
		k := fmt.Sprintf("%d|%s", sc.Exp.Cluster.Brokers, sc.Exp.Cluster.Kafka)
		g, ok := idx[k]
		if !ok {
			g = &clusterGroup{brokers: sc.Exp.Cluster.Brokers, kafka: sc.Exp.Cluster.Kafka}
			idx[k] = g
			gs = append(gs, g)
		}
		g.scs = append(g.scs, sc)
	}
	return gs
}

// target is a cluster the trials of a group run against.
type target struct {
	c       *cluster.Cluster
	version string
	// bootstrap is where clients connect: the brokers, or their proxies.
	bootstrap []string
	// direct, for an external cluster behind proxies, reaches the brokers
	// themselves: its scenarios that need no proxy use it, so one run can
	// compare proxied and direct paths. Embedded brokers advertise their
	// proxies, so there every scenario of the group goes through them.
	direct []string
	// net holds the proxies in front of the brokers, if the group needs them.
	net     *netem.Set
	rewrite netem.RewriteFunc
	// repl holds the proxies on the inter-broker listeners, when a scenario
	// delays replication (network.replication.rtt.ms).
	repl *netem.Set
}

// startCluster starts (or connects to) the group's cluster, with a netem
// proxy in front of each broker when the group's scenarios need one.
func (r *runner) startCluster(ctx context.Context, g *clusterGroup) (*target, error) {
	tgt := &target{}
	if needsProxies(g.scs) {
		tgt.net = netem.NewSet()
	}
	if needsReplicationProxies(g.scs) {
		if len(r.opts.Bootstrap) > 0 {
			return nil, errors.New("network.replication.rtt.ms needs an embedded cluster: prodlab cannot reroute an external cluster's replication")
		}
		tgt.repl = netem.NewSet()
	}
	fail := func(err error) (*target, error) {
		if tgt.net != nil {
			_ = tgt.net.Close()
		}
		if tgt.repl != nil {
			_ = tgt.repl.Close()
		}
		return nil, err
	}
	if len(r.opts.Bootstrap) > 0 {
		c, err := cluster.Connect(ctx, r.opts.Bootstrap)
		if err != nil {
			return fail(err)
		}
		tgt.c, tgt.bootstrap = c, c.Bootstrap()
		if tgt.net != nil {
			// Clients bootstrap through the proxies, and the proxies rewrite
			// broker addresses in metadata so clients stay behind them.
			tgt.direct, tgt.bootstrap = tgt.bootstrap, nil
			for _, b := range c.Brokers() {
				addr, err := tgt.net.Add(int32(b.ID), b.Advertised)
				if err != nil {
					return fail(fmt.Errorf("proxy for broker %d: %w", b.ID, err))
				}
				tgt.bootstrap = append(tgt.bootstrap, addr)
			}
			tgt.rewrite = tgt.net.Rewriter()
		}
	} else {
		dir := filepath.Join(r.opts.Dir, fmt.Sprintf("cluster-%d", g.brokers))
		r.logf("starting %d-broker Kafka %s cluster (logs in %s)", g.brokers, orDefault(g.kafka, cluster.DefaultKafka), dir)
		t0 := time.Now()
		cfg := cluster.Config{Brokers: g.brokers, Kafka: g.kafka, Dir: dir}
		var proxyErr error
		if tgt.net != nil {
			// Brokers advertise their proxies; replication uses its own,
			// direct listener.
			cfg.Advertise = func(id int, addr string) string {
				p, err := tgt.net.Add(int32(id), addr)
				if err != nil {
					proxyErr = fmt.Errorf("proxy for broker %d: %w", id, err)
					return addr
				}
				return p
			}
		}
		if tgt.repl != nil {
			cfg.AdvertiseReplication = func(id int, addr string) string {
				p, err := tgt.repl.Add(int32(id), addr)
				if err != nil {
					proxyErr = fmt.Errorf("replication proxy for broker %d: %w", id, err)
					return addr
				}
				return p
			}
		}
		c, err := cluster.Start(ctx, cfg)
		if err == nil {
			err = proxyErr
		}
		if err != nil {
			if c != nil {
				_ = c.Stop()
			}
			return fail(err)
		}
		tgt.c, tgt.bootstrap = c, c.Bootstrap()
		r.logf("cluster ready in %.1fs: %s", time.Since(t0).Seconds(), strings.Join(c.Bootstrap(), ","))
	}
	if tgt.net != nil {
		if err := tgt.net.Check(ctx); err != nil {
			_ = tgt.c.Stop()
			return fail(err)
		}
	}
	tgt.version = tgt.c.Version()
	return tgt, nil
}

func (t *target) close() error {
	var err error
	if t.net != nil {
		err = t.net.Close()
	}
	if t.repl != nil {
		if e := t.repl.Close(); e != nil {
			err = e
		}
	}
	if e := t.c.Stop(); e != nil {
		err = e
	}
	return err
}

func (r *runner) runGroup(ctx context.Context, g *clusterGroup) {
	rounds := r.exp.Warmup + r.exp.Trials
	tgt, err := r.startCluster(ctx, g)
	if err != nil {
		r.logf("cluster failed: %v", err)
		for _, sc := range g.scs {
			for t := 0; t < rounds; t++ {
				r.done++
				r.bar.Start(r.done-1, label(sc), t)
				r.bar.Done("FAILED: cluster did not start")
				r.record(failedRecord(r, sc, t, "", fmt.Errorf("cluster: %w", err)))
			}
		}
		return
	}
	defer func() {
		if err := tgt.close(); err != nil {
			r.logf("stop cluster: %v", err)
		}
	}()
	adm, err := newAdmin(tgt.bootstrap)
	if err != nil {
		r.logf("%v", err)
		return
	}
	defer adm.close()
	// Interleave: A B C, then C B A, so drift does not favour one scenario.
	for round := 0; round < rounds; round++ {
		order := g.scs
		if round%2 == 1 {
			order = reversed(g.scs)
		}
		for _, sc := range order {
			if ctx.Err() != nil {
				return
			}
			r.record(r.trial(ctx, adm, tgt, sc, round))
		}
	}
}

func reversed(s []spec.Scenario) []spec.Scenario {
	out := make([]spec.Scenario, len(s))
	for i := range s {
		out[len(s)-1-i] = s[i]
	}
	return out
}

func (r *runner) record(rec results.Record) {
	r.sum.Trials++
	if rec.Status != results.StatusOK {
		r.sum.Failed++
	}
	if err := r.w.Append(rec); err != nil {
		r.logf("append result: %v", err)
	}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func label(sc spec.Scenario) string {
	if sc.ID == "" {
		return "(base)"
	}
	return sc.ID
}

// CheckExternal rejects, before anything starts, what an existing cluster
// (--bootstrap) cannot do: prodlab can neither signal its brokers nor
// reroute its replication.
func CheckExternal(scs []spec.Scenario) error {
	var problems []string
	for _, sc := range scs {
		if sc.Exp.Network.ReplicationRTTMs > 0 {
			problems = append(problems, fmt.Sprintf("scenario %s: network.replication.rtt.ms needs an embedded cluster (drop --bootstrap)", label(sc)))
		}
		for _, f := range sc.Exp.Faults {
			if f.Type != "connection.cut" {
				problems = append(problems, fmt.Sprintf("scenario %s: fault %s needs an embedded cluster (drop --bootstrap)", label(sc), f.Type))
			}
		}
	}
	if len(problems) > 0 {
		return &PlanError{Problems: problems}
	}
	return nil
}
