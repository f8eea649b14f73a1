package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/results"
)

func newReportCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "report RUN_DIR",
		Short:   "Render the results table again from a run directory's results.jsonl",
		Example: "  prodlab report results/20261122-190000-batching",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, args []string) error {
			recs, err := results.Read(args[0])
			if err != nil {
				return usage(fmt.Errorf("read results: %w", err))
			}
			return report.Table(c.OutOrStdout(), recs)
		},
	}
}
