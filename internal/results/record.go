// Package results owns the run directory layout and results.jsonl, the
// schema-1 contract that reports, comparisons and tests read.
package results

// Schema is the version of the results.jsonl contract written by this code.
const Schema = 1

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
	Warmup       bool     `json:"warmup,omitempty"`
	Status       string   `json:"status"`
	Error        string   `json:"error,omitempty"`
	Client       string   `json:"client"`
	Kafka        string   `json:"kafka"`
	Topic        string   `json:"topic,omitempty"`
	RecordSize   int      `json:"record_size"`
	Records      Records  `json:"records"`
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
}

// Status values for Record.Status.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
)

// Event is one fault or network event during a trial.
type Event struct {
	Time   string `json:"time"`
	Kind   string `json:"kind"`
	Detail string `json:"detail,omitempty"`
}
