package cli

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"
)

// newAdviseCmd is `prodlab advise FILE`: `prodlab run` of an experiment
// with an advise: section, with the current settings as a flag.
func newAdviseCmd() *cobra.Command {
	f := &runFlags{advise: true}
	var current string
	c := &cobra.Command{
		Use:   "advise EXPERIMENT",
		Short: "Find the producer settings with the highest sustainable rate under an SLO (or the lowest CPU or p99 at your rate), proven against yours",
		Long: `Search producer settings for a workload: every point of the experiment's
advise.space (default: batch.size × linger.ms × compression.type ×
max.in.flight.requests.per.connection, the last left out for franz-go with
idempotence on) is a candidate, beside your current
settings (--current, a producer .properties file) and the client's defaults.
Each candidate's sustainable rate under the SLO is searched with probes, as a
capacity: section does; candidates the verdicts decide slower than the best
leave the race early, and when the budget cannot give every candidate the
probes a verdict needs, the better half goes on (successive halving). The
producer: section holds constraints the search never changes (acks,
enable.idempotence, ...).

At the rate you run (workload.rate), advise.objective cpu.total (client and
brokers, ms per MB) or p99.intended (or cpu.client, cpu.brokers,
p50/p95/p999.intended) asks for the lowest of that figure instead: every
candidate runs rounds at the rate, only those that hold it (keep up, a
steady window, the SLO) in most trials count, and those decided worse than
the best, paired by round, leave the race.

The answer is a verdict, never a bare number: the pick is recommended only
when it is decided faster than your current settings (at a fixed rate:
lower on the objective, or your settings did not hold the rate); otherwise the answer
is "keep your settings" (within ±equivalence of the best found) or "cannot
tell yet". The run directory gets advice.json (the pick, its verdicts
against your settings and the defaults, the runners-up that could not be
told apart from it, why) and advice.properties (the pick, ready to use;
with franz-go, each property's kgo option in a comment above it).
prodlab advise FILE is prodlab run FILE for a file with an advise: section;
see docs/advice.md.

Exit codes as prodlab run: 0 ok, 1 a trial or the run failed, 2 bad usage or
input (nothing started), 3 an audit found what the experiment does not
expect.`,
		Example: `  prodlab advise ./workload.yaml --current producer.properties
  prodlab advise ./workload.yaml --set advise.budget=30m
  prodlab advise ./workload.yaml --set advise.objective=cpu.total --set workload.rate=20000
  prodlab advise ./workload.yaml --dry-run                # the candidates and the time it will take
  prodlab advise ./workload.yaml --out results/adv --resume`,
		Args: argsUsage(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, args []string) error {
			if c.Flags().Changed("current") && strings.TrimSpace(current) == "" {
				return usage(errors.New("--current is empty: give your producer .properties file, or leave the flag out to judge against the client's defaults"))
			}
			f.current = current
			return runExperiment(c, args[0], f)
		},
	}
	c.Flags().StringVar(&current, "current", "", "your current producer settings, a Java .properties file (sets advise.current; default: the client's defaults)")
	c.Flags().StringArrayVar(&f.sets, "set", nil, "override any experiment key, e.g. --set advise.budget=30m (repeatable)")
	c.Flags().StringVar(&f.out, "out", "", "run directory (default results/<timestamp>-<name>)")
	c.Flags().StringVar(&f.bootstrap, "bootstrap", "", "search on an existing cluster at HOST:PORT[,HOST:PORT] instead of starting one")
	c.Flags().BoolVar(&f.resume, "resume", false, "continue the unfinished advise run in --out DIR (same file and flags)")
	c.Flags().BoolVar(&f.dryRun, "dry-run", false, "check everything, print the candidates and an estimate of the run time, and start nothing")
	addLiveFlag(c, f)
	addFormatFlag(c, &f.format)
	return c
}
