package lab

import (
	"context"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/spec"
)

// A killed broker (SIGKILL) is restarted.
func init() {
	registerFault(spec.FaultBrokerKill, faultAction{down: func(c *cluster.Cluster, id int) (func() error, error) {
		if err := c.Kill(id); err != nil {
			return nil, err
		}
		return func() error { return c.Restart(context.Background(), id) }, nil
	}})
}
