package lab

import (
	"context"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/expfile"
)

// A broker shut down cleanly is restarted.
func init() {
	registerFault(expfile.FaultLeaderShutdown, faultAction{down: func(c *cluster.Cluster, id int) (func(context.Context) error, error) {
		if err := c.Shutdown(id); err != nil {
			return nil, err
		}
		return func(ctx context.Context) error { return c.Restart(ctx, id) }, nil
	}})
}
