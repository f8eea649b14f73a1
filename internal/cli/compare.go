package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/prodlab/prodlab/internal/app"
	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/stats"
)

// compareFlags are the options of prodlab compare.
type compareFlags struct {
	scenarios   bool
	unpaired    bool
	format      string
	confidence  float64
	equivalence float64
}

func newCompareCmd() *cobra.Command {
	f := &compareFlags{}
	c := &cobra.Command{
		Use:   "compare RUN_A RUN_B | compare RUN_DIR --scenarios ID_A ID_B",
		Short: "Compare two runs, or two scenarios of one run, and say whether a difference is real",
		Long: `Compare B against A, metric by metric: throughput (msg/s and MB/s), latency
p50, p99 and p99.9, and bytes on disk. Each side shows its mean over its
successful, non-warm-up trials ± the 95 % confidence half-width (Student's
t), then B's relative difference from A, and one
of four verdicts:

  faster by X % [lo, hi]          the interval of the difference excludes 0
  slower by X % [lo, hi]          (lower / higher for latency and disk)
  equivalent within ±m %          two one-sided tests at --equivalence m: the
                                  difference is surely smaller than the margin
  inconclusive: [lo, hi] is wider than ±m %; about N more rounds would decide it

"No significant difference" is never a verdict: an interval too wide to tell
1 % from 100 % says inconclusive and how many more rounds would decide.

Latency figures here are per-trial percentiles averaged over trials (the
spread between trials is what the test needs), so they can differ slightly
from the merged-histogram percentiles of 'prodlab report'.

With two run directories, every scenario ID present in both is compared
with Welch's unequal-variances t-test. With --scenarios, the two scenarios
(IDs as in results.jsonl, or labels such as "linger.ms=5
compression.type=zstd") of one run are compared, and their trials are
paired by round: the lab runs trial i of every scenario back to back in
round i, so each metric is tested with a paired t-test on the per-round log
ratios B/A, which cancels whatever moved both trials of a round (a busy
neighbour, a warming JIT). --unpaired uses Welch's test there too.
A verdict needs at least two trials on each side; trials: auto in the
experiment adds rounds until the intervals are narrow enough.

The confidence level and equivalence margin default to the run's own: the
level and margin (the experiment's equivalence:) saved in its plan.json,
when comparing two scenarios of one run or two runs whose plan.json agree;
otherwise to 95 % and ±5 %. --confidence and --equivalence, when given,
override them.`,
		Example: `  prodlab compare results/monday-batching results/tuesday-batching
  prodlab compare results/20261122-190000-batching --scenarios linger.ms=0,compression.type=none linger.ms=5,compression.type=zstd
  prodlab compare results/20261122-190000-proxy-cost --scenarios network.proxy=false network.proxy=true --format json`,
		Args: argsUsage(cobra.RangeArgs(2, 3)),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkVerdictFlags(c, f); err != nil {
				return err
			}
			if f.format != "table" && f.format != "json" {
				return usage(fmt.Errorf("unknown --format %q for compare: use table or json", f.format))
			}
			req, err := compareRequest(args, f)
			if err != nil {
				return err
			}
			cs, err := app.Compare(req, c.ErrOrStderr())
			if err != nil {
				return err
			}
			if f.format == "json" {
				return report.CompareJSON(c.OutOrStdout(), cs)
			}
			return report.CompareTable(c.OutOrStdout(), cs)
		},
	}
	c.Flags().BoolVar(&f.scenarios, "scenarios", false, "compare two scenarios of one run: RUN_DIR --scenarios ID_A ID_B")
	c.Flags().BoolVar(&f.unpaired, "unpaired", false, "with --scenarios, use Welch's test instead of pairing trials by round")
	c.Flags().StringVar(&f.format, "format", "table", "output format: table or json (for scripts)")
	// Zero defaults: app takes the run's plan.json, else stats' defaults.
	c.Flags().Float64Var(&f.confidence, "confidence", 0, fmt.Sprintf("confidence level of intervals and verdicts (default: the run's plan.json, else %g)", stats.DefaultConfidence))
	c.Flags().Float64Var(&f.equivalence, "equivalence", 0, fmt.Sprintf("equivalence margin, relative, 0.05 = ±5 %% (default: the run's plan.json, else %g)", stats.DefaultMargin))
	return c
}

// checkVerdictFlags refuses a --confidence or --equivalence given out of
// range; flags not given stay 0, for app to take the run's plan.json.
func checkVerdictFlags(c *cobra.Command, f *compareFlags) error {
	if c.Flags().Changed("confidence") && !(f.confidence > 0.5 && f.confidence < 1) {
		return usage(fmt.Errorf("--confidence must be in (0.5, 1), got %g", f.confidence))
	}
	if c.Flags().Changed("equivalence") && !(f.equivalence > 0 && f.equivalence < 1) {
		return usage(fmt.Errorf("--equivalence must be in (0, 1), got %g", f.equivalence))
	}
	return nil
}

// compareRequest reads the arguments: two run directories, or with
// --scenarios one run directory and two scenario IDs.
func compareRequest(args []string, f *compareFlags) (app.CompareRequest, error) {
	req := app.CompareRequest{Level: f.confidence, Margin: f.equivalence, Unpaired: f.unpaired}
	switch {
	case f.unpaired && !f.scenarios:
		return req, usage(errors.New("--unpaired applies to two scenarios of one run, which are paired by round: add --scenarios (compare RUN_DIR --scenarios ID_A ID_B --unpaired); two runs are always compared unpaired"))
	case f.scenarios && len(args) != 3:
		return req, usage(errors.New("--scenarios takes one run directory and two scenario IDs: compare RUN_DIR --scenarios ID_A ID_B"))
	case f.scenarios:
		req.RunA, req.ScenarioA, req.ScenarioB = args[0], args[1], args[2]
	case len(args) != 2:
		return req, usage(errors.New("compare takes two run directories (or RUN_DIR --scenarios ID_A ID_B)"))
	default:
		req.RunA, req.RunB = args[0], args[1]
	}
	return req, nil
}
