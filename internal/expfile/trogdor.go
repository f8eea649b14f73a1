package expfile

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/prodlab/prodlab/internal/secret"
)

// Trogdor is the trogdor section (issue 14): run every trial on the agents
// of a Trogdor fleet instead of a local client. The flags --trogdor,
// --trogdor-nodes and --trogdor-max-producers-per-node set the same keys.
type Trogdor struct {
	// Coordinator is the coordinator's REST address, http://HOST:PORT
	// (trogdor.coordinator); "" runs the trials locally.
	Coordinator string
	// Nodes are the agents the trials run on, comma-separated
	// (trogdor.nodes, a matrix key like any other: 1, 2, 3 agents); ""
	// is every agent that answers.
	Nodes string
	// MaxProducersPerNode, when positive, refuses a scenario that would
	// run more producer instances on one agent
	// (trogdor.max.producers.per.node).
	MaxProducersPerNode int
}

// NodeList is Nodes as a list, nil for every agent.
func (t Trogdor) NodeList() []string {
	if t.Nodes == "" {
		return nil
	}
	return strings.Split(t.Nodes, ",")
}

// Key identifies the fleet and agents a scenario runs on, "" for a local
// client.
func (t Trogdor) Key() string {
	if t.Coordinator == "" {
		return ""
	}
	return t.Coordinator + " " + t.Nodes
}

// trogdorFields are the settings of the trogdor section.
var trogdorFields = []field{
	stringField("trogdor.coordinator", checkCoordinator, func(e *Experiment) *string { return &e.Trogdor.Coordinator }),
	stringField("trogdor.nodes", checkTrogdorNodes, func(e *Experiment) *string { return &e.Trogdor.Nodes }),
	intField("trogdor.max.producers.per.node", 0, MaxProducers, func(e *Experiment) *int { return &e.Trogdor.MaxProducersPerNode }),
}

// checkCoordinator accepts a coordinator's REST address, http(s)://HOST:PORT
// without a path (the REST paths are prodlab's to add), or "" for a local
// client (so that a matrix can set a scenario apart from a fleet).
func checkCoordinator(raw, _ string) (string, error) {
	if raw == "" {
		return "", nil
	}
	if err := CheckCoordinatorURL(raw); err != nil {
		return "", fmt.Errorf("trogdor.coordinator: %w", err)
	}
	return strings.TrimRight(raw, "/"), nil
}

// CheckCoordinatorURL checks a Trogdor coordinator's address.
func CheckCoordinatorURL(raw string) error {
	if err := checkCoordinatorURL(raw); err != nil {
		return errors.New(secret.RedactUserinfo(err.Error()))
	}
	return nil
}

// checkCoordinatorURL is CheckCoordinatorURL before its messages are
// redacted: a URL may carry user:password@.
func checkCoordinatorURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("want http://HOST:PORT (the coordinator's REST address), got %q", raw)
	}
	if u.Hostname() == "" || u.Port() == "" {
		return fmt.Errorf("want http://HOST:PORT with a port, got %q (Trogdor's coordinator listens on 8889 by default)", raw)
	}
	if u.Path != "" && u.Path != "/" || u.RawQuery != "" {
		return fmt.Errorf("want http://HOST:PORT without a path or query, got %q", raw)
	}
	return nil
}

// checkTrogdorNodes accepts comma-separated agent names, each once.
func checkTrogdorNodes(raw, _ string) (string, error) {
	var names []string
	for _, n := range strings.Split(raw, ",") {
		n = strings.TrimSpace(n)
		switch {
		case n == "":
			return "", fmt.Errorf("trogdor.nodes must be agent names separated by commas, got %q (an empty name)", raw)
		case slices.Contains(names, n):
			return "", fmt.Errorf("trogdor.nodes names agent %q twice", n)
		case strings.ContainsAny(n, " \t/"):
			return "", fmt.Errorf("trogdor.nodes: %q is not an agent name", n)
		}
		names = append(names, n)
	}
	return strings.Join(names, ","), nil
}

// checkTrogdor refuses trogdor settings without a coordinator to apply to.
func checkTrogdor(e *Experiment, report reportFunc) {
	t := e.Trogdor
	if t.Coordinator != "" {
		return
	}
	if t.Nodes != "" {
		report([]string{"trogdor.nodes"}, "trogdor.nodes needs trogdor.coordinator (or --trogdor URL)")
	}
	if t.MaxProducersPerNode > 0 {
		report([]string{"trogdor.max.producers.per.node"}, "trogdor.max.producers.per.node needs trogdor.coordinator (or --trogdor URL)")
	}
}

// withTrogdor adds the trogdor section to a YAML document when the
// experiment runs on a fleet, so that files without it keep their form.
func withTrogdor(doc yaml.MapSlice, e *Experiment) yaml.MapSlice {
	t := e.Trogdor
	if t.Coordinator == "" && t.Nodes == "" && t.MaxProducersPerNode == 0 {
		return doc
	}
	sec := yaml.MapSlice{{Key: "coordinator", Value: t.Coordinator}}
	if t.Nodes != "" {
		sec = append(sec, yaml.MapItem{Key: "nodes", Value: t.Nodes})
	}
	if t.MaxProducersPerNode > 0 {
		sec = append(sec, yaml.MapItem{Key: "max.producers.per.node", Value: t.MaxProducersPerNode})
	}
	return append(doc, yaml.MapItem{Key: "trogdor", Value: sec})
}
