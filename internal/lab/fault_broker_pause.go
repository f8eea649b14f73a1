package lab

import (
	"context"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/expfile"
)

// A paused broker (SIGSTOP) is resumed (SIGCONT). On a Trogdor fleet
// whose agent runs on the broker's host, Trogdor's ProcessStopFault does
// the same there: SIGSTOP to every JVM whose jcmd line holds the broker's
// main class, SIGCONT when the fault's time is up.
func init() {
	registerFault(expfile.FaultBrokerPause, faultAction{
		down: func(c *cluster.Cluster, id int) (func(context.Context) error, error) {
			if err := c.Pause(id); err != nil {
				return nil, err
			}
			return func(context.Context) error { return c.Resume(id) }, nil
		},
		fleet: func(node string) map[string]any {
			return map[string]any{
				"class":           "org.apache.kafka.trogdor.fault.ProcessStopFaultSpec",
				"nodeNames":       []string{node},
				"javaProcessName": cluster.BrokerMainClass,
			}
		},
	})
}
