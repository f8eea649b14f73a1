package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/prodlab/prodlab/internal/app"
	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/results"
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
	// Trogdor fleet (app.PlanRun).
	trogdor           string
	trogdorNodes      []string
	trogdorMaxPerNode int
	// advise is `prodlab advise`: the experiment must have an advise:
	// section; current is its --current file.
	advise  bool
	current string
	// live is --live's address ("": no page).
	live string
}

// addLiveFlag adds --live [ADDR]: alone it serves the page on loopback,
// a free port.
func addLiveFlag(c *cobra.Command, f *runFlags) {
	c.Flags().StringVar(&f.live, "live", "", "serve a live page of the run while it goes, on ADDR (--live alone: 127.0.0.1, a free port, printed at the start)")
	c.Flags().Lookup("live").NoOptDefVal = app.DefaultLiveAddr
}

func newRunCmd() *cobra.Command {
	f := &runFlags{}
	c := &cobra.Command{
		Use:   "run [EXPERIMENT]",
		Short: "Run an experiment (a built-in name or a YAML file; default: compression)",
		Long: `Run an experiment: start an embedded Kafka cluster (or use --bootstrap), warm
it up, run rounds of every scenario of its matrix in alternating order, append
each trial to results.jsonl in the run directory as soon as it finishes, and
print the results table with the Findings: one answer per planned comparison
(the experiment's compare: entries) — faster / slower by X % [lo, hi],
equivalent within ±m %, or inconclusive with the rounds it would still need.

With trials: auto, rounds are added until every planned comparison's 95 %
interval is within ±precision, or the budget is spent (--set budget=20m asks
for more); with trials: N, N rounds run. warmup: auto warms until the
throughput is steady. An experiment with a capacity: section searches each
scenario's sustainable rate under its SLO instead (probes at chosen rates
until each rate is known within capacity.precision or capacity.budget is
spent) and writes capacity.json (docs/capacity.md).

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
		Example: `  prodlab run                                  # experiments/compression.yaml
  prodlab run batching --set workload.records=10000
  prodlab run batching --set linger.ms=5 --set compression.type=zstd
  prodlab run replication --set budget=20m --set precision=0.03
  prodlab run idempotence --set trials=5 --set warmup=1
  prodlab run idempotence-capacity --set capacity.budget=20m   # sustainable rates under p99 ≤ 50 ms
  prodlab run ./my.yaml --bootstrap 127.0.0.1:9092 --out results/mine
  prodlab run ./my.yaml --out results/mine --resume   # after Ctrl-C or a crash
  prodlab run idempotence --dry-run                   # the scenarios and the time it will take
  prodlab run idempotence --live                      # and follow it in a browser: the URL is printed at the start
  prodlab run producers --trogdor http://127.0.0.1:8889   # producers on a Trogdor fleet's agents`,
		Args: argsUsage(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, args []string) error {
			name := "compression"
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
	addLiveFlag(c, f)
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
	for _, n := range plan.Exp.Notes {
		fmt.Fprintln(c.ErrOrStderr(), "prodlab: "+n)
	}
	if f.dryRun {
		return dryRun(c.OutOrStdout(), plan)
	}
	exp := plan.Exp
	ans, err := app.Run(ctx, plan, c.ErrOrStderr(), func(dir string) {
		fmt.Fprintf(c.ErrOrStderr(), "prodlab: running %s: %d scenarios × %s; results in %s\n", exp.Name, len(plan.Scenarios), exp.RoundsText(), dir)
	})
	if ans == nil {
		return err
	}
	interrupted := ans.Interrupted
	if len(ans.Records) > 0 || !interrupted {
		if rerr := report.WriteRun(ans.Dir, ans.Records, c.OutOrStdout(), f.format, app.SettingNotes); rerr != nil {
			return rerr
		}
		fmt.Fprintf(c.ErrOrStderr(), "prodlab: results in %s\n", filepath.Join(ans.Dir, results.ResultsFile))
	}
	if interrupted {
		same := "--set values"
		if f.advise {
			same = "--current and --set values"
		}
		fmt.Fprintf(c.ErrOrStderr(), "prodlab: interrupted after %d trials; continue with: %s %s --out %s --resume (and the same %s)\n",
			len(ans.Records), c.CommandPath(), name, ans.Dir, same)
	}
	return err
}

// planRun turns the flags into a run request and has app check it:
// everything that can be refused is refused here (exit 2), before
// anything starts.
func planRun(ctx context.Context, name string, f *runFlags) (*app.Plan, error) {
	if err := checkFormat(f.format); err != nil {
		return nil, err
	}
	sets, err := trogdorSets(f)
	if err != nil {
		return nil, err
	}
	plan, err := app.PlanRun(ctx, app.RunRequest{
		Experiment: name,
		Sets:       append(slices.Clip(f.sets), sets...),
		Bootstrap:  f.bootstrap,
		Out:        f.out,
		Resume:     f.resume,
		KeepTopics: f.keepTopics,
		Version:    Version,
		Advise:     f.advise,
		Current:    f.current,
		Live:       f.live,
	})
	blameTrogdorFlags(err, sets)
	return plan, err
}

// dryRun prints what `prodlab run` would do, everything already checked:
// the scenarios with their cluster and client, the planned rounds and the
// run time to expect. Nothing starts.
func dryRun(w io.Writer, plan *app.Plan) error {
	fmt.Fprintf(w, "dry run of %s: %d scenarios, %s; nothing started\n", plan.Exp.Name, len(plan.Scenarios), plan.Exp.RoundsText())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tSCENARIO\tCLUSTER\tCLIENT")
	for i, r := range plan.Rows() {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", i+1, r.Scenario, r.Cluster, r.Client)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "planned time: %s\n", plan.Estimate())
	return nil
}
