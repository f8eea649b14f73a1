package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/prodlab/prodlab/internal/report"
)

// addFormatFlag registers --format on c, storing the choice in p; the
// default is the table.
func addFormatFlag(c *cobra.Command, p *string) {
	c.Flags().StringVar(p, "format", report.FormatTable,
		"output format: "+strings.Join(report.Formats(), ", "))
}

// checkFormat validates a --format value before any work starts: an
// unknown format is a usage error (exit 2) listing the valid ones.
func checkFormat(format string) error {
	if err := report.ValidFormat(format); err != nil {
		return usage(err)
	}
	return nil
}
