package cluster

import (
	"testing"
	"time"
)

// TestStopGrace: nodes that vote in a quorum of several get the raft
// client's shutdown wait on top of the stop grace, combined nodes as
// separate controllers; brokers without a vote, and a lone voter, do not.
func TestStopGrace(t *testing.T) {
	const grace = 10 * time.Second
	nodes := func(roles ...string) []*node {
		var out []*node
		for i, r := range roles {
			out = append(out, &node{spec: nodeSpec{ID: i + 1, Role: r}})
		}
		return out
	}
	for _, tc := range []struct {
		name                 string
		brokers, controllers []*node
		wantBrokers, wantCtl time.Duration
	}{
		{"one combined node", nodes(roleCombined), nil, grace, grace},
		{"three combined nodes", nodes(roleCombined, roleCombined, roleCombined), nil, grace + raftShutdownWait, grace},
		{"brokers and three controllers", nodes(roleBroker, roleBroker), nodes(roleController, roleController, roleController), grace, grace + raftShutdownWait},
		{"brokers and one controller", nodes(roleBroker), nodes(roleController), grace, grace},
	} {
		c := &Cluster{cfg: Config{StopGrace: grace}, nodes: tc.brokers, controllers: tc.controllers}
		if got := c.stopGrace(c.nodes); got != tc.wantBrokers {
			t.Errorf("%s: brokers' grace %v, want %v", tc.name, got, tc.wantBrokers)
		}
		if got := c.stopGrace(c.controllers); len(tc.controllers) > 0 && got != tc.wantCtl {
			t.Errorf("%s: controllers' grace %v, want %v", tc.name, got, tc.wantCtl)
		}
	}
}
