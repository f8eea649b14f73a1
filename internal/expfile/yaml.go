package expfile

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/prodlab/prodlab/internal/secret"
)

// YAML writes the fully resolved experiment — every default filled in,
// paths made absolute, --set overrides applied — in the experiment format,
// so that the copy kept in a run directory reproduces the run on its own.
// Parsing the output yields the same experiment.
func (e *Experiment) YAML() ([]byte, error) {
	doc := yaml.MapSlice{
		{Key: "name", Value: e.Name},
		{Key: "description", Value: e.Description},
		{Key: "cluster", Value: yaml.MapSlice{
			{Key: "brokers", Value: e.Cluster.Brokers},
			{Key: "kafka", Value: e.Cluster.Kafka},
		}},
		{Key: "topic", Value: yaml.MapSlice{
			{Key: "partitions", Value: e.Topic.Partitions},
			{Key: "replication.factor", Value: e.Topic.ReplicationFactor},
			{Key: "configs", Value: configSlice(e.Topic.Configs, topicConfigsPrefix)},
		}},
		{Key: "workload", Value: append(yaml.MapSlice{
			{Key: "records", Value: e.Workload.Records},
			{Key: "record.size", Value: e.Workload.RecordSize},
			{Key: "payload", Value: e.Workload.Payload},
			{Key: "rate", Value: number(e.Workload.Rate)},
			{Key: "timeout.s", Value: number(e.Workload.TimeoutS)},
			{Key: "duration.s", Value: number(e.Workload.DurationS)},
			{Key: "warmup.s", Value: number(e.Workload.WarmupS)},
			{Key: "warmup.records", Value: e.Workload.WarmupRecords},
		}, append(keysYAML(e.Workload.Keys), producersYAML(e.Workload)...)...)},
		{Key: "timeline", Value: yaml.MapSlice{
			{Key: "interval.ms", Value: number(e.TimelineIntervalMs)},
		}},
		{Key: "client", Value: e.Client},
		{Key: "producer", Value: configSlice(e.Producer, producerPrefix)},
		{Key: "network", Value: yaml.MapSlice{
			{Key: "rtt.ms", Value: number(e.Network.RTTMs)},
			{Key: "jitter.ms", Value: number(e.Network.JitterMs)},
			{Key: "bandwidth", Value: number(e.Network.BandwidthMbit)},
			{Key: "replication.rtt.ms", Value: number(e.Network.ReplicationRTTMs)},
		}},
		{Key: "faults", Value: faultSlice(e.Faults)},
		{Key: "audit", Value: e.Audit},
		{Key: "expect", Value: expectYAML(e.Expect)},
	}
	doc = withSecurity(doc, e.Cluster.Security)
	doc = withClusterShape(doc, e.Cluster)
	doc = withKIP1269(doc, e)
	doc = withTrogdor(doc, e)
	doc = withZones(doc, e)
	doc = append(doc, e.roundsYAML()...)
	if c := e.capacityYAML(); c != nil {
		doc = append(doc, yaml.MapItem{Key: "capacity", Value: c})
	}
	if a := e.adviseYAML(); a != nil {
		doc = append(doc, yaml.MapItem{Key: "advise", Value: a})
	}
	if cs := e.comparable(); len(cs) > 0 {
		doc = append(doc, yaml.MapItem{Key: "compare", Value: compareSlice(cs)})
	}
	if m := matrixSlice(e.Matrix); len(m) > 0 {
		doc = append(doc, yaml.MapItem{Key: "matrix", Value: m})
	}
	out, err := yaml.MarshalWithOptions(doc, yaml.Indent(2), yaml.IndentSequence(true))
	if err != nil {
		return nil, fmt.Errorf("write experiment %s as YAML: %w", e.Name, err)
	}
	return out, nil
}

// configSlice writes a property map sorted by name, each value typed by
// its Kafka ConfigDef type so that numbers are not quoted.
func configSlice(m map[string]string, prefix string) yaml.MapSlice {
	names := slices.Sorted(maps.Keys(m))
	out := yaml.MapSlice{}
	for _, k := range names {
		v := typedValue(prefix+k, m[k])
		if shown := secret.Shown(k, m[k]); shown != m[k] {
			v = shown // the resolved experiment lands in the run directory
		}
		out = append(out, yaml.MapItem{Key: k, Value: v})
	}
	return out
}

// faultSlice writes the faults, each with the keys its type takes.
func faultSlice(fs []Fault) []yaml.MapSlice {
	out := []yaml.MapSlice{}
	for _, f := range fs {
		out = append(out, faultMapping(f))
	}
	return out
}

// matrixSlice writes the axes. A scalar value whose label is its stored
// value is written as the scalar; otherwise as a map with its label, so
// that scenario IDs survive the round trip.
func matrixSlice(axes []Axis) yaml.MapSlice {
	out := yaml.MapSlice{}
	for _, a := range axes {
		if a.generated {
			continue
		}
		var values []any
		for _, v := range a.Values {
			if len(v.Set) == 1 && !v.HasFaults && a.canonical != "" && v.Set[a.canonical] == v.Label {
				values = append(values, typedValue(a.canonical, v.Label))
				continue
			}
			m := yaml.MapSlice{{Key: labelKey, Value: v.Label}}
			keys := slices.Sorted(maps.Keys(v.Set))
			for _, k := range keys {
				val := typedValue(k, v.Set[k])
				if isSecret(k) {
					val = secret.Hidden // as configSlice hides the base settings' secrets
				}
				m = append(m, yaml.MapItem{Key: k, Value: val})
			}
			if v.HasFaults {
				m = append(m, yaml.MapItem{Key: "faults", Value: faultSlice(v.Faults)})
			}
			values = append(values, m)
		}
		out = append(out, yaml.MapItem{Key: a.Key, Value: values})
	}
	return out
}

// typedValue converts a stored value of a canonical key to the Go type that
// YAML writes naturally: numbers and booleans unquoted, text as text.
func typedValue(canonical, v string) any {
	var t configType
	switch {
	case strings.HasPrefix(canonical, producerPrefix):
		t, _ = producerType(strings.TrimPrefix(canonical, producerPrefix))
	case strings.HasPrefix(canonical, topicConfigsPrefix):
		t = topicConfigs[strings.TrimPrefix(canonical, topicConfigsPrefix)]
	default:
		if f, ok := fieldByKey[canonical]; ok {
			return f.typed(v)
		}
		return v
	}
	switch t {
	case typeInt, typeLong, typeShort:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return n
		}
	case typeDouble:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return number(f)
		}
	case typeBool:
		if b, err := strconv.ParseBool(strings.ToLower(v)); err == nil {
			return b
		}
	}
	return v
}

// number writes an integral float as an integer ("600", not "600.0").
func number(f float64) any {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return int64(f)
	}
	return f
}

// roundsYAML writes the run-level settings; those of trials: auto and
// warmup: auto only when they apply (the parser refuses them otherwise).
func (e *Experiment) roundsYAML() yaml.MapSlice {
	var out yaml.MapSlice
	switch {
	case e.Mode().Searches(): // the search decides its probes, advise its rounds
	case e.TrialsAuto, e.LivesAuto: // lives: auto takes trials: N as rounds per life
		trials := any(e.Trials)
		if e.TrialsAuto {
			trials = autoWord
		}
		out = append(out, yaml.MapItem{Key: "trials", Value: trials},
			yaml.MapItem{Key: "precision", Value: number(e.Precision)},
			yaml.MapItem{Key: "budget", Value: fmtSeconds(e.BudgetS)})
	default:
		out = append(out, yaml.MapItem{Key: "trials", Value: e.Trials})
	}
	out = append(out, yaml.MapItem{Key: "equivalence", Value: number(e.Equivalence)})
	if e.Schedule != "" && e.Schedule != ScheduleSequential { // the default is not written
		out = append(out, yaml.MapItem{Key: "schedule", Value: e.Schedule})
	}
	switch {
	case e.LivesAuto:
		out = append(out, yaml.MapItem{Key: "lives", Value: autoWord})
	case e.Lives > 1:
		out = append(out, yaml.MapItem{Key: "lives", Value: e.Lives})
	}
	if e.WarmupAuto {
		out = append(out, yaml.MapItem{Key: "warmup", Value: autoWord},
			yaml.MapItem{Key: "warmup.max.s", Value: number(e.WarmupMaxS)})
	} else {
		out = append(out, yaml.MapItem{Key: "warmup", Value: e.Warmup})
	}
	return out
}

// comparable is the compare: entries less those along an axis that --set
// narrowed to one value: they compare nothing, and the written copy must
// parse again (an axis of one value is refused there).
func (e *Experiment) comparable() []CompareSpec {
	var out []CompareSpec
	for _, c := range e.Compare {
		i := axisByName(e.Matrix, c.Axis)
		if c.Axis == "" || i < 0 || len(e.Matrix[i].Values) > 1 {
			out = append(out, c)
		}
	}
	return out
}

// compareSlice writes the compare: entries as written.
func compareSlice(cs []CompareSpec) []yaml.MapSlice {
	out := make([]yaml.MapSlice, 0, len(cs))
	for _, c := range cs {
		var m yaml.MapSlice
		metric := c.Metric
		if metric == DefaultCompareMetric {
			metric = ""
		}
		for _, kv := range [][2]string{{"axis", c.Axis}, {"baseline", c.Baseline}, {"candidate", c.Candidate}, {"metric", metric}, {"question", c.Question}, {"published", c.Published}} {
			if kv[1] != "" {
				m = append(m, yaml.MapItem{Key: kv[0], Value: kv[1]})
			}
		}
		out = append(out, m)
	}
	return out
}

// expectYAML is the expect section; aborted.visible, newer than the
// others, only when set.
func expectYAML(x Expect) yaml.MapSlice {
	out := yaml.MapSlice{
		{Key: "lost", Value: x.Lost},
		{Key: "duplicates", Value: x.Duplicates},
		{Key: "reordered", Value: x.Reordered},
		{Key: "phantom", Value: x.Phantom},
	}
	if x.AbortedVisible {
		out = append(out, yaml.MapItem{Key: "aborted.visible", Value: true})
	}
	return out
}
