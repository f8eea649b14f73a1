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

	"github.com/prodlab/prodlab/internal/driver"
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
		if err := tgt.Close(); err != nil {
			r.logf("stop cluster: %v", err)
		}
	}()
	adm := &admin{tgt.Admin()}
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
