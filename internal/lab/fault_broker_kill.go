package lab

import (
	"context"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/expfile"
)

// A killed broker (SIGKILL) is restarted.
func init() {
	registerFault(expfile.FaultBrokerKill, faultAction{down: func(c *cluster.Cluster, id int) (func(context.Context) error, error) {
		if err := c.Kill(id); err != nil {
			return nil, err
		}
		return func(ctx context.Context) error { return c.Restart(ctx, id) }, nil
	}})
}
