package expfile

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// mustParse parses src as file x.yaml or fails the test.
func mustParse(t *testing.T, src string, sets ...string) *Experiment {
	t.Helper()
	e, err := Parse("x.yaml", []byte(src), sets)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return e
}

// TestParseFull checks that every field of the format is read.
func TestParseFull(t *testing.T) {
	e, err := Load("testdata/full.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := filepath.Abs("testdata/payload.json")
	want := Experiment{
		Name:        "full",
		Description: "every field",
		Cluster:     Cluster{Brokers: 3, Kafka: "4.1.0", Zones: 1},
		Topic: Topic{Partitions: 6, ReplicationFactor: 3, Configs: map[string]string{
			"min.insync.replicas": "2", "cleanup.policy": "delete,compact"}},
		Workload: Workload{Records: 1_000_000, RecordSize: 512, Payload: "file:" + payload, Rate: 2500.5, TimeoutS: 600, Keys: defaultKeySpace()},
		Client:   "java@3.9.1",
		Producer: map[string]string{"acks": "all", "batch.size": "65536", "enable.idempotence": "true",
			"max.buffered.records": "1000", "transaction.duration.ms": "100", "transactional.id": "full-txn"},
		Network: Network{RTTMs: 20, JitterMs: 2.5, BandwidthMbit: 100, ReplicationRTTMs: 5},
		Faults: []Fault{
			{Type: "broker.kill", Broker: 1, AtMs: 1500, DelayMs: DefaultFaultDelayMs},
			{Type: "connection.cut", Broker: -1, Every: 1000},
		},
		Audit:  true,
		Trials: 5,
		// Run-level defaults (trials: auto's settings) are filled in too.
		Precision: DefaultPrecision, BudgetS: DefaultBudgetS, Equivalence: DefaultEquivalence, WarmupMaxS: DefaultWarmupMaxS,
		Capacity: Capacity{KeepUp: DefaultKeepUp, Precision: DefaultCapacityPrecision, BudgetS: DefaultCapacityBudgetS},
		Warmup:   2,
		File:     "testdata/full.yaml",
	}
	assertExperiment(t, e, &want)
}

// assertExperiment compares the exported fields of two experiments.
func assertExperiment(t *testing.T, got, want *Experiment) {
	t.Helper()
	g, w := exported(got), exported(want)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("experiment mismatch\n got: %+v\nwant: %+v", g, w)
	}
}

// exported strips the unexported bookkeeping (positions, directory).
func exported(e *Experiment) Experiment {
	c := *e
	c.pos, c.dir = nil, ""
	c.conf, c.confSet = kafkaconf.Producer{}, false // Settings, derived from Producer
	c.Faults = nil
	for _, f := range e.Faults {
		f.pos = pos{}
		c.Faults = append(c.Faults, f)
	}
	c.Matrix = nil
	for _, a := range e.Matrix {
		a.pos, a.canonical = pos{}, ""
		var vs []Value
		for _, v := range a.Values {
			vs = append(vs, Value{Label: v.Label, Set: v.Set})
		}
		a.Values = vs
		c.Matrix = append(c.Matrix, a)
	}
	return c
}

// TestDefaults checks that a file with only a name gets every default.
func TestDefaults(t *testing.T) {
	e := mustParse(t, "name: bare\n")
	want := Experiment{
		Name:      "bare",
		Cluster:   Cluster{Brokers: DefaultBrokers, Zones: 1},
		Topic:     Topic{Partitions: DefaultPartitions, ReplicationFactor: DefaultReplicationFactor, Configs: map[string]string{}},
		Workload:  Workload{Records: DefaultRecords, RecordSize: DefaultRecordSize, Payload: DefaultPayload, TimeoutS: DefaultTimeoutS, Keys: defaultKeySpace()},
		Client:    DefaultClient,
		Producer:  map[string]string{},
		Trials:    DefaultTrials,
		Precision: DefaultPrecision, BudgetS: DefaultBudgetS, Equivalence: DefaultEquivalence, WarmupMaxS: DefaultWarmupMaxS,
		Capacity: Capacity{KeepUp: DefaultKeepUp, Precision: DefaultCapacityPrecision, BudgetS: DefaultCapacityBudgetS},
		File:     "x.yaml",
	}
	assertExperiment(t, e, &want)
	ss, err := e.Scenarios()
	if err != nil || len(ss) != 1 || ss[0].ID != BaseScenarioID {
		t.Errorf("Scenarios() = %+v, %v; want one %q scenario", ss, err, BaseScenarioID)
	}
}

// TestCanonical checks key resolution: canonical keys, shorthands and bare
// producer properties.
func TestCanonical(t *testing.T) {
	tests := []struct {
		key, want, err string
	}{
		// A canonical key resolves to itself.
		{key: "workload.records", want: "workload.records"},
		// Section-unique leaves are shorthands.
		{key: "record.size", want: "workload.record.size"},
		{key: "records", want: "workload.records"},
		{key: "rtt.ms", want: "network.rtt.ms"},
		{key: "replication.factor", want: "topic.replication.factor"},
		{key: "partitions", want: "topic.partitions"},
		{key: "brokers", want: "cluster.brokers"},
		{key: "payload", want: "workload.payload"},
		{key: "rate", want: "workload.rate"},
		{key: "bandwidth", want: "network.bandwidth"},
		{key: "jitter.ms", want: "network.jitter.ms"},
		// A bare Java producer property is producer.*.
		{key: "linger.ms", want: "producer.linger.ms"},
		// prodlab's extensions are producer properties too.
		{key: "max.buffered.records", want: "producer.max.buffered.records"},
		// Topic configs need their full prefix.
		{key: "topic.configs.min.insync.replicas", want: "topic.configs.min.insync.replicas"},
		// A typo gets the closest key.
		{key: "linger.mss", err: `unknown key "linger.mss"; did you mean "linger.ms"?`},
		// A typo under a prefix is compared within that prefix.
		{key: "topic.configs.retention.mss", err: `unknown key "topic.configs.retention.mss"; did you mean "topic.configs.retention.ms"?`},
		// Nothing close: no suggestion.
		{key: "zzzzzzzzzzzz", err: `unknown key "zzzzzzzzzzzz"`},
	}
	for _, tt := range tests {
		got, err := Canonical(tt.key)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("Canonical(%q) error = %v, want %q", tt.key, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", tt.key, got, err, tt.want)
		}
	}
}

// TestScenarios checks expansion order, IDs, labels and applied values.
func TestScenarios(t *testing.T) {
	tests := []struct {
		name string
		src  string
		sets []string
		ids  []string
		// check inspects the last scenario.
		check func(t *testing.T, s Scenario)
	}{
		{
			// Cross product in file order, last axis fastest; shorthands
			// and bare producer properties in axis keys.
			name: "scalar axes",
			src:  "name: x\nmatrix:\n  linger.ms: [0, 5]\n  compression.type: [none, zstd]\n",
			ids: []string{"linger.ms=0,compression.type=none", "linger.ms=0,compression.type=zstd",
				"linger.ms=5,compression.type=none", "linger.ms=5,compression.type=zstd"},
			check: func(t *testing.T, s Scenario) {
				if s.Exp.Producer["linger.ms"] != "5" || s.Exp.Producer["compression.type"] != "zstd" || s.Exp.Matrix != nil {
					t.Errorf("scenario exp = %+v", s.Exp)
				}
				if !reflect.DeepEqual(s.Keys, []string{"linger.ms", "compression.type"}) ||
					!reflect.DeepEqual(s.Values, map[string]string{"linger.ms": "5", "compression.type": "zstd"}) {
					t.Errorf("keys/values = %v %v", s.Keys, s.Values)
				}
			},
		},
		{
			// Map values set several keys together; an explicit label names
			// the value, else one is built from the short keys.
			name: "map values",
			src: "name: x\nmatrix:\n  layout:\n    - {label: one broker, cluster.brokers: 1, topic.replication.factor: 1}\n" +
				"    - {brokers: 3, replication.factor: 3}\n",
			ids: []string{"layout=one broker", "layout=brokers=3,replication.factor=3"},
			check: func(t *testing.T, s Scenario) {
				if s.Exp.Cluster.Brokers != 3 || s.Exp.Topic.ReplicationFactor != 3 {
					t.Errorf("scenario exp = %+v", s.Exp)
				}
			},
		},
		{
			// "in-flight 10 with idempotence off": a map value on a known
			// axis key carries a companion setting.
			name: "map value on a key axis",
			src: "name: x\nproducer: {acks: all}\nmatrix:\n  max.in.flight.requests.per.connection:\n    - 5\n" +
				"    - {label: 10 no idempotence, max.in.flight.requests.per.connection: 10, enable.idempotence: false}\n",
			ids: []string{"max.in.flight.requests.per.connection=5", "max.in.flight.requests.per.connection=10 no idempotence"},
			check: func(t *testing.T, s Scenario) {
				if s.Exp.Producer["enable.idempotence"] != "false" || s.Exp.Producer["max.in.flight.requests.per.connection"] != "10" {
					t.Errorf("scenario producer = %v", s.Exp.Producer)
				}
			},
		},
		{
			// --set of an axis key narrows the axis to that value.
			name: "set replaces an axis",
			src:  "name: x\nmatrix:\n  linger.ms: [0, 5]\n  compression.type: [none, zstd]\n",
			sets: []string{"producer.linger.ms=50"},
			ids:  []string{"linger.ms=50,compression.type=none", "linger.ms=50,compression.type=zstd"},
			check: func(t *testing.T, s Scenario) {
				if s.Exp.Producer["linger.ms"] != "50" {
					t.Errorf("linger.ms = %q", s.Exp.Producer["linger.ms"])
				}
			},
		},
		{
			// --set of a free-form axis selects a value by label.
			name: "set selects a labelled value",
			src:  "name: x\nmatrix:\n  layout:\n    - {label: one, brokers: 1}\n    - {label: three, brokers: 3}\n",
			sets: []string{"layout=three"},
			ids:  []string{"layout=three"},
			check: func(t *testing.T, s Scenario) {
				if s.Exp.Cluster.Brokers != 3 {
					t.Errorf("brokers = %d", s.Exp.Cluster.Brokers)
				}
			},
		},
		{
			// --set of ordinary keys, including topic configs, overrides the file.
			name: "set overrides base",
			src:  "name: x\nworkload: {records: 5}\nproducer: {linger.ms: 1}\n",
			sets: []string{"workload.records=10000", "linger.ms=5", "topic.configs.min.insync.replicas=1", "audit=true"},
			ids:  []string{BaseScenarioID},
			check: func(t *testing.T, s Scenario) {
				e := s.Exp
				if e.Workload.Records != 10000 || e.Producer["linger.ms"] != "5" || e.Topic.Configs["min.insync.replicas"] != "1" || !e.Audit {
					t.Errorf("exp = %+v", e)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustParse(t, tt.src, tt.sets...)
			ss, err := e.Scenarios()
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for i, s := range ss {
				if s.Index != i {
					t.Errorf("scenario %d has Index %d", i, s.Index)
				}
				ids = append(ids, s.ID)
			}
			if !reflect.DeepEqual(ids, tt.ids) {
				t.Errorf("IDs = %q, want %q", ids, tt.ids)
			}
			tt.check(t, ss[len(ss)-1])
		})
	}
}

// TestScenariosIndependent checks that scenarios do not share maps.
func TestScenariosIndependent(t *testing.T) {
	e := mustParse(t, "name: x\nmatrix:\n  linger.ms: [0, 5]\n")
	ss, err := e.Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	ss[0].Exp.Producer["acks"] = "0"
	if _, ok := ss[1].Exp.Producer["acks"]; ok {
		t.Error("scenarios share their producer map")
	}
	if _, ok := e.Producer["linger.ms"]; ok {
		t.Error("expansion changed the base experiment")
	}
}

// TestValidation checks every validation rule: the exact messages, with
// file:line:col and suggestions, all collected in one pass.
func TestValidation(t *testing.T) {
	tests := []struct {
		name string
		src  string
		sets []string
		want []string
	}{
		// YAML syntax errors carry the parser's position.
		{name: "syntax", src: "name: x\ncluster: {brokers: 1\n",
			want: []string{"x.yaml:2:10: YAML: could not find flow mapping end token '}'"}},
		// Duplicate keys are YAML errors, at the repeated key.
		{name: "duplicate key", src: "name: x\nname: y\n",
			want: []string{`x.yaml:2:1: YAML: mapping key "name" already defined at [1:1]`}},
		// A name is required.
		{name: "no name", src: "trials: 1\n", want: []string{`x.yaml: missing required key "name"`}},
		// Unknown keys everywhere, each with the closest valid key.
		{name: "unknown keys", src: "name: x\nprodcer: {}\ncluster: {brokerz: 1}\ntopic: {partitons: 1, configs: {min.insync.replica: 1}}\n" +
			"workload: {record.sise: 1}\nnetwork: {rtt: 1}\nproducer: {linger.mss: 5}\nmatrix:\n  lingr.ms: [1]\n" +
			"  layout:\n    - {brokrs: 1}\n",
			want: []string{
				`x.yaml:2:1: unknown key "prodcer"; did you mean "producer"?`,
				`x.yaml:3:11: unknown key "brokerz" in cluster; did you mean "brokers"?`,
				`x.yaml:4:9: unknown key "partitons" in topic; did you mean "partitions"?`,
				`x.yaml:4:33: unknown key "min.insync.replica" in topic.configs; did you mean "min.insync.replicas"?`,
				`x.yaml:5:12: unknown key "record.sise" in workload; did you mean "record.size"?`,
				`x.yaml:6:11: unknown key "rtt" in network; did you mean "rtt.ms"?`,
				`x.yaml:7:12: unknown key "linger.mss" in producer; did you mean "linger.ms"?`,
				`x.yaml:9:3: unknown key "lingr.ms" in matrix; did you mean "linger.ms"?`,
				`x.yaml:11:8: unknown key "brokrs" in matrix value; did you mean "brokers"?`,
			}},
		// A librdkafka alias the file's type check reads as text is refused
		// by the typed view at its own key, not at the file.
		{name: "alias value", src: "name: x\nclient: librdkafka\nproducer:\n  max.in.flight: many\n",
			want: []string{`x.yaml:4:3: producer: max.in.flight.requests.per.connection must be a positive integer, got "many"`}},
		// Types and ranges, with the valid range in the message.
		{name: "ranges", src: "name: x\ncluster: {brokers: 10}\ntopic: {partitions: 0, replication.factor: 0}\n" +
			"workload: {records: 0, record.size: 16777217, rate: -1, timeout.s: 0}\n" +
			"network: {rtt.ms: 10001, jitter.ms: -1, bandwidth: -5, replication.rtt.ms: x}\n" +
			"trials: 0\nwarmup: -1\naudit: maybe\n",
			want: []string{
				`x.yaml:2:20: cluster.brokers must be an integer in 1..9, got "10"`,
				`x.yaml:3:21: topic.partitions must be an integer ≥ 1, got "0"`,
				`x.yaml:3:44: topic.replication.factor must be an integer ≥ 1, got "0"`,
				`x.yaml:4:21: workload.records must be an integer in 1..1000000000, got "0"`,
				`x.yaml:4:37: workload.record.size must be an integer in 1..16777216, got "16777217"`,
				`x.yaml:4:53: workload.rate must be 0 (as fast as possible) or a number of records/s in 1..100000000, got "-1"`,
				`x.yaml:4:68: workload.timeout.s must be a number in 1..604800, got "0"`,
				`x.yaml:5:19: network.rtt.ms must be 0 (none) or a number of milliseconds in 0.001..10000, got "10001"`,
				`x.yaml:5:37: network.jitter.ms must be 0 (none) or a number of milliseconds in 0.001..10000, got "-1"`,
				`x.yaml:5:52: network.bandwidth must be 0 (unlimited) or a number of Mbit/s in 0.001..1000000, got "-5"`,
				`x.yaml:5:76: network.replication.rtt.ms must be 0 (none) or a number of milliseconds in 0.001..10000, got "x"`,
				`x.yaml:6:9: trials must be an integer in 1..1000 or auto, got "0"`,
				`x.yaml:7:9: warmup must be an integer in 0..1000 rounds or auto, got "-1"`,
				`x.yaml:8:8: audit must be true or false, got "maybe"`,
			}},
		// Producer values: enums, integers, booleans.
		{name: "producer values", src: "name: x\nproducer:\n  acks: 2\n  linger.ms: 5ms\n  batch.size: 1.5\n" +
			"  compression.type: brotli\n  enable.idempotence: yes\n  max.in.flight.requests.per.connection: 0\n  max.buffered.records: x\n",
			want: []string{
				`x.yaml:3:9: acks must be one of 0, 1, -1, all, got "2"`,
				`x.yaml:4:14: linger.ms must be an integer ≥ 0, got "5ms"`,
				`x.yaml:5:15: batch.size must be an integer ≥ 0, got "1.5"`,
				`x.yaml:6:21: compression.type must be one of none, gzip, snappy, lz4, zstd, got "brotli"`,
				`x.yaml:7:23: enable.idempotence must be true or false, got "yes"`,
				`x.yaml:8:42: max.in.flight.requests.per.connection must be an integer ≥ 1, got "0"`,
				`x.yaml:9:25: max.buffered.records must be an integer ≥ 1, got "x"`,
			}},
		// Payload kinds and file existence; client names; Kafka versions.
		{name: "payload client kafka", src: "name: x\nworkload: {payload: xml}\nclient: java@latest\ncluster: {kafka: ./no-such-dir}\n",
			want: []string{
				`x.yaml:2:21: workload.payload must be one of json, random, text or file:PATH, got "xml"`,
				`x.yaml:3:9: client must be franz-go, java, java@<version>, librdkafka or librdkafka@2.11.1 (like java@3.9.1), got "java@latest"`,
				`x.yaml:4:18: cluster.kafka must be a Kafka release version (like 4.1.0) or an existing distribution directory, got "./no-such-dir"`,
			}},
		// A payload file must exist, relative to the experiment file.
		{name: "payload file", src: "name: x\nworkload: {payload: file:missing.json}\n",
			want: []string{`x.yaml:2:21: workload.payload file "missing.json" does not exist (relative paths start from the experiment file's directory)`}},
		// Faults: known type with suggestion, known keys, numeric values.
		{name: "faults", src: "name: x\nfaults:\n  - {type: broker.kil}\n  - {type: broker.pause, broker: x, evry: 3}\n  - {at.ms: 5}\n",
			want: []string{
				`x.yaml:3:12: fault type must be one of connection.cut, broker.kill, broker.pause, leader.shutdown, zone.isolate, producer.fence, got "broker.kil"; did you mean "broker.kill"?`,
				`x.yaml:4:34: fault broker must be an integer ≥ 0, got "x"`,
				`x.yaml:4:37: unknown key "evry" in fault; did you mean "every"?`,
				`x.yaml:5:5: fault has no type (one of connection.cut, broker.kill, broker.pause, leader.shutdown, zone.isolate, producer.fence)`,
			}},
		// Each fault type takes its own keys: another type's key is refused
		// at the key, wherever the type stands in the entry; a cut is
		// periodic or once, not both.
		{name: "fault keys by type", src: "name: x\nfaults:\n  - {type: broker.kill, every: 5}\n  - {delay.ms: 50, type: connection.cut}\n  - {type: connection.cut, every: 5, at.ms: 100}\n",
			want: []string{
				`x.yaml:3:25: fault broker.kill does not take every; it takes broker, at.ms, delay.ms`,
				`x.yaml:4:6: fault connection.cut does not take delay.ms; it takes every, at.ms`,
				`x.yaml:5:5: fault connection.cut takes every or at.ms, not both`,
			}},
		// A fault on a broker that does not exist.
		{name: "fault broker", src: "name: x\ncluster: {brokers: 2}\nfaults:\n  - {type: broker.kill, broker: 3}\n",
			want: []string{`x.yaml:4:5: fault broker 3 does not exist (broker ids are 1..2)`}},
		// Matrix: empty axis, non-list axis, duplicate values, duplicate settings.
		{name: "matrix shape", src: "name: x\nmatrix:\n  linger.ms: []\n  acks: all\n  batch.size: [1, 2, 1]\n  rtt.ms: [5, 5.0]\n",
			want: []string{
				`x.yaml:3:3: matrix axis "linger.ms" has no values`,
				`x.yaml:4:9: matrix axis "acks" must be a list of values`,
				`x.yaml:5:22: duplicate value "1" in matrix axis "batch.size"`,
				`x.yaml:6:15: value "5.0" of matrix axis "rtt.ms" repeats the settings of another value (network.rtt.ms=5)`,
			}},
		// Matrix: a key that is an axis and inside another axis's map value;
		// two axes for the same key.
		{name: "matrix overlap", src: "name: x\nmatrix:\n  brokers: [1, 3]\n  layout:\n    - {cluster.brokers: 3, partitions: 3}\n" +
			"  cluster.brokers: [2]\n",
			want: []string{
				`x.yaml:5:8: key "cluster.brokers" is matrix axis "brokers" and is also set inside a value of axis "layout"`,
				`x.yaml:6:3: matrix axes "brokers" and "cluster.brokers" both vary "cluster.brokers"`,
			}},
		// Matrix values are checked like any other value, at their position.
		{name: "matrix values", src: "name: x\nmatrix:\n  compression.type: [none, lz5]\n  layout:\n    - {label: a, brokers: 10}\n",
			want: []string{
				`x.yaml:3:28: compression.type must be one of none, gzip, snappy, lz4, zstd, got "lz5"`,
				`x.yaml:5:27: cluster.brokers must be an integer in 1..9, got "10"`,
			}},
		// Contradictions in the base settings are reported once, at the key.
		{name: "base contradictions", src: "name: x\nclient: franz-go\ncluster: {brokers: 1}\ntopic: {replication.factor: 2, configs: {min.insync.replicas: 3}}\n" +
			"producer: {enable.idempotence: true, acks: 1, max.in.flight.requests.per.connection: 6}\n",
			want: []string{
				`x.yaml:5:38: enable.idempotence=true requires acks=all (or -1), got acks=1`,
				`x.yaml:5:47: enable.idempotence=true requires max.in.flight.requests.per.connection ≤ 5, got 6`,
				`x.yaml:4:9: replication.factor 2 exceeds brokers 1 (must be in 1..brokers)`,
				`x.yaml:4:42: min.insync.replicas 3 exceeds replication.factor 2`,
			}},
		// Contradictions that depend on the matrix name the scenario and point
		// at the matrix value.
		{name: "scenario contradictions", src: "name: x\nclient: franz-go\ncluster: {brokers: 3}\ntopic: {replication.factor: 3}\n" +
			"producer: {transactional.id: t, enable.idempotence: true}\nmatrix:\n  brokers: [1, 3]\n  enable.idempotence: [true, false]\n",
			want: []string{
				`x.yaml:7:13: scenario "brokers=1,enable.idempotence=true": replication.factor 3 exceeds brokers 1 (must be in 1..brokers)`,
				`x.yaml:8:30: scenario "brokers=1,enable.idempotence=false": transactional.id requires idempotence, but enable.idempotence=false`,
				`x.yaml:7:13: scenario "brokers=1,enable.idempotence=false": replication.factor 3 exceeds brokers 1 (must be in 1..brokers)`,
				`x.yaml:8:30: scenario "brokers=3,enable.idempotence=false": transactional.id requires idempotence, but enable.idempotence=false`,
			}},
		// The transaction settings: out of range, or without a
		// transactional.id (pointing at the setting).
		{name: "transaction settings", src: "name: x\nproducer: {transactional.id: t, transaction.abort.ratio: 1.5, transaction.records: 0}\n",
			want: []string{
				`x.yaml:2:63: producer: transaction.records must be a positive integer of at most 1000000000, got "0"`,
				`x.yaml:2:33: producer: transaction.abort.ratio must be a share of transactions between 0 and 1, got "1.5"`,
			}},
		{name: "transaction.version before Kafka 4.0", src: "name: x\ncluster: {kafka: 3.9.1, transaction.version: 1}\n",
			want: []string{
				`x.yaml:2:25: cluster.transaction.version needs Kafka 4.0 or later (the transaction.version feature, KIP-890); cluster.kafka is 3.9.1`,
			}},
		{name: "aborted.visible without a transactional producer", src: "name: x\naudit: true\nexpect: {aborted.visible: true}\n",
			want: []string{
				`x.yaml:3:10: expect.aborted.visible applies to a transactional producer's audit, and without producer.transactional.id it would be ignored (set one, or drop it)`,
			}},
		{name: "fence without a transactional producer", src: "name: x\nfaults: [{type: producer.fence, at.ms: 500}]\n",
			want: []string{
				`x.yaml:2:10: fault producer.fence fences a transactional producer: set producer.transactional.id`,
			}},
		{name: "fence without at.ms", src: "name: x\nproducer: {transactional.id: t}\nfaults: [{type: producer.fence}]\n",
			want: []string{
				`x.yaml:3:10: fault producer.fence needs at.ms of 1 or more: when the second producer fences the first`,
			}},
		{name: "fence at a vanishing at.ms", src: "name: x\nproducer: {transactional.id: t}\nfaults: [{type: producer.fence, at.ms: 1e-300}]\n",
			want: []string{
				`x.yaml:3:10: fault producer.fence needs at.ms of 1 or more: when the second producer fences the first`,
			}},
		// The first fence ends the producer: a fault due after it never fires.
		{name: "faults after the fence", src: "name: x\ncluster: {brokers: 3}\nproducer: {transactional.id: t}\n" +
			"faults: [{type: producer.fence, at.ms: 3000}, {type: producer.fence, at.ms: 1000}, {type: broker.kill, broker: 2, at.ms: 500}]\n",
			want: []string{
				`x.yaml:4:10: fault producer.fence at at.ms 3000 comes at or after the producer.fence at at.ms 1000, which ends the trial's producer: it would never fire`,
			}},
		{name: "transaction settings without an id", src: "name: x\nproducer: {acks: all, transaction.abort.ratio: 0.2}\n",
			want: []string{
				`x.yaml:2:23: transaction.abort.ratio applies to a transactional producer: set transactional.id (or remove transaction.abort.ratio)`,
			}},
		// --set: syntax, unknown keys, bad values, keys owned by a map axis,
		// unknown labels.
		{name: "set", src: "name: x\nmatrix:\n  layout:\n    - {label: one, brokers: 1}\n",
			sets: []string{"linger.ms", "=5", "linger.mss=5", "linger.ms=x", "brokers=2", "layout=tree"},
			want: []string{
				`--set linger.ms: expected key=value`,
				`--set =5: expected key=value`,
				`--set linger.mss=5: unknown key "linger.mss"; did you mean "linger.ms"?`,
				`--set linger.ms=x: linger.ms must be an integer ≥ 0, got "x"`,
				`--set brokers=2: "cluster.brokers" is set by values of matrix axis "layout"; choose one with --set layout=LABEL`,
				`--set layout=tree: matrix axis "layout" has no value labelled "tree"`,
			}},
		// A contradiction introduced by --set points at the --set.
		{name: "set contradiction", src: "name: x\nclient: franz-go\nproducer: {enable.idempotence: true}\n", sets: []string{"acks=1"},
			want: []string{`--set acks=1: enable.idempotence=true requires acks=all (or -1), got acks=1`}},
		// Top-level shapes: a section that is not a mapping, a list where a
		// value belongs.
		// A misspelled secret key holds a secret as much as the key does:
		// its value is hidden in the message.
		{name: "misspelled secret", src: "name: x\n", sets: []string{"ssl.keystore.pasword=hunter22"},
			want: []string{`--set ssl.keystore.pasword=[hidden]: unknown key "ssl.keystore.pasword"; did you mean "ssl.keystore.password"?`}},
		{name: "shapes", src: "name: x\ncluster: 3\nproducer: {acks: [all]}\n",
			want: []string{
				`x.yaml:2:10: cluster must be a mapping`,
				`x.yaml:3:18: producer.acks must be a single value, not a mapping or list`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("x.yaml", []byte(tt.src), tt.sets)
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("Parse error = %v (%T), want Errors", err, err)
			}
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			var one *Error
			if !errors.As(err, &one) {
				t.Errorf("errors.As(*Error) failed")
			}
		})
	}
}

// TestErrorFormat checks the text form of an Error with and without a
// position.
func TestErrorFormat(t *testing.T) {
	tests := []struct {
		err  Error
		want string
	}{
		// Full position.
		{Error{File: "a.yaml", Line: 3, Col: 7, Msg: "m"}, "a.yaml:3:7: m"},
		// No position: a --set argument or a whole-file problem.
		{Error{File: "--set linger.ms=x", Msg: "m"}, "--set linger.ms=x: m"},
		// Line only.
		{Error{File: "a.yaml", Line: 3, Msg: "m"}, "a.yaml:3: m"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
	es := Errors{{File: "a", Msg: "x"}, {File: "b", Msg: "y"}}
	if es.Error() != "a: x\nb: y" {
		t.Errorf("Errors.Error() = %q", es.Error())
	}
}

// TestLoad checks loading by path, by built-in name, and a missing one.
func TestLoad(t *testing.T) {
	if _, err := Load("batching", nil); err != nil {
		t.Errorf("Load(batching): %v", err)
	}
	if _, err := Load("batching.yaml", []string{"records=10"}); err != nil {
		t.Errorf("Load(batching.yaml): %v", err)
	}
	_, err := Load("batchin", nil)
	if err == nil || !strings.Contains(err.Error(), `did you mean "batching"?`) {
		t.Errorf("Load(batchin) error = %v", err)
	}
	if _, err := Load("testdata/nope.yaml", nil); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load(missing path) error = %v", err)
	}
}

// TestKafkaDir checks that cluster.kafka accepts an existing distribution
// directory and makes it absolute, as well as a release version.
func TestKafkaDir(t *testing.T) {
	abs, _ := filepath.Abs("testdata")
	tests := []struct {
		set, want string
	}{
		// A directory relative to the working directory (--set).
		{set: "cluster.kafka=testdata", want: abs},
		// A release version is kept as written.
		{set: "cluster.kafka=4.1.0", want: "4.1.0"},
		// Empty means the pinned default.
		{set: "cluster.kafka=", want: ""},
	}
	for _, tt := range tests {
		e := mustParse(t, "name: x\n", tt.set)
		if e.Cluster.Kafka != tt.want {
			t.Errorf("--set %s: Kafka = %q, want %q", tt.set, e.Cluster.Kafka, tt.want)
		}
	}
}

// TestJavaJudgesIdempotence: the Java client applies idempotence rules
// itself (they differ by version), so prodlab does not reject them up front;
// the same settings with franz-go are rejected.
func TestJavaJudgesIdempotence(t *testing.T) {
	src := "name: x\nproducer: {enable.idempotence: true, acks: 1, max.in.flight.requests.per.connection: 6}\n"
	if _, err := Parse("x.yaml", []byte("client: java@3.9.1\n"+src), nil); err != nil {
		t.Errorf("java: %v, want no error", err)
	}
	if _, err := Parse("x.yaml", []byte("client: franz-go\n"+src), nil); err == nil {
		t.Error("franz-go: no error, want the contradiction rejected")
	}
}

// TestFaultsAsMatrixValues: a map value's faults list replaces the
// experiment's faults in its scenarios, labels and YAML() keep it, and two
// axes may not both set faults.
func TestFaultsAsMatrixValues(t *testing.T) {
	src := `name: x
cluster: {brokers: 3}
faults: [{type: connection.cut, every: 9}]
matrix:
  fault:
    - {label: none, faults: []}
    - {faults: [{type: broker.kill, broker: 2, at.ms: 1500, delay.ms: 3000}]}
`
	e, err := Parse("x.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	scs, err := e.Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	if len(scs) != 2 || len(scs[0].Exp.Faults) != 0 || len(scs[1].Exp.Faults) != 1 {
		t.Fatalf("scenarios %+v", scs)
	}
	if f := scs[1].Exp.Faults[0]; f.Type != "broker.kill" || f.Broker != 2 || f.AtMs != 1500 || f.DelayMs != 3000 {
		t.Errorf("fault %+v", f)
	}
	if scs[1].ID != "fault=faults=broker.kill(2)@1500ms" {
		t.Errorf("ID = %q", scs[1].ID)
	}
	y, err := e.YAML()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("y.yaml", y, nil)
	if err != nil {
		t.Fatalf("YAML() does not parse back: %v\n%s", err, y)
	}
	bs, _ := back.Scenarios()
	if len(bs) != 2 || len(bs[1].Exp.Faults) != 1 || bs[1].ID != scs[1].ID {
		t.Errorf("round trip lost the faults:\n%s", y)
	}
	// A fault on a broker the scenario's cluster lacks names the scenario.
	_, err = Parse("x.yaml", []byte("name: x\nmatrix:\n  fault:\n    - {label: k, faults: [{type: broker.kill, broker: 3}]}\n"), nil)
	if err == nil || !strings.Contains(err.Error(), `scenario "fault=k": fault broker 3 does not exist`) {
		t.Errorf("err = %v, want the missing broker named with the scenario", err)
	}
	// Two axes setting faults.
	_, err = Parse("x.yaml", []byte("name: x\nmatrix:\n  a:\n    - {faults: []}\n  b:\n    - {faults: []}\n"), nil)
	if err == nil || !strings.Contains(err.Error(), `"faults" is set inside values of both matrix axes`) {
		t.Errorf("err = %v, want the overlap reported", err)
	}
}
