package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/prodlab/prodlab/internal/app"
	"github.com/prodlab/prodlab/internal/report"
)

// reportFlags are the options of prodlab report.
type reportFlags struct {
	format string
	html   bool
}

func newReportCmd() *cobra.Command {
	f := &reportFlags{}
	c := &cobra.Command{
		Use:   "report RUN_DIR",
		Short: "Render a run directory's results.jsonl again, in any format (--html: also regenerate report.html)",
		Long: `Render the results of a run directory again: the table (scores as
mean ± 95 % confidence error when a scenario has several trials) with the
Findings of the experiment's planned comparisons, kafka-producer-perf-test's
final line per scenario, CSV, JSON or Markdown. The machine described is the
one saved when the run started (environment.json), never the one rendering.
With --html, also regenerate table.txt, findings.json (the Findings for
scripts), capacity.json (a capacity run's sustainable rates) and
report.html in the run directory. --format json adds each
scenario's Findings (as candidate) under "findings".`,
		Example: `  prodlab report results/20261122-190000-batching
  prodlab report results/20261122-190000-batching --format csv > batching.csv
  prodlab report results/20261122-190000-batching --html`,
		Args: argsUsage(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkFormat(f.format); err != nil {
				return err
			}
			recs, err := app.ReadRun(args[0], c.ErrOrStderr())
			if err != nil {
				return err
			}
			if !f.html {
				return report.RenderRun(args[0], recs, c.OutOrStdout(), f.format)
			}
			if err := report.WriteRun(args[0], recs, c.OutOrStdout(), f.format); err != nil {
				return err
			}
			fmt.Fprintf(c.ErrOrStderr(), "prodlab: wrote %s\n", filepath.Join(args[0], report.HTMLFile))
			return nil
		},
	}
	addFormatFlag(c, &f.format)
	c.Flags().BoolVar(&f.html, "html", false, "also regenerate table.txt, findings.json, capacity.json (capacity runs) and report.html in RUN_DIR")
	return c
}
