// Package results owns the run directory layout and results.jsonl, the
// contract (schema 2; schema 1 is still read) that reports, comparisons and
// tests read.
package results

import "fmt"

// Schema is the version of the results.jsonl contract written by this code.
// Schema 2 added timeline, cpu, steady, precision and the warm-up figures;
// MinSchema is the oldest version the reader accepts.
const (
	Schema    = 2
	MinSchema = 1
)

// Records counts what a trial produced.
type Records struct {
	Sent   int64 `json:"sent"`
	Acked  int64 `json:"acked"`
	Failed int64 `json:"failed"`
}

// Throughput is acknowledged records and value bytes per second of elapsed time.
type Throughput struct {
	RecordsPerS float64 `json:"records_per_s"`
	MBPerS      float64 `json:"mb_per_s"`
}

// Latency holds send→acknowledgement percentiles in milliseconds.
type Latency struct {
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
}

// Audit is the read-back verification of a scenario's topic.
type Audit struct {
	Acked      int64 `json:"acked"`
	Lost       int64 `json:"lost"`
	Duplicates int64 `json:"duplicates"`
	Reordered  int64 `json:"reordered"`
	Phantom    int64 `json:"phantom"`
	Foreign    int64 `json:"foreign"`
	// Transactions is the audit of a transactional producer; absent for
	// any other.
	Transactions *AuditTxn `json:"transactions,omitempty"`
}

// AuditTxn is what the audit of a transactional producer adds: it reads
// the topic as a read_committed consumer would (Audit's counts are that
// read's, Acked being the records acknowledged and committed), then as a
// read_uncommitted one, to reconcile the producer's counts with both.
type AuditTxn struct {
	// Isolation is the isolation level of the read Audit's counts come
	// from: read_committed.
	Isolation string `json:"isolation"`
	// Aborted counts the records in transactions the producer aborted;
	// AbortedVisible those of them a read_committed consumer saw (a
	// violation); AbortedInLog those a read_uncommitted consumer saw (the
	// aborted records the log holds, which read_committed must skip).
	Aborted        int64 `json:"aborted"`
	AbortedVisible int64 `json:"aborted_visible"`
	AbortedInLog   int64 `json:"aborted_in_log"`
	// LostInLog counts committed records not even in the log (read
	// read_uncommitted): lost by the brokers, where Lost alone could also
	// be a read_committed consumer held back by a transaction left open.
	LostInLog int64 `json:"lost_in_log"`
	// Undecided counts the records of a transaction that neither
	// committed nor aborted (open when the producer stopped: fenced);
	// UndecidedVisible those of them the read_committed consumer saw.
	Undecided        int64 `json:"undecided,omitempty"`
	UndecidedVisible int64 `json:"undecided_visible,omitempty"`
}

// Record is one line of results.jsonl: one finished (or failed) trial.
type Record struct {
	Schema     int            `json:"schema"`
	Run        string         `json:"run"`
	Experiment string         `json:"experiment"`
	Scenario   map[string]any `json:"scenario"`
	// ScenarioKeys keeps the matrix key order of Scenario for rendering.
	ScenarioKeys []string `json:"scenario_keys,omitempty"`
	ScenarioID   string   `json:"scenario_id"`
	Trial        int      `json:"trial"`
	// Life numbers the life of the clusters that ran the trial, from 0:
	// a run is one life (new broker and client JVMs); `prodlab report`
	// of several runs numbers each run's records by its place. Trials
	// pair by round only within a life.
	Life       int     `json:"life,omitempty"`
	Warmup     bool    `json:"warmup,omitempty"`
	Status     string  `json:"status"`
	Error      string  `json:"error,omitempty"`
	Client     string  `json:"client"`
	Kafka      string  `json:"kafka"`
	Topic      string  `json:"topic,omitempty"`
	RecordSize int     `json:"record_size"`
	Records    Records `json:"records"`
	// Errors counts failed records by error message.
	Errors     map[string]int64 `json:"errors,omitempty"`
	ElapsedS   float64          `json:"elapsed_s"`
	Throughput Throughput       `json:"throughput"`
	LatencyMs  Latency          `json:"latency_ms"`
	// LatencyIntendedMs, for rate-limited trials, runs from each record's
	// intended send time to its acknowledgement (coordinated omission).
	LatencyIntendedMs *Latency           `json:"latency_intended_ms,omitempty"`
	DiskBytes         int64              `json:"disk_bytes"`
	UncompressedBytes int64              `json:"uncompressed_bytes"`
	CompressedBytes   int64              `json:"compressed_bytes"`
	CompressionRatio  float64            `json:"compression_ratio"`
	Batches           int64              `json:"batches"`
	RecordsPerBatch   float64            `json:"records_per_batch"`
	ProduceRequests   int64              `json:"produce_requests"`
	EffectiveConfig   map[string]string  `json:"effective_config,omitempty"`
	ClientMetrics     map[string]float64 `json:"client_metrics,omitempty"`
	Network           map[string]float64 `json:"network,omitempty"`
	Audit             *Audit             `json:"audit,omitempty"`
	// AuditS is how long the audit's read-back and check took.
	AuditS float64 `json:"audit_s,omitempty"`
	// Events are the faults injected during the trial, with their times.
	Events []Event `json:"events,omitempty"`
	// Histogram is the HdrHistogram V2 compressed, base64 encoding of the
	// latency histogram (µs), so later tools can merge trials exactly.
	Histogram string `json:"histogram,omitempty"`
	StartedAt string `json:"started_at"`

	// Schema 2.

	// Warmup counts the in-trial warm-up records, excluded from every
	// figure above except the byte, batch and request counters and disk.
	WarmupRecords *Records `json:"warmup_records,omitempty"`
	// Timeline is the trial on its own clock, warm-up included.
	Timeline *Timeline `json:"timeline,omitempty"`
	// Partitions is how the measured records spread over the topic's
	// partitions (records_per_batch shows how thick their batches got).
	Partitions *Partitions `json:"partitions,omitempty"`
	// Steady is the steady-state check of the measured window's timeline.
	Steady *Steady `json:"steady,omitempty"`
	// CPU is what the trial cost in processor time.
	CPU *CPU `json:"cpu,omitempty"`
	// Precision is the state of the run's stopping rule when the trial was
	// written: the widest relative half-width of the planned comparisons
	// this scenario is part of, and whether every one met the target.
	Precision *Precision `json:"precision,omitempty"`
	// Warmed is how the cluster was warmed before the measured rounds of
	// this trial's cluster: rounds, seconds, and whether it got steady.
	Warmed *Warmed `json:"warmed,omitempty"`
	// LatencyE2EMs (workload.consumer) runs from each measured record's
	// hand-off to its producer until prodlab's consumer has it, on the
	// same host clock; HistogramE2E is its histogram, encoded as Histogram.
	LatencyE2EMs *Latency `json:"latency_e2e_ms,omitempty"`
	HistogramE2E string   `json:"histogram_e2e,omitempty"`
	// E2EBehind is set when the consumer had not caught up when it was
	// stopped: LatencyE2EMs then leaves out the records it never read,
	// the slowest ones, so no SLO is judged on it.
	E2EBehind bool `json:"e2e_behind,omitempty"`
	// Producers (workload.producers > 1) is each producer instance's share.
	Producers []Producer `json:"producers,omitempty"`
	// Emulated names what prodlab patched for the trial, e.g. "emulated
	// KIP-1269: broker retains 20, client cap lifted"; "" for stock Kafka.
	Emulated string `json:"emulated,omitempty"`
	// Load (a rate-limited trial) is the offered rate and the share of it
	// achieved; Probe (a capacity search) is the search's judgement.
	Load  *Load  `json:"load,omitempty"`
	Probe *Probe `json:"probe,omitempty"`
	// Zones (a cluster in zones) is the layout and the links between
	// zones.
	Zones *Zones `json:"zones,omitempty"`
}

// Warmed is the outcome of the warm-up rounds of one cluster.
type Warmed struct {
	// Auto is true under warmup: auto (rounds until flat), false for a
	// fixed count of warm-up rounds.
	Auto    bool    `json:"auto"`
	Rounds  int     `json:"rounds"`
	Seconds float64 `json:"seconds"`
	// Steady is whether the last warm-up round was flat by stats' rule.
	Steady bool `json:"steady"`
	// Checked is false when no rule was applied (a fixed count).
	Checked bool `json:"checked"`
}

// Timeline is a trial's figures per interval. Offsets are milliseconds
// since Start (RFC 3339, the wall-clock time of the trial's first send);
// fault events (Record.Events) carry TMs on the same axis.
type Timeline struct {
	Start      string  `json:"start"`
	IntervalMs float64 `json:"interval_ms"`
	// MeasuredFromMs is where the measured window begins (after warm-up).
	MeasuredFromMs float64         `json:"measured_from_ms"`
	Points         []TimelinePoint `json:"points"`
}

// TimelinePoint is one interval: counts of that interval only, and the
// latency percentiles (ms) of the records acknowledged in it.
type TimelinePoint struct {
	TMs        float64 `json:"t_ms"`
	DurMs      float64 `json:"dur_ms"`
	Warmup     bool    `json:"warmup,omitempty"`
	Sent       int64   `json:"sent"`
	Acked      int64   `json:"acked"`
	AckedBytes int64   `json:"acked_bytes"`
	Failed     int64   `json:"failed"`
	// Retries and InFlight are -1 when the client does not know them.
	Retries  int64   `json:"retries"`
	InFlight int64   `json:"in_flight"`
	P50Ms    float64 `json:"p50_ms"`
	P99Ms    float64 `json:"p99_ms"`
	MaxMs    float64 `json:"max_ms"`
	// Histogram is the interval's latency histogram (µs), encoded as
	// Record.Histogram, so points can be merged exactly.
	Histogram string `json:"histogram,omitempty"`
	// Lag (workload.consumer) is the end-to-end consumer's lag at the
	// interval's end: records in the log it had not consumed.
	Lag *int64 `json:"lag,omitempty"`
}

// Steady is the verdict of stats' steady-state rule on the interval
// throughputs of the measured window.
type Steady struct {
	OK bool `json:"ok"`
	// Points is how many intervals the rule saw.
	Points int `json:"points"`
	// Drift is the fitted change over the window relative to its mean
	// (slope × window ÷ mean), with its confidence bounds.
	Drift   float64 `json:"drift"`
	DriftLo float64 `json:"drift_lo"`
	DriftHi float64 `json:"drift_hi"`
	// CV is the coefficient of variation of the interval throughputs.
	CV float64 `json:"cv"`
	// Reason says why the window is not steady ("" when OK).
	Reason string `json:"reason,omitempty"`
}

// CPU is processor time (user + system) spent during the trial.
type CPU struct {
	// ClientS is the client's: the worker JVM, or prodlab's own process
	// for franz-go (which includes prodlab's proxies, if any).
	ClientS float64 `json:"client_s"`
	// BrokersS sums the embedded brokers'; Brokers has each, by node id.
	BrokersS float64            `json:"brokers_s,omitempty"`
	Brokers  map[string]float64 `json:"brokers,omitempty"`
	// ClientMsPerMB and BrokersMsPerMB divide by the MB (2^20 bytes of
	// values) acknowledged in the whole trial, warm-up included.
	ClientMsPerMB  float64 `json:"client_ms_per_mb"`
	BrokersMsPerMB float64 `json:"brokers_ms_per_mb,omitempty"`
	// Sets says which CPUs the brokers and the client ran on under
	// cluster.cpus: split ("brokers 0; client 1"); "" when they shared them all.
	Sets string `json:"sets,omitempty"`
}

// Precision records the stopping rule's state for a trial's scenario.
type Precision struct {
	Target  float64 `json:"target"`
	Reached float64 `json:"reached"`
	Met     bool    `json:"met"`
}

// Status values for Record.Status.
const (
	// StatusOK is a trial that ran and, if audited, delivered as expected.
	StatusOK = "ok"
	// StatusFailed is a trial that did not run to its end (Error says why).
	StatusFailed = "failed"
	// StatusViolated is a trial that ran to its end but whose audit found
	// lost, duplicated, reordered or phantom records the experiment did not
	// expect (Error lists them). Its measurements stand: it is counted.
	StatusViolated = "violated"
	// StatusInterrupted is a trial cut short by the user (Ctrl-C,
	// SIGTERM): neither counted nor a failure, and run again by --resume.
	StatusInterrupted = "interrupted"
)

// Counted reports whether the trial's measurements count in the figures:
// it ran to its end, whatever its audit found.
func (r Record) Counted() bool {
	return r.Status == StatusOK || r.Status == StatusViolated
}

// Event is one fault or network event during a trial.
type Event struct {
	Time string `json:"time"`
	// TMs places the event on the trial's timeline (schema 2).
	TMs    *float64 `json:"t_ms,omitempty"`
	Kind   string   `json:"kind"`
	Detail string   `json:"detail,omitempty"`
}

// TrialName names r's trial for people: "trial 3", or "life 2 trial 3"
// once the cluster has lived more than once (Life counts from 0, lives
// from 1, as the run's log does).
func (r *Record) TrialName() string {
	if r.Life > 0 {
		return fmt.Sprintf("life %d trial %d", r.Life+1, r.Trial)
	}
	return fmt.Sprintf("trial %d", r.Trial)
}
