package lab

import (
	"context"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/spec"
)

// A paused broker (SIGSTOP) is resumed (SIGCONT).
func init() {
	registerFault(spec.FaultBrokerPause, faultAction{down: func(c *cluster.Cluster, id int) (func(context.Context) error, error) {
		if err := c.Pause(id); err != nil {
			return nil, err
		}
		return func(context.Context) error { return c.Resume(id) }, nil
	}})
}
