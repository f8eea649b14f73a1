package cli

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/prodlab/prodlab/internal/app"
)

// newWorkerCmd is franz-go as a worker process of its own: the command a
// Trogdor agent runs for a franz-go trial on a fleet (clients.Kind
// FleetWorker, docs/distributed.md). Locally franz-go runs in prodlab's own
// process, so the command is hidden from help.
func newWorkerCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "worker franz-go serve|trogdor",
		Short:  "Serve franz-go trials as a worker process (what Trogdor agents run)",
		Hidden: true,
		Example: `  prodlab worker franz-go serve     # the worker protocol on stdin/stdout (docs/worker-protocol.md)
  prodlab worker franz-go trogdor   # one trial as a Trogdor ExternalCommandSpec task's command`,
		Args: argsUsage(cobra.ExactArgs(2)),
		RunE: func(c *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(c.Context(), syscall.SIGTERM, os.Interrupt)
			defer stop()
			return app.ServeWorker(ctx, args[0], args[1], c.InOrStdin(), c.OutOrStdout())
		},
	}
}
