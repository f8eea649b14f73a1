// Package lab runs experiments: schedulers (schedule.go, warmup.go,
// precise.go) decide which trials run next from the records observed so
// far; one trial executor (trial.go) runs each on a session — a started
// cluster (target.go) with its proxies and drivers — on a fresh topic, and
// returns its record; every record, progress update and log line is
// published as an Event that the progress bar, the results.jsonl writer and
// the run's summary subscribe to (events.go).
package lab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/model"
	"github.com/prodlab/prodlab/internal/progress"
	"github.com/prodlab/prodlab/internal/results"
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
	// OnEvent, if set, sees every event of the run as it happens (a live
	// view), after the progress bar and the results writer.
	OnEvent func(Event)
	// actions override fault actions by type, for tests of what the
	// lab does when a real action fails.
	actions map[string]faultAction
}

// Summary tells the caller how the run went; Records are every trial
// written to results.jsonl, in order, for the caller to render.
type Summary struct {
	Trials, Failed, Violated, Interrupted int
	Records                               []results.Record
	// Stopped is true when an interrupt (the run's context ending) left
	// trials unrun; an interrupt that arrives once every trial finished
	// leaves a complete run (see cutShort).
	Stopped bool
}

// ErrTrialsFailed is returned (wrapped) when the run completed but some
// trials failed; their reasons are in results.jsonl and the table.
var ErrTrialsFailed = errors.New("some trials failed")

// ErrViolated is returned (wrapped) when some trial's audit found lost,
// duplicated, reordered or phantom records the experiment did not expect.
// It outranks ErrTrialsFailed and an interrupt: delivery is what a CI job
// must not miss.
var ErrViolated = errors.New("delivery violated")

// Run executes a planned experiment and writes into opts.Dir: the resolved
// experiment, the plan of comparisons and the environment first, then one
// results.jsonl line per trial as it finishes. It renders nothing: the
// caller renders Summary.Records (see report.WriteRun).
func Run(ctx context.Context, exp *expfile.Experiment, scs []expfile.Scenario, opts Options) (*Summary, error) {
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

	r := newRunner(ctx, exp, scs, cmps, opts)
	before := len(r.sum.Records)
	r.ev = append(r.ev, progressView(progress.New(opts.Log, r.total(len(scs)))), resultsWriter(w, r.logf), collect(&r.sum))
	if ew, err := newEventsWriter(opts.Dir, r.logf); err != nil {
		r.logf("%v; the run goes on without it", err)
	} else {
		defer ew.Close() //nolint:errcheck // a replay file: its close cannot lose a result
		r.ev = append(r.ev, ew.publish)
	}
	if opts.OnEvent != nil {
		r.ev = append(r.ev, opts.OnEvent)
	}
	r.x.ev = r.ev
	defer r.closeDrivers()
	defer r.x.unpin()
	if run := modeOf(exp).run; run != nil {
		run(r, ctx, scs)
	} else {
		r.runGroups(ctx, groupByCluster(scs))
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		ran, cut := measuredTrials(r.sum.Records[before:])
		r.sum.Stopped = cutShort(r.measuredPlanned(len(scs)), ran, cut)
	}
	return &r.sum, r.outcome(ctx)
}

// measuredPlanned is how many measured trials this session of the run
// plans for n scenarios, 0 when a rule decides (see total).
func (r *runner) measuredPlanned(n int) int {
	if r.total(n) == 0 {
		return 0
	}
	return max(n*r.exp.Trials*r.exp.ClusterLives()-len(r.finishedBefore), 0)
}

// measuredTrials counts the measured (not warm-up) trials of recs, and of
// them those recorded interrupted.
func measuredTrials(recs []results.Record) (ran, cut int) {
	for _, rec := range recs {
		if rec.Warmup {
			continue
		}
		ran++
		if rec.Status == results.StatusInterrupted {
			cut++
		}
	}
	return ran, cut
}

// cutShort reports whether an interrupt cut a run short, from the
// measured trials it planned for this session (planned, 0 when a rule
// decides how many: trials, warm-up or lives auto, a capacity or advise
// search) and the measured trials this session recorded (ran), of which
// cut were recorded interrupted. A run of a known number of trials that ran them all, none
// cut, is complete whenever the signal came; one whose rule decides
// cannot be told complete from its count, and an interrupt stands (a
// --resume then judges it and stops at once if it was done).
func cutShort(planned, ran, cut int) bool {
	return planned == 0 || ran < planned || cut > 0
}

// writeRunFiles saves what the run sets out to do and where: the resolved
// experiment, the planned comparisons (for the report's Findings) and the
// machine, before any trial runs.
func writeRunFiles(ctx context.Context, exp *expfile.Experiment, scs []expfile.Scenario, cmps []expfile.Comparison, opts Options) error {
	if y, err := exp.YAML(); err == nil {
		if err := os.WriteFile(filepath.Join(opts.Dir, results.ExperimentFile), y, 0o644); err != nil {
			return fmt.Errorf("write resolved experiment: %w", err)
		}
	}
	plan := results.Plan{Level: stats.DefaultConfidence, Margin: exp.Equivalence}
	if exp.TrialsAuto {
		plan.Precision = exp.Precision
	}
	if add := modeOf(exp).plan; add != nil {
		add(&plan, exp, scs)
	}
	plan.DuetWouldRun = len(opts.Bootstrap) == 0 && exp.DuetWouldRun()
	for _, c := range cmps {
		plan.Comparisons = append(plan.Comparisons, results.PlannedComparison{
			Question: c.Question, Baseline: c.Baseline, Candidate: c.Candidate, Published: c.Published, Metric: c.Metric})
	}
	if err := results.WritePlan(opts.Dir, plan); err != nil {
		return fmt.Errorf("write plan: %w", err)
	}
	env := results.GatherEnvironment(ctx, opts.Version)
	env.Kafka, env.Clients = versions(scs, opts)
	env.JVMOpts = jvmOpts()
	if err := results.WriteEnvironment(opts.Dir, env); err != nil {
		return fmt.Errorf("write environment: %w", err)
	}
	return nil
}

// runner takes a run's cluster groups through their schedules: it starts
// each group's cluster as a session, runs its warm-up and measured
// schedules on the executor, and alternates clusters when they fit.
type runner struct {
	exp  *expfile.Experiment
	opts Options
	x    *executor
	ev   events
	sum  Summary
	// drivers are shared by every group's target.
	drivers map[string]driver.Driver
	// cmps are the planned comparisons; nScenarios the run's scenarios,
	// to share the budget of trials: auto between cluster groups.
	cmps       []expfile.Comparison
	nScenarios int
	// prev are the records of the run being resumed; finishedBefore its
	// finished measured trials, not run again.
	prev           []results.Record
	finishedBefore map[trialKey]bool
	// kip1269Native maps each Kafka (cluster.kafka) with kip1269.retain to
	// the KIP's broker property when it implements KIP-1269 itself, "" when
	// it does not, asked once per run (kip1269.go).
	kip1269Native map[string]string
	// partner pairs a duet's scenarios by ID (duet.go), nil otherwise.
	partner map[string]string
}

// newRunner prepares a run of scs; the caller subscribes to its events.
func newRunner(ctx context.Context, exp *expfile.Experiment, scs []expfile.Scenario, cmps []expfile.Comparison, opts Options) *runner {
	r := &runner{exp: exp, opts: opts, drivers: map[string]driver.Driver{}, cmps: cmps, nScenarios: len(scs),
		kip1269Native: map[string]string{}}
	r.x = &executor{root: ctx, run: filepath.Base(opts.Dir), experiment: exp.Name, keepTopics: opts.KeepTopics,
		kip1269Native: r.kip1269Native, model: model.Pipe{}, proxied: proxiedScenarios(scs, cmps),
		workers: workerClasses(scs, cmps), actions: opts.actions}
	if opts.Previous != nil {
		r.resumeFrom(opts.Previous)
	}
	return r
}

// total is how many trials the run will take for n scenarios, 0 when the
// rounds decide it.
func (r *runner) total(n int) int {
	if r.exp.TrialsAuto || r.exp.LivesAuto || r.exp.WarmupAuto || r.exp.Mode().Searches() {
		return 0
	}
	return max(n*(r.exp.Warmup+r.exp.Trials)*r.exp.ClusterLives()-len(r.finishedBefore), 0)
}

// outcome is the run's error: delivery violated outranks an interrupt
// that stopped the run (Summary.Stopped), which outranks failed trials.
func (r *runner) outcome(ctx context.Context) error {
	switch {
	case r.sum.Violated > 0:
		return fmt.Errorf("%d of %d trials: %w (see STATUS)", r.sum.Violated, r.sum.Trials, ErrViolated)
	case r.sum.Stopped:
		return fmt.Errorf("run interrupted: %w", ctx.Err())
	case r.sum.Failed > 0:
		return fmt.Errorf("%d of %d trials: %w", r.sum.Failed, r.sum.Trials, ErrTrialsFailed)
	}
	return nil
}

func (r *runner) logf(format string, args ...any) { r.ev.logf(format, args...) }

func (r *runner) closeDrivers() {
	for _, d := range r.drivers {
		_ = d.Close()
	}
}
