package lab

import (
	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/spec"
)

// A paused broker (SIGSTOP) is resumed (SIGCONT).
func init() {
	registerFault(spec.FaultBrokerPause, faultAction{down: func(c *cluster.Cluster, id int) (func() error, error) {
		if err := c.Pause(id); err != nil {
			return nil, err
		}
		return func() error { return c.Resume(id) }, nil
	}})
}
