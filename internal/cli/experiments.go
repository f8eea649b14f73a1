package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/prodlab/prodlab/internal/expfile"
)

func newExperimentsCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "experiments",
		Short:   "List the built-in experiments",
		Example: "  prodlab experiments\n  prodlab run batching",
		Args:    argsUsage(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			bs, err := expfile.Builtins()
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(c.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tDESCRIPTION")
			for _, b := range bs {
				fmt.Fprintf(tw, "%s\t%s\n", b.Name, b.Description)
			}
			return tw.Flush()
		},
	}
}
