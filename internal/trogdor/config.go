package trogdor

import (
	"encoding/json"
	"fmt"
)

// Loopback is the address every node of a local fleet listens on.
const Loopback = "127.0.0.1"

// CoordinatorName is the coordinator's node name in a local fleet.
const CoordinatorName = "coordinator"

// basicPlatform is Trogdor's platform for plain hosts (processes, shell).
const basicPlatform = "org.apache.kafka.trogdor.basic.BasicPlatform"

// Node is one member of a fleet: a coordinator or an agent.
type Node struct {
	Name string `json:"name"`
	Port int    `json:"port"`
	PID  int    `json:"pid,omitempty"`
	Log  string `json:"log,omitempty"`
}

// AgentName is the node name of the i-th agent (1-based): agent-1, agent-2…
func AgentName(i int) string { return fmt.Sprintf("agent-%d", i) }

// platformConfig is Trogdor's configuration file: its platform class and the nodes, each with its
// host name and the port of its agent or coordinator REST server. Every
// process of the fleet reads the same file.
func platformConfig(coordinator Node, agents []Node) ([]byte, error) {
	nodes := map[string]map[string]any{
		// Agent port 0: without it the coordinator takes its own node for an
		// agent on the default port 8888 and polls it every second.
		coordinator.Name: {"hostname": Loopback, "trogdor.coordinator.port": coordinator.Port, "trogdor.agent.port": 0},
	}
	for _, a := range agents {
		if _, dup := nodes[a.Name]; dup {
			return nil, fmt.Errorf("trogdor config: node name %q used twice", a.Name)
		}
		nodes[a.Name] = map[string]any{"hostname": Loopback, "trogdor.agent.port": a.Port}
	}
	data, err := json.MarshalIndent(map[string]any{"platform": basicPlatform, "nodes": nodes}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode trogdor config: %w", err)
	}
	return append(data, '\n'), nil
}
