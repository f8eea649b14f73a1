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
	"slices"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/progress"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/spec"
	"github.com/prodlab/prodlab/internal/stats"
)

// Options are the run-time choices that are not part of the experiment.
type Options struct {
	// Dir is the run directory; it must exist.
	Dir string
	// Bootstrap, if set, runs against an existing cluster instead of
	// starting embedded brokers.
	Bootstrap []string
	// Log receives progress lines.
	Log io.Writer
	// KeepTopics leaves each trial's topic in place after the run.
	KeepTopics bool
	// WorkerJar is the Java worker jar for java clients.
	WorkerJar string
	// Version is prodlab's version, saved in the run's environment.
	Version string
	// Previous are the records of an unfinished run of the same experiment
	// in Dir, when resuming it (--resume): their trials are not run again.
	Previous []results.Record
	// Fleets (PlanTrogdor) run the trials of the scenarios with a
	// trogdor.coordinator on that fleet's agents instead of a local client.
	Fleets Fleets
}

// Summary tells the caller how the run went; Records are every trial
// written to results.jsonl, in order, for the caller to render.
type Summary struct {
	Trials, Failed, Violated, Interrupted int
	Records                               []results.Record
}

// ErrTrialsFailed is returned (wrapped) when the run completed but some
// trials failed; their reasons are in results.jsonl and the table.
var ErrTrialsFailed = errors.New("some trials failed")

// ErrViolated is returned (wrapped) when some trial's audit found lost,
// duplicated, reordered or phantom records the experiment did not expect.
// It outranks ErrTrialsFailed and an interrupt: delivery is what a CI job
// must not miss.
var ErrViolated = errors.New("delivery violated")

// Plan expands and checks an experiment completely: every scenario's
// client must accept every producer property. Nothing is started.
func Plan(exp *spec.Experiment) ([]spec.Scenario, error) {
	scs, err := exp.Scenarios()
	if err != nil {
		return nil, err
	}
	var p problems
	for _, sc := range scs {
		if err := driver.Check(sc.Exp.Client, sc.Exp.Producer); err != nil {
			p.add(err.Error(), label(sc))
		}
	}
	if err := p.err(len(scs)); err != nil {
		return nil, err
	}
	return scs, nil
}

// problems collects each distinct problem once, with the scenarios that
// have it, so that a matrix of 20 scenarios sharing one mistake gets one
// message, not 20.
type problems struct {
	order []string
	where map[string][]string
}

func (p *problems) add(msg, scenario string) {
	if p.where == nil {
		p.where = map[string][]string{}
	}
	if _, seen := p.where[msg]; !seen {
		p.order = append(p.order, msg)
	}
	p.where[msg] = append(p.where[msg], scenario)
}

// err is a PlanError listing each problem with where it occurs among n
// scenarios, or nil.
func (p *problems) err(n int) error {
	if len(p.order) == 0 {
		return nil
	}
	out := make([]string, len(p.order))
	for i, msg := range p.order {
		scs := p.where[msg]
		switch {
		case n == 1:
			out[i] = msg
		case len(scs) == n:
			out[i] = fmt.Sprintf("%s (every scenario)", msg)
		case len(scs) == 1:
			out[i] = fmt.Sprintf("scenario %s: %s", scs[0], msg)
		default:
			out[i] = fmt.Sprintf("%s (%d scenarios: %s)", msg, len(scs), strings.Join(scs, "; "))
		}
	}
	return &PlanError{Problems: out}
}

// PlanError lists every scenario a client cannot run as configured.
type PlanError struct{ Problems []string }

func (e *PlanError) Error() string { return strings.Join(e.Problems, "\n") }

// Run executes a planned experiment and writes into opts.Dir: the resolved
// experiment, the plan of comparisons and the environment first, then one
// results.jsonl line per trial as it finishes. It renders nothing: the
// caller renders Summary.Records (see report.WriteRun).
func Run(ctx context.Context, exp *spec.Experiment, scs []spec.Scenario, opts Options) (*Summary, error) {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	cmps, err := exp.Comparisons(scs)
	if err != nil {
		return nil, err
	}
	if err := writeRunFiles(ctx, exp, scs, cmps, opts); err != nil {
		return nil, err
	}
	w, err := results.Create(opts.Dir)
	if err != nil {
		return nil, err
	}
	defer w.Close() //nolint:errcheck // closed and checked below; this covers early returns

	r := &runner{root: ctx, exp: exp, opts: opts, w: w, run: filepath.Base(opts.Dir), drivers: map[string]driver.Driver{},
		cmps: cmps, nScenarios: len(scs), prec: map[string]results.Precision{}}
	r.total = len(scs) * (exp.Warmup + exp.Trials)
	if exp.TrialsAuto || exp.WarmupAuto {
		r.total = 0 // unknown before the rounds decide
	}
	if opts.Previous != nil {
		r.resumeFrom(opts.Previous)
		r.total = max(r.total-len(r.finishedBefore), 0)
	}
	r.bar = progress.New(opts.Log, r.total)
	defer r.closeDrivers()
	var todo []*clusterGroup
	for _, g := range groupByCluster(scs) {
		if r.groupDone(g) {
			r.logf("resume: every measured trial of %s was run before", label(g.scs[0]))
			continue
		}
		todo = append(todo, g)
	}
	if r.alternates(todo) {
		r.runAlternating(ctx, todo)
	} else {
		for _, g := range todo {
			if ctx.Err() != nil {
				break
			}
			r.runGroup(ctx, g)
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	r.sum.Records = r.recs
	if r.sum.Violated > 0 {
		return &r.sum, fmt.Errorf("%d of %d trials: %w (see STATUS)", r.sum.Violated, r.sum.Trials, ErrViolated)
	}
	if ctx.Err() != nil {
		return &r.sum, fmt.Errorf("run interrupted: %w", ctx.Err())
	}
	if r.sum.Failed > 0 {
		return &r.sum, fmt.Errorf("%d of %d trials: %w", r.sum.Failed, r.sum.Trials, ErrTrialsFailed)
	}
	return &r.sum, nil
}

// writeRunFiles saves what the run sets out to do and where: the resolved
// experiment, the planned comparisons (for the report's Findings) and the
// machine, before any trial runs.
func writeRunFiles(ctx context.Context, exp *spec.Experiment, scs []spec.Scenario, cmps []spec.Comparison, opts Options) error {
	if y, err := exp.YAML(); err == nil {
		if err := os.WriteFile(filepath.Join(opts.Dir, results.ExperimentFile), y, 0o644); err != nil {
			return fmt.Errorf("write resolved experiment: %w", err)
		}
	}
	plan := results.Plan{Level: stats.DefaultConfidence, Margin: exp.Equivalence}
	if exp.TrialsAuto {
		plan.Precision = exp.Precision
	}
	for _, c := range cmps {
		plan.Comparisons = append(plan.Comparisons, results.PlannedComparison{
			Question: c.Question, Baseline: c.Baseline, Candidate: c.Candidate, Published: c.Published, Metric: c.Metric})
	}
	if err := results.WritePlan(opts.Dir, plan); err != nil {
		return fmt.Errorf("write plan: %w", err)
	}
	env := results.GatherEnvironment(ctx, opts.Version)
	env.Kafka, env.Clients = versions(scs, opts)
	if err := results.WriteEnvironment(opts.Dir, env); err != nil {
		return fmt.Errorf("write environment: %w", err)
	}
	return nil
}

type runner struct {
	// root is the run's context: once it is done, the user interrupted.
	root    context.Context
	exp     *spec.Experiment
	opts    Options
	w       *results.Writer
	run     string
	sum     Summary
	drivers map[string]driver.Driver
	done    int
	total   int
	bar     *progress.Bar
	// cmps are the planned comparisons; nScenarios the run's scenarios,
	// to share the budget of trials: auto between cluster groups.
	cmps       []spec.Comparison
	nScenarios int
	// recs are every record written, in order.
	recs []results.Record
	// prec is the stopping rule's latest state per scenario ID, written
	// into each measured record.
	prec map[string]results.Precision
	// warmed is the current group's warm-up outcome, written into each
	// measured record.
	warmed *results.Warmed
	// finishedBefore are the measured trials a resumed run already ran.
	finishedBefore map[trialKey]bool
	// kip1269Native maps each Kafka (cluster.kafka) with kip1269.retain to
	// the KIP's broker property when it implements KIP-1269 itself, "" when
	// it does not, asked once per run (kip1269.go).
	kip1269Native map[string]string
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
	// cluster is the whole cluster setting the group's scenarios share
	// (controllers, broker configs, security, …).
	cluster spec.Cluster
	// n numbers the group (1, 2, …) to give each cluster its own directory.
	n   int
	scs []spec.Scenario
	// prefix names the group in log lines when several clusters alternate.
	prefix string
}

// logPrefix starts a log line about the group ("" when only one cluster
// runs at a time).
func (g *clusterGroup) logPrefix() string { return g.prefix }

// groupByCluster keeps scenario order within a group and orders groups by
// first appearance, so each cluster is started once. Scenarios share a
// cluster only when every cluster setting is equal (spec.Cluster.Key):
// brokers, controllers, release, security and broker configs.
func groupByCluster(scs []spec.Scenario) []*clusterGroup {
	var gs []*clusterGroup
	idx := map[string]*clusterGroup{}
	for _, sc := range scs {
		k := sc.Exp.Cluster.Key()
		g, ok := idx[k]
		if !ok {
			g = &clusterGroup{brokers: sc.Exp.Cluster.Brokers, kafka: sc.Exp.Cluster.Kafka, cluster: sc.Exp.Cluster, n: len(gs) + 1}
			idx[k] = g
			gs = append(gs, g)
		}
		g.scs = append(g.scs, sc)
	}
	return gs
}

// runGroup starts the group's cluster, warms it and runs its measured
// rounds (see rounds.go), under the target's supervision: a cluster lost
// to unexpected broker exits stops the group.
func (r *runner) runGroup(ctx context.Context, g *clusterGroup) {
	tgt, ok := r.startGroup(ctx, g)
	if !ok {
		return
	}
	defer r.closeTarget(tgt)
	adm := tgt.Admin()
	// A broker that exits unexpectedly fails its trial; the target brings
	// it back once, and the second time gives the cluster up, which stops
	// the group here (watch.go).
	gctx, stop := tgt.Supervise(ctx)
	defer stop()
	r.warmed = r.warmUp(gctx, adm, tgt, g)
	r.measure(gctx, adm, tgt, g)
	r.noteLost(ctx, g, tgt)
}

// startGroup starts g's cluster. When it does not start, every scenario
// of g is recorded failed with the reason (nothing, when the user
// interrupted the start) and ok is false.
func (r *runner) startGroup(ctx context.Context, g *clusterGroup) (tgt *Target, ok bool) {
	tgt, err := r.startCluster(ctx, g)
	if err != nil && ctx.Err() != nil {
		// The user stopped the start: no trial failed, and the brokers'
		// logs (which the start error quotes) would only bury that.
		r.logf("interrupted while the cluster started")
		return nil, false
	}
	if err != nil {
		r.logf("cluster failed: %v", err)
		for _, sc := range g.scs {
			r.done++
			r.bar.Start(r.done-1, label(sc), 0)
			r.bar.Done("FAILED: cluster did not start")
			r.record(failedRecord(r, sc, 0, "", fmt.Errorf("cluster: %w", err)))
		}
		return nil, false
	}
	return tgt, true
}

// closeTarget stops a group's cluster, logging a failure to.
func (r *runner) closeTarget(tgt *Target) {
	if err := tgt.Close(); err != nil {
		r.logf("stop cluster: %v", err)
	}
}

// noteLost records g's scenarios as not run when its cluster was lost.
func (r *runner) noteLost(ctx context.Context, g *clusterGroup, tgt *Target) {
	if lost := tgt.Lost(); lost != nil && ctx.Err() == nil {
		r.recordNotRun(g, tgt, lost)
	}
}

func reversed[T any](s []T) []T {
	out := make([]T, len(s))
	for i := range s {
		out[len(s)-1-i] = s[i]
	}
	return out
}

// record appends a finished trial to results.jsonl and keeps it.
func (r *runner) record(rec results.Record) {
	if !rec.Warmup {
		if p, ok := r.prec[rec.ScenarioID]; ok {
			rec.Precision = &p
		}
		rec.Warmed = r.warmed
	}
	r.count(rec)
	if err := r.w.Append(rec); err != nil {
		r.logf("append result: %v", err)
	}
	r.recs = append(r.recs, rec)
}

// count adds a trial to the run's summary.
func (r *runner) count(rec results.Record) {
	r.sum.Trials++
	switch rec.Status {
	case results.StatusFailed:
		r.sum.Failed++
	case results.StatusViolated:
		r.sum.Violated++
	case results.StatusInterrupted:
		r.sum.Interrupted++
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
	var p problems
	for _, sc := range scs {
		if sc.Exp.Network.ReplicationRTTMs > 0 {
			p.add("network.replication.rtt.ms needs an embedded cluster (drop --bootstrap)", label(sc))
		}
		checkExternalSecurity(sc, &p)
		checkExternalKIP1269(sc, &p)
		if len(sc.Exp.Cluster.Configs) > 0 || sc.Exp.Cluster.Controllers > 0 {
			p.add("cluster.configs and cluster.controllers shape an embedded cluster; an existing one keeps its own (drop --bootstrap)", label(sc))
		}
		for _, f := range sc.Exp.Faults {
			switch {
			case isProxyFault(f), fleetFault(sc, f, true):
			case sc.Exp.Trogdor.Coordinator != "":
				p.add(fmt.Sprintf("fault %s needs an embedded cluster (drop --bootstrap): on an existing cluster a Trogdor fleet delivers only %s", f.Type, fleetFaultTypes()), label(sc))
			case faultActions[f.Type].fleet != nil:
				p.add(fmt.Sprintf("fault %s needs an embedded cluster (drop --bootstrap), or a Trogdor fleet with an agent on the broker's host (trogdor.coordinator)", f.Type), label(sc))
			default:
				p.add(fmt.Sprintf("fault %s needs an embedded cluster (drop --bootstrap)", f.Type), label(sc))
			}
		}
	}
	return p.err(len(scs))
}

// versions lists, in order of first appearance, the Kafka releases (or
// local distributions) and the clients the run's scenarios name, as the
// run starts: "java" is the kafka-clients release of its brokers, and an
// external cluster's version is only known once connected (the records
// say it).
func versions(scs []spec.Scenario, opts Options) (kafka, clients []string) {
	for _, sc := range scs {
		k := orDefault(sc.Exp.Cluster.Kafka, cluster.DefaultKafka)
		if len(opts.Bootstrap) > 0 {
			k = "external cluster at " + strings.Join(opts.Bootstrap, ",")
		}
		if !slices.Contains(kafka, k) {
			kafka = append(kafka, k)
		}
		if !slices.Contains(clients, sc.Exp.Client) {
			clients = append(clients, sc.Exp.Client)
		}
	}
	return kafka, clients
}
