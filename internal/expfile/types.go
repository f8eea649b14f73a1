package expfile

import (
	"maps"
	"slices"

	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/keys"
)

// Experiment is one experiment file, parsed, defaulted and validated.
//
// Every setting has a canonical dotted key (see Keys); the fields below are
// the typed form of those keys. Producer and topic settings keep Kafka's
// property names and their values as strings, exactly as a Java client would
// receive them.
type Experiment struct {
	Name        string
	Description string
	Cluster     Cluster
	Topic       Topic
	Workload    Workload
	// Client is "franz-go", "java" or "java@<kafka-clients version>".
	Client string
	// ClientZone is the zone the client runs in (client.zone; "" is the
	// first zone): brokers of other zones are network.zones further away.
	ClientZone string
	// KIP1269LiftClientCap (kip1269.lift.client.cap) runs the Java worker
	// with prodlab's agent lifting the producer's "idempotence needs at
	// most 5 requests in flight" check, and nothing else.
	KIP1269LiftClientCap bool
	// Trogdor, when its coordinator is set, runs the trials on a Trogdor
	// fleet's agents (trogdor.go).
	Trogdor Trogdor
	// Producer maps producer property names (the Java client's,
	// librdkafka's, and prodlab's extensions, see MaxBufferedRecords) to
	// their values, as written; Settings is their typed view.
	Producer map[string]string
	// Notes are lines for the user about how the file was read, such as
	// settings a --set made moot and dropped; the run prints them first.
	Notes []string
	// conf is Producer parsed once (parseConf): when the file is read and
	// again for each scenario, after its matrix values; confSet says it was.
	conf    kafkaconf.Producer
	confSet bool
	Network Network
	Faults  []Fault
	// Audit turns on read-back verification of every trial.
	Audit bool
	// Expect names the delivery violations the experiment expects (an
	// acks=1 study expects loss): the audit still counts them, but they do
	// not make the trial violated.
	Expect Expect
	// Trials is the number of measured trials per scenario; Warmup the
	// number of unmeasured trials run first.
	Trials, Warmup int
	// TrialsAuto (trials: auto) adds rounds until every planned comparison
	// reaches Precision, within BudgetS seconds of measuring; Equivalence
	// is the margin of the equivalence verdict.
	TrialsAuto                      bool
	Precision, BudgetS, Equivalence float64
	// WarmupAuto (warmup: auto) warms the cluster and clients until the
	// throughput timeline is flat, for at most WarmupMaxS seconds.
	WarmupAuto bool
	WarmupMaxS float64
	// TimelineIntervalMs is timeline.interval.ms; 0 chooses automatically
	// (see TimelineInterval).
	TimelineIntervalMs float64
	// Compare holds the planned comparisons as written; Comparisons
	// expands them against the scenarios.
	Compare []CompareSpec
	// Matrix holds the axes in file order; nil for a single scenario.
	Matrix []Axis
	// Capacity is the capacity: section: a search of each scenario's
	// sustainable rate instead of rounds (capacity.go).
	Capacity Capacity
	// Advise is the advise: section: candidate producer settings searched
	// for the highest sustainable rate (advise.go); it sets Capacity too.
	Advise Advise
	// Lives is how many times each cluster is started for the run (lives:
	// N): every life starts new broker and client processes, warms up and
	// runs its rounds, so that the answers sample what varies from one
	// start to the next (lives.go). 0 (unset) is one life: ClusterLives.
	// LivesAuto (lives: auto) adds lives until the answers over them are
	// precise, within the budget.
	Lives     int
	LivesAuto bool
	// Schedule is how each round puts the scenarios on the machine:
	// ScheduleSequential ("" too) or ScheduleDuet (duet.go).
	Schedule string
	// File names the source in messages: a path, or a built-in name.
	File string

	// dir resolves relative paths (payload files, Kafka distributions).
	dir string
	// pos records where each canonical key was set, to point errors at it.
	pos map[string]pos
}

// Expect lists the audit findings an experiment expects. A finding not
// expected marks its trial violated (exit code 3).
type Expect struct {
	Lost, Duplicates, Reordered, Phantom bool
	// AbortedVisible: records of aborted transactions seen by a
	// read_committed consumer (expect.aborted.visible).
	AbortedVisible bool
}

// Cluster describes the Kafka cluster to start.
type Cluster struct {
	// Brokers is the number of brokers, 1..MaxBrokers.
	Brokers int
	// Kafka is a Kafka release version ("4.1.0") or the absolute path of a
	// local Kafka distribution; "" means the pinned default release.
	Kafka string
	// Controllers, when positive, is the number of separate KRaft
	// controller nodes; 0 makes every broker a combined broker+controller.
	Controllers int
	// Configs maps broker properties to values (cluster.configs), checked
	// against the broker's own ConfigDef before the run starts.
	Configs map[string]string
	// Security is how clients reach the client listener: one of
	// SecurityModes (plaintext, the default; ssl; sasl_plaintext;
	// sasl_ssl, both SASL modes with SCRAM-SHA-512).
	Security string
	// KIP1269Retain, when positive, is the batches of sequence metadata
	// every broker retains per producer and partition (kip1269.retain),
	// set by prodlab's agent on stock releases; 0 leaves brokers unpatched.
	// It is a cluster setting so that scenarios differing in it get their
	// own clusters (Key).
	KIP1269Retain int
	// Storage is where brokers keep their logs: StorageDisk ("" too), under
	// the run directory, or StorageMemory, on a tmpfs the run removes
	// (cluster.storage).
	Storage string
	// CPUs is CPUsAuto ("" too), split where prodlab can; CPUsShared, the
	// brokers and the client on every CPU; or CPUsSplit, on disjoint
	// halves (cluster.cpus).
	CPUs string
	// Zones is the number of availability zones (cluster.zones, 1 to
	// MaxZones) the nodes spread over, named ZoneNames.
	Zones int
	// TransactionVersion is the transaction.version feature the storage
	// is formatted with (cluster.transaction.version, 1 or 2); 0 leaves
	// the release's default (2 since Kafka 4.0).
	TransactionVersion int
}

// Topic describes the topic created fresh for every trial.
type Topic struct {
	Partitions        int
	ReplicationFactor int
	// Configs maps Kafka topic config names to values.
	Configs map[string]string
	// LeaderZone, on a cluster in zones, places every partition's
	// preferred leader in that zone and its other replicas in the others
	// (topic.leader.zone); "" leaves placement to Kafka.
	LeaderZone string
}

// Workload describes the records a trial sends.
type Workload struct {
	// Records is the number of records per trial.
	Records int64
	// RecordSize is the value size in bytes.
	RecordSize int
	// Payload is "json", "random", "text" or "file:PATH" (PATH absolute
	// once parsed).
	Payload string
	// Rate is the target send rate in records/s; 0 means unthrottled.
	Rate float64
	// TimeoutS bounds one trial, in seconds.
	TimeoutS float64
	// DurationS, when positive, makes steady-state trials: produce for this
	// long (or Records records when workload.records is set, whichever
	// comes first). Zero keeps bursts of Records records.
	DurationS float64
	// WarmupS and WarmupRecords are produced at the start of each trial
	// through the same producer and excluded from every figure.
	WarmupS       float64
	WarmupRecords int64
	// Keys is the key space of the records (workload.keys); keyless by
	// default.
	Keys keys.Space
	// Producers is the number of producer instances sharing the records
	// and the rate (workload.producers, 1..MaxProducers; 0, the default,
	// is one). Consumer reads the topic while it is written, for
	// end-to-end latency (workload.consumer).
	Producers int
	Consumer  bool
	// IsolationLevel is the end-to-end consumer's isolation.level:
	// read_uncommitted ("" reads as it, Kafka's default) or
	// ReadCommitted (workload.isolation.level).
	IsolationLevel string
}

// Network describes the impairments the proxies in front of the brokers add.
type Network struct {
	// RTTMs is the added client↔broker round-trip time and JitterMs its
	// random variation, in milliseconds.
	RTTMs, JitterMs float64
	// BandwidthMbit limits each direction, in Mbit/s; 0 means unlimited.
	BandwidthMbit float64
	// ReplicationRTTMs is the added broker↔broker round-trip time.
	ReplicationRTTMs float64
	// Zones is the link between availability zones (network.zones): added
	// to every path that crosses zones, broker↔broker and client↔broker.
	Zones ZoneLink
	// CutEvery makes the proxies cut the client's connection after
	// forwarding every CutEvery-th produce request, swallowing the broker's
	// reply; 0 means never. It is the connection.cut fault as a scalar, so
	// that it can be a matrix value.
	CutEvery int
	// Proxy puts the netem proxies in front of the brokers even without
	// impairments, to see in-flight requests or to measure the proxies' cost.
	Proxy bool
}

// ZoneLink is the impairment of the link between two zones.
type ZoneLink struct {
	RTTMs, JitterMs, BandwidthMbit float64
}

// Fault is one injected failure. Its type (FaultType.Fields) says which of
// the settings below it takes; the others stay at their zero value (Broker
// at -1), since the parser refuses them.
type Fault struct {
	// Type is the name of one of FaultTypes.
	Type string
	// Broker is the id of the broker affected (1..brokers, as embedded
	// brokers are numbered); -1 when not given.
	Broker int
	// Every repeats the fault after every that many produce requests; 0
	// means once, at AtMs.
	Every int
	// AtMs is when the fault happens, in ms from the start of the trial.
	AtMs float64
	// DelayMs is how long the fault lasts, in ms.
	DelayMs float64
	// Zone names the zone a zone fault affects ("" when not given).
	Zone string

	pos pos
}

// Axis is one dimension of the matrix.
type Axis struct {
	// Key is the axis name as written: a setting key (or shorthand) when the
	// values are scalars, or any name when every value is a map.
	Key    string
	Values []Value

	// canonical is the key the axis sets with scalar values; "" when the
	// axis name is free-form and every value is a map.
	canonical string
	pos       pos
	// written is how many values the file lists, before --set narrows
	// the axis to one.
	written int
	// generated marks the advise section's candidate axis: YAML writes
	// the advise section, not the axis.
	generated bool
}

// Value is one point on an axis.
type Value struct {
	// Label names the value in scenario IDs: the scalar as written, the
	// map's "label" entry, or "key=value,…" built from the map.
	Label string
	// Set maps canonical keys to the values this point applies.
	Set map[string]string
	// Faults, when HasFaults, replace the experiment's faults list in this
	// point's scenarios (a map value's "faults:" entry; an empty list means
	// no faults).
	Faults    []Fault
	HasFaults bool

	// labelled is true when the file named this value with a "label" entry.
	labelled bool
	pos      pos
	keyPos   map[string]pos
}

// Scenario is one point of the matrix cross product.
type Scenario struct {
	// Index is the 0-based position in the expansion order.
	Index int
	// ID is the stable name of the scenario, "key=label,…" in axis order,
	// or BaseScenarioID when the experiment has no matrix.
	ID string
	// Keys are the axis keys, in file order.
	Keys []string
	// Values maps each axis key to the label of the chosen value.
	Values map[string]string
	// Exp is the experiment with this scenario's values applied and the
	// matrix cleared.
	Exp Experiment
}

// Builtin describes one experiment embedded in the binary.
type Builtin struct {
	// Name is what `prodlab run NAME` accepts.
	Name        string
	Description string
}

// clone returns a deep copy of e, so that scenarios never share maps.
func (e *Experiment) clone() Experiment {
	c := *e
	c.Topic.Configs = cloneMap(e.Topic.Configs)
	c.Cluster.Configs = cloneMap(e.Cluster.Configs)
	c.Producer = cloneMap(e.Producer)
	if e.Capacity.SLO != nil {
		c.Capacity.SLO = make(map[string]float64, len(e.Capacity.SLO))
		for k, v := range e.Capacity.SLO {
			c.Capacity.SLO[k] = v
		}
	}
	c.Advise.Current = maps.Clone(e.Advise.Current)
	c.Advise.Constraints = maps.Clone(e.Advise.Constraints)
	c.Advise.Space = slices.Clone(e.Advise.Space)
	c.Faults = append([]Fault(nil), e.Faults...)
	c.Matrix = nil
	for _, a := range e.Matrix {
		na := a
		na.Values = nil
		for _, v := range a.Values {
			v.Set = cloneMap(v.Set)
			na.Values = append(na.Values, v)
		}
		c.Matrix = append(c.Matrix, na)
	}
	c.pos = make(map[string]pos, len(e.pos))
	for k, v := range e.pos {
		c.pos[k] = v
	}
	return c
}

// cloneMap copies a string map; nil stays nil.
func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// Settings is the typed view of the producer settings, parsed once when
// the experiment (or the scenario) was checked; code that interprets a
// setting reads it here rather than from Producer.
//
// An Experiment built in code rather than by Parse (tests build them) has
// not been checked: its map is parsed here, and a value the typed view
// cannot read is left unset, as Parse would have refused it.
func (e *Experiment) Settings() kafkaconf.Producer {
	if !e.confSet {
		return kafkaconf.ParseValid(e.Producer)
	}
	return e.conf
}

// parseConf parses Producer into the typed view, reporting a value the
// typed view cannot read (a librdkafka alias such as max.in.flight, which
// the file's type check reads as text) at its key as written.
func (e *Experiment) parseConf(c *collector) {
	conf, err := kafkaconf.Parse(e.Producer)
	e.conf, e.confSet = conf, true
	if err != nil && len(kafkaconf.SettingErrors(err)) == 0 { // an error of no setting: said at the file
		c.add(&Error{File: e.File, Msg: "producer: " + err.Error()})
	}
	for _, se := range kafkaconf.SettingErrors(err) {
		at, ok := e.pos[producerPrefix+se.Key]
		if !ok {
			at = pos{File: e.File}
		}
		c.add(&Error{File: at.File, Line: at.Line, Col: at.Col, Msg: "producer: " + se.Error()})
	}
}
