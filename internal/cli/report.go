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
		Use:   "report RUN_DIR [RUN_DIR...]",
		Short: "Render a run directory's results.jsonl again, in any format (--html: also regenerate report.html)",
		Long: `Render the results of a run directory again: the table (scores as
mean ± 95 % confidence error when a scenario has several trials) with the
Findings of the experiment's planned comparisons, kafka-producer-perf-test's
final line per scenario, CSV, JSON or Markdown. The machine described is the
one saved when the run started (environment.json), never the one rendering.
With --html, also regenerate table.txt, findings.json (the Findings for
scripts), capacity.json (a capacity run's sustainable rates) and
report.html in the run directory. --format json adds each
scenario's Findings (as candidate) under "findings".

With several run directories of one experiment, one report answers each
planned comparison over the runs: every run is one life of the clusters
(new broker and client JVMs; a run of lives: N brings N), its rounds pair
only with each other, and each life's mean counts once — "(paired over 3
lives, 95 %)", t on lives − 1 degrees of freedom. The runs must ask the
same questions (plan.json) at the same level and margin; a run whose
experiment.yaml differs otherwise, beyond its rounds settings, is warned
of. A single run's interval covers what varies from round to round, not
what varies from one cluster life to the next; repeat the run, or set
lives, to settle a small difference (docs/answers.md).`,
		Example: `  prodlab report results/20261122-190000-batching
  prodlab report results/20261122-190000-batching --format csv > batching.csv
  prodlab report results/20261122-190000-batching --html
  prodlab report results/idem-1 results/idem-2 results/idem-3`,
		Args: argsUsage(cobra.MinimumNArgs(1)),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkFormat(f.format); err != nil {
				return err
			}
			if f.html && len(args) > 1 {
				return usage(fmt.Errorf("--html regenerates one run directory's files; give one RUN_DIR (have %d)", len(args)))
			}
			recs, err := app.ReadRuns(args, c.ErrOrStderr())
			if err != nil {
				return err
			}
			if !f.html {
				return report.RenderRun(args[0], recs, c.OutOrStdout(), f.format)
			}
			if err := report.WriteRun(args[0], recs, c.OutOrStdout(), f.format, app.SettingNotes); err != nil {
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
