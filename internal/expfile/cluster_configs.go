package expfile

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
)

// clusterConfigsPrefix is the canonical prefix of broker properties:
// "cluster.configs.num.network.threads".
const clusterConfigsPrefix = "cluster.configs."

// MaxControllers bounds cluster.controllers: a KRaft quorum of more than
// five voters only slows elections down.
const MaxControllers = 5

// brokerPropRE is the form of a broker property name: dotted lower-case
// words, digits, dashes and underscores ("num.network.threads",
// "listener.name.replication.ssl.keystore.location").
var brokerPropRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*(\.[a-z0-9_-]+)*$`)

// isBrokerProp reports whether name has the form of a broker property. The
// expfile cannot know which names a broker defines: that depends on the
// release (or local build) it will run, and is checked against the
// broker's own ConfigDef before anything starts (lab.Preflight,
// cluster.BrokerConfigDef).
func isBrokerProp(name string) bool {
	return brokerPropRE.MatchString(name)
}

// checkBrokerValue accepts any single-line value: the broker judges its
// type when it starts.
func checkBrokerValue(name, raw string) error {
	if strings.ContainsAny(raw, "\n\r") {
		return fmt.Errorf("cluster.configs.%s must be one line, got %q", name, raw)
	}
	return nil
}

// brokerConfigs reads cluster.configs: a mapping of broker properties to
// values. Names are checked for their form here and against the broker's
// definitions before the run starts.
func (p *fileParser) brokerConfigs(e *Experiment, n ast.Node) {
	entries, ok := p.mapping(n)
	if !ok {
		p.c.add(p.at(n).errorf("cluster.configs must be a mapping of broker property names to values"))
		return
	}
	for _, mv := range entries {
		key, kpos := p.key(mv)
		if !isBrokerProp(key) {
			p.c.add(kpos.errorf("cluster.configs: %q is not a broker property name (dotted lower-case words, like num.network.threads)", key))
			continue
		}
		p.setScalar(e, clusterConfigsPrefix+key, kpos, mv.Value)
	}
}

// BrokerConfigNames returns the broker properties the experiment sets in
// cluster.configs (from the file, --set or its matrix value).
func (e *Experiment) BrokerConfigNames() []string {
	out := make([]string, 0, len(e.Cluster.Configs))
	for k := range e.Cluster.Configs {
		out = append(out, k)
	}
	return out
}

// UnknownBrokerConfig is the error for a broker property that the broker
// of kafka does not define, placed where the property was set, with the
// closest name the broker defines.
func (e *Experiment) UnknownBrokerConfig(name, kafka string, known []string) *Error {
	at, ok := e.pos[clusterConfigsPrefix+name]
	if !ok {
		at = pos{File: e.File}
	}
	broker := "Kafka " + kafka
	if strings.HasPrefix(kafka, "/") {
		broker = "the Kafka build in " + kafka
	}
	return at.errorf("cluster.configs: %s does not define broker property %q%s", broker, name, didYouMean(name, known))
}

// withClusterShape adds cluster.controllers and cluster.configs to the
// cluster mapping of doc when they are set, so that files without them keep
// writing what they wrote before.
func withClusterShape(doc yaml.MapSlice, c Cluster) yaml.MapSlice {
	for i, item := range doc {
		sec, ok := item.Value.(yaml.MapSlice)
		if item.Key != "cluster" || !ok {
			continue
		}
		if c.Controllers > 0 {
			sec = append(sec, yaml.MapItem{Key: "controllers", Value: c.Controllers})
		}
		if c.TransactionVersion > 0 {
			sec = append(sec, yaml.MapItem{Key: "transaction.version", Value: c.TransactionVersion})
		}
		if c.Storage != "" {
			sec = append(sec, yaml.MapItem{Key: "storage", Value: c.Storage})
		}
		if c.CPUs != "" {
			sec = append(sec, yaml.MapItem{Key: "cpus", Value: c.CPUs})
		}
		if len(c.Configs) > 0 {
			sec = append(sec, yaml.MapItem{Key: "configs", Value: configSlice(c.Configs, clusterConfigsPrefix)})
		}
		doc[i].Value = sec
	}
	return doc
}

// Key identifies the cluster a scenario needs: scenarios with equal keys
// share one cluster; any difference in shape, release, security or broker
// settings needs a cluster of its own. Every field counts, so a field
// added later separates clusters without a change here (fmt prints maps
// sorted by key). A default written out and one left unset are the same
// cluster: `cluster.cpus: auto` beside no cluster.cpus must not start two.
func (c Cluster) Key() string {
	for _, d := range []struct {
		field *string
		def   string
	}{
		{&c.Security, SecurityPlaintext}, {&c.Storage, StorageDisk}, {&c.CPUs, CPUsAuto},
	} {
		if *d.field == "" {
			*d.field = d.def
		}
	}
	return fmt.Sprintf("%+v", c)
}

// Extras describes what sets a cluster apart beyond its brokers and
// release, for the dry run: "3 controllers", "num.network.threads=8".
func (c Cluster) Extras() []string {
	var out []string
	if c.Security != "" && c.Security != SecurityPlaintext {
		out = append(out, c.Security)
	}
	if c.HasZones() {
		out = append(out, fmt.Sprintf("%d zones", c.Zones))
	}
	if c.Storage == StorageMemory {
		out = append(out, "storage in memory")
	}
	if c.TransactionVersion > 0 {
		out = append(out, fmt.Sprintf("transaction.version=%d", c.TransactionVersion))
	}
	if c.CPUs == CPUsSplit || c.CPUs == CPUsShared {
		out = append(out, "CPUs "+c.CPUs)
	}
	if c.KIP1269Retain > 0 {
		out = append(out, fmt.Sprintf("kip1269.retain=%d", c.KIP1269Retain))
	}
	if c.Controllers > 0 {
		out = append(out, fmt.Sprintf("%d controller%s", c.Controllers, map[bool]string{true: "s"}[c.Controllers > 1]))
	}
	for _, k := range slices.Sorted(maps.Keys(c.Configs)) {
		out = append(out, k+"="+c.Configs[k])
	}
	return out
}

// setBrokerConfig stores one broker property, making the map on first use
// (experiments without cluster.configs keep a nil map).
func setBrokerConfig(e *Experiment, name, v string) {
	if e.Cluster.Configs == nil {
		e.Cluster.Configs = map[string]string{}
	}
	e.Cluster.Configs[name] = v
}
