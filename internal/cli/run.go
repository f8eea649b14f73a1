package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/lab"
	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/spec"
)

type runFlags struct {
	sets       []string
	out        string
	bootstrap  string
	keepTopics bool
	format     string
	resume     bool
	dryRun     bool
	// trogdor, trogdorNodes and trogdorMaxPerNode run the trials on a
	// Trogdor fleet (lab.PlanTrogdor).
	trogdor           string
	trogdorNodes      []string
	trogdorMaxPerNode int
}

// runPlan is everything planRun checked: the experiment, its scenarios,
// the --bootstrap brokers (nil: embedded) and the Trogdor fleets' drivers
// (nil: local clients only).
type runPlan struct {
	exp       *spec.Experiment
	scs       []spec.Scenario
	bootstrap []string
	fleets    lab.Fleets
}

func newRunCmd() *cobra.Command {
	f := &runFlags{}
	c := &cobra.Command{
		Use:   "run [EXPERIMENT]",
		Short: "Run an experiment (a built-in name or a YAML file; default: batching)",
		Long: `Run an experiment: start an embedded Kafka cluster (or use --bootstrap), warm
it up, run rounds of every scenario of its matrix in alternating order, append
each trial to results.jsonl in the run directory as soon as it finishes, and
print the results table with the Findings: one answer per planned comparison
(the experiment's compare: entries) — faster / slower by X % [lo, hi],
equivalent within ±m %, or inconclusive with the rounds it would still need.

With trials: auto, rounds are added until every planned comparison's 95 %
interval is within ±precision, or the budget is spent (--set budget=20m asks
for more); with trials: N, N rounds run. warmup: auto warms until the
throughput is steady.

The whole experiment is validated before anything starts (--dry-run stops
there and prints the plan). A run directory (--out) that already holds a run
is refused unless --resume continues it: same experiment and --set values,
finished trials kept and not run again, interrupted ones run again.

With --trogdor, every trial runs as one Trogdor task on the fleet's agents
(workload.producers spread over them, at least one each): their results
merge into the trial's record, each producer's figures kept with its node's
name, and the audit reads every producer's records back.

Exit codes: 0 every trial ok (or its audit found only what the experiment's
expect: declares), 1 a trial or the run failed or was interrupted, 2 bad
usage or input (nothing started), 3 an audit found lost, duplicated,
reordered or phantom records the experiment does not expect.`,
		Example: `  prodlab run                                  # experiments/batching.yaml
  prodlab run batching --set workload.records=10000
  prodlab run batching --set linger.ms=5 --set compression.type=zstd
  prodlab run replication --set budget=20m --set precision=0.03
  prodlab run idempotence --set trials=5 --set warmup=1
  prodlab run ./my.yaml --bootstrap 127.0.0.1:9092 --out results/mine
  prodlab run ./my.yaml --out results/mine --resume   # after Ctrl-C or a crash
  prodlab run idempotence --dry-run                   # the scenarios and the time it will take
  prodlab run producers --trogdor http://127.0.0.1:8889   # producers on a Trogdor fleet's agents`,
		Args: argsUsage(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, args []string) error {
			name := "batching"
			if len(args) == 1 {
				name = args[0]
			}
			return runExperiment(c, name, f)
		},
	}
	c.Flags().StringArrayVar(&f.sets, "set", nil, "override any experiment key, e.g. --set linger.ms=5 (repeatable)")
	c.Flags().StringVar(&f.out, "out", "", "run directory (default results/<timestamp>-<name>)")
	c.Flags().StringVar(&f.bootstrap, "bootstrap", "", "run against an existing cluster at HOST:PORT[,HOST:PORT] instead of starting one")
	c.Flags().BoolVar(&f.keepTopics, "keep-topics", false, "keep each trial's topic after the run")
	c.Flags().BoolVar(&f.resume, "resume", false, "continue the unfinished run in --out DIR: same experiment and --set values; finished trials are not run again")
	c.Flags().StringVar(&f.trogdor, "trogdor", "", "run every trial on the agents of the Trogdor fleet whose coordinator is at http://HOST:PORT (sets trogdor.coordinator; see docs/distributed.md)")
	c.Flags().StringSliceVar(&f.trogdorNodes, "trogdor-nodes", nil, "with --trogdor: the agents to run on, e.g. agent-1,agent-2 (sets trogdor.nodes; default: every agent that answers)")
	c.Flags().IntVar(&f.trogdorMaxPerNode, "trogdor-max-producers-per-node", 0, "with --trogdor: refuse a scenario that would run more producer instances on one agent (sets trogdor.max.producers.per.node; 0: no limit)")
	c.Flags().BoolVar(&f.dryRun, "dry-run", false, "check everything, print the scenarios, rounds and an estimate of the run time, and start nothing")
	addFormatFlag(c, &f.format)
	return c
}

func runExperiment(c *cobra.Command, name string, f *runFlags) error {
	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// A second signal, or one while stopping takes too long, ends everything now.
		<-ctx.Done()
		stop()
	}()
	plan, err := planRun(ctx, name, f)
	if err != nil {
		return err
	}
	exp, scs := plan.exp, plan.scs
	if f.dryRun {
		return dryRun(c.OutOrStdout(), plan, f)
	}
	dir, err := prepareRunDir(f.out, exp, f.resume)
	if err != nil {
		return err
	}
	previous, err := previousRecords(c, dir, f.resume)
	if err != nil {
		return err
	}
	opts := lab.Options{
		Dir:        dir,
		Bootstrap:  plan.bootstrap,
		Fleets:     plan.fleets,
		Log:        c.ErrOrStderr(),
		KeepTopics: f.keepTopics,
		WorkerJar:  workerJar(),
		Version:    Version,
		Previous:   previous,
	}
	fmt.Fprintf(c.ErrOrStderr(), "prodlab: running %s: %d scenarios × %s; results in %s\n", exp.Name, len(scs), exp.RoundsText(), dir)
	sum, err := lab.Run(ctx, exp, scs, opts)
	if err != nil && sum == nil {
		return err
	}
	interrupted := ctx.Err() != nil
	if len(sum.Records) > 0 || !interrupted {
		if rerr := report.WriteRun(dir, sum.Records, c.OutOrStdout(), f.format); rerr != nil {
			return rerr
		}
		fmt.Fprintf(c.ErrOrStderr(), "prodlab: results in %s\n", filepath.Join(dir, results.ResultsFile))
	}
	if interrupted {
		fmt.Fprintf(c.ErrOrStderr(), "prodlab: interrupted after %d trials; continue with: prodlab run %s --out %s --resume (and the same --set values)\n",
			len(sum.Records), name, dir)
	}
	return err
}

// planRun loads, expands and checks the experiment and the flags, and
// resolves the Kafka and client versions it names: everything that can be
// refused is refused here (exit 2), before anything starts.
func planRun(ctx context.Context, name string, f *runFlags) (runPlan, error) {
	if err := checkFormat(f.format); err != nil {
		return runPlan{}, err
	}
	sets, err := trogdorSets(f)
	if err != nil {
		return runPlan{}, err
	}
	exp, err := spec.Load(name, append(slices.Clip(f.sets), sets...))
	if err != nil {
		return runPlan{}, usage(err)
	}
	scs, err := lab.Plan(exp)
	if err != nil {
		return runPlan{}, usage(err)
	}
	p := runPlan{exp: exp, scs: scs}
	if f.bootstrap != "" {
		if p.bootstrap, err = parseBootstrap(f.bootstrap); err != nil {
			return runPlan{}, usage(fmt.Errorf("--bootstrap: %w", err))
		}
		if err := lab.CheckExternal(scs); err != nil {
			return runPlan{}, usage(err)
		}
	}
	if err := lab.Preflight(ctx, scs, p.bootstrap != nil, workerJar()); err != nil {
		return runPlan{}, usage(err)
	}
	if p.fleets, err = lab.PlanTrogdor(ctx, scs, p.bootstrap); err != nil {
		return runPlan{}, usage(err)
	}
	if err := checkWorkerJar(scs, workerJar()); err != nil {
		return runPlan{}, err
	}
	return p, nil
}

// previousRecords reads what the run in dir recorded before, when resuming
// it; a run that stopped before its first trial has none.
func previousRecords(c *cobra.Command, dir string, resume bool) ([]results.Record, error) {
	if !resume {
		return nil, nil
	}
	previous, err := readRun(dir, c.ErrOrStderr())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	fmt.Fprintf(c.ErrOrStderr(), "prodlab: resuming %s: %d trials recorded before\n", dir, len(previous))
	if previous == nil {
		previous = []results.Record{}
	}
	return previous, nil
}

// workerJar finds the Java worker: $PRODLAB_WORKER_JAR, next to the
// executable, or in the source tree's build output.
func workerJar() string {
	if p := os.Getenv("PRODLAB_WORKER_JAR"); p != "" {
		return p
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), "prodlab-worker.jar")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return filepath.Join("java", "worker", "target", "prodlab-worker.jar")
}

// checkWorkerJar fails before anything starts when a scenario needs the
// Java client and the worker jar is missing.
func checkWorkerJar(scs []spec.Scenario, jar string) error {
	for _, sc := range scs {
		if !driver.NeedsWorker(sc.Exp.Client) {
			continue
		}
		if _, err := os.Stat(jar); err != nil {
			return fmt.Errorf("client %s needs the Java worker, which is not at %s: build it with 'make build' (or point PRODLAB_WORKER_JAR at it)", sc.Exp.Client, jar)
		}
		return nil
	}
	return nil
}
