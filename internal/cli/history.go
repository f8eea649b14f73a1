package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/prodlab/prodlab/internal/app"
	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/stats"
)

// ExitRegression: a --gate of prodlab history found the newest run
// departing from its series' level against the user's direction.
const ExitRegression = 4

// errRegression marks a failed gate (exit code ExitRegression).
var errRegression = errors.New("regression")

// historyFormats are prodlab history's --format values and their writers.
var historyFormats = map[string]func(io.Writer, *report.History) error{
	"table": report.HistoryTable, "csv": report.HistoryCSV, "json": report.HistoryJSON, "html": report.HistoryHTML,
}

// historyFlags are the options of prodlab history.
type historyFlags struct {
	format string
	gates  []string
	alpha  float64
	perms  int
	exp    string
}

func newHistoryCmd() *cobra.Command {
	f := &historyFlags{}
	c := &cobra.Command{
		Use:   "history RUN_DIR... | history FOLDER [--experiment NAME]",
		Short: "Line up runs of one experiment over time and find where a figure's level changed",
		Long: `Read runs of one experiment (run directories, or a folder whose
subdirectories are run directories), order them by when they started, and
line up every headline metric of every scenario (throughput, latency
percentiles, disk, CPU per MB, …: each run's mean over its counted trials
with its interval) and every finding (the relative difference with its
interval) as a series over the runs.

In each series, change points are found by E-divisive means (Matteson and
James 2014, as Apache Otava and MongoDB's performance CI use it): the
series is split where the energy distance between the two sides is
largest, the split is kept when a permutation test finds it significant
(p below --alpha, default 0.05, over --permutations random orders, default
999, seeded by the series' name so the answer never changes), and each
side is split again the same way. A level holds at least 2 runs, so a
change needs two runs after it to show; the gate below tests the newest
run alone. Runs whose environment differs from the run before (Kafka or
client versions, machine, Java, Go, prodlab, cluster layout) are marked:
a change there may be the environment's.

--gate METRIC[:THRESHOLD] (repeatable) makes history a CI gate: for each
scenario's METRIC series, the runs before the newest since its last change
point are its level, and the newest run fails the gate when it is worse
than that level (throughput lower; latency, CPU or disk higher) by more
than THRESHOLD (a share, 0.05 or 5%; default 0) with a one-sided
prediction test's p below --alpha. A failed gate exits 4 with one line per
series; a series with fewer than two runs at its level is named and not
tested.`,
		Example: `  prodlab history results/ --experiment batching      # every run of batching under results/
  prodlab history results/20261201-020000-batching results/20261202-020000-batching results/20261203-020000-batching
  prodlab history results/ --experiment batching --format html > history.html
  prodlab history results/ --experiment batching --format csv > history.csv
  prodlab history results/ --experiment batching --gate throughput:5% --gate p99:10%   # a CI gate`,
		Args: argsUsage(cobra.MinimumNArgs(1)),
		RunE: func(c *cobra.Command, args []string) error {
			write, ok := historyFormats[f.format]
			if !ok {
				return usage(fmt.Errorf("unknown --format %q for history: use table, csv, json or html", f.format))
			}
			if !(f.alpha > 0 && f.alpha < 0.5) {
				return usage(fmt.Errorf("--alpha must be in (0, 0.5), got %g", f.alpha))
			}
			if f.perms < 19 || f.perms > 100_000 {
				return usage(fmt.Errorf("--permutations must be from 19 to 100000, got %d", f.perms))
			}
			gates, err := parseGates(f.gates)
			if err != nil {
				return err
			}
			h, err := app.History(app.HistoryRequest{Paths: args, Experiment: f.exp,
				Change: stats.ChangeConfig{Alpha: f.alpha, Permutations: f.perms}}, c.ErrOrStderr())
			if err != nil {
				return err
			}
			if err := write(c.OutOrStdout(), h); err != nil {
				return err
			}
			return gateAll(c.ErrOrStderr(), h, gates, f.alpha)
		},
	}
	c.Flags().StringVar(&f.format, "format", "table", "output format: table, csv, json (for scripts) or html (one self-contained page)")
	c.Flags().StringArrayVar(&f.gates, "gate", nil, "METRIC[:THRESHOLD]: exit 4 when the newest run is worse than its level by more than THRESHOLD (repeatable)")
	c.Flags().StringVar(&f.exp, "experiment", "", "keep the runs of this experiment (its name:) only, when a folder holds runs of several")
	c.Flags().Float64Var(&f.alpha, "alpha", stats.DefaultChangeAlpha, "significance level of change points and gates")
	c.Flags().IntVar(&f.perms, "permutations", stats.DefaultChangePermutations, "random orders drawn by each change point's permutation test")
	return c
}

// parseGates reads --gate values (report.ParseGate).
func parseGates(vals []string) ([]report.Gate, error) {
	gates := make([]report.Gate, 0, len(vals))
	for _, v := range vals {
		g, err := report.ParseGate(v)
		if err != nil {
			return nil, usage(fmt.Errorf("--gate %q: %w", v, err))
		}
		gates = append(gates, g)
	}
	return gates, nil
}

// gateAll tests every gate, says on w what failed or could not be
// tested, and returns errRegression when a gate failed.
func gateAll(w io.Writer, h *report.History, gates []report.Gate, alpha float64) error {
	var failed []string
	for _, g := range gates {
		res := h.Gate(g, alpha)
		for _, u := range res.Untested {
			fmt.Fprintf(w, "gate %s: cannot tell yet: %s\n", g.Metric, u)
		}
		if len(res.Failed)+res.Passed+len(res.Untested) == 0 {
			fmt.Fprintf(w, "gate %s: no scenario of these runs measured %s\n", g.Metric, g.Metric)
		}
		failed = append(failed, res.Failed...)
		if len(res.Failed) == 0 && res.Passed > 0 {
			fmt.Fprintf(w, "gate %s: passed (%d series)\n", g.Metric, res.Passed)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", errRegression, strings.Join(failed, "\n  "))
}
