// Package driver runs one producer trial against a Kafka cluster with a
// particular client library. Each client (franz-go in process, the official
// Java client in a worker JVM) implements Driver; the lab knows nothing else
// about them.
package driver

import (
	"context"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Trial is everything a driver needs to run one measured produce run.
type Trial struct {
	Bootstrap []string          // host:port of the brokers
	Topic     string            // fresh topic created by the lab
	Props     map[string]string // Java producer property names and values
	Records   int64             // records to send
	// RecordSize is the exact value size in bytes.
	RecordSize int
	// Payload is json | random | text | file:PATH (see package payload).
	Payload string
	// Rate caps records per second; 0 means as fast as possible.
	Rate float64
	// Seed makes payloads reproducible per trial.
	Seed int64
	// Tag names this producer run in each record's audit header.
	Tag string
	// Timeout bounds the whole trial; a trial that exceeds it fails.
	Timeout time.Duration
	// Progress, when non-nil, is called about once a second while records
	// are being produced, from a goroutine of the driver's (never
	// concurrently with itself), and never after Run returns. It must be
	// quick: it runs on the driver's reporting path. Callers use it for
	// live output such as kafka-producer-perf-test's 5-second lines.
	Progress func(Progress)
}

// Progress is a driver's periodic report during a trial: cumulative counts
// plus latency figures of the window since the previous report, so a caller
// can aggregate windows of any length (sums add, maxima take the max)
// without the driver keeping per-caller state.
type Progress struct {
	// Elapsed is the time since the trial's clock started.
	Elapsed time.Duration
	// Sent, Acked and Failed are cumulative counts since the trial began.
	Sent, Acked, Failed int64
	// WindowCount is the records acknowledged since the previous report;
	// WindowLatencySumUs and WindowLatencyMaxUs are the sum and maximum of
	// their send→ack latencies in µs (0 when WindowCount is 0).
	WindowCount        int64
	WindowLatencySumUs int64
	WindowLatencyMaxUs int64
}

// Result is what a driver measured during a trial.
type Result struct {
	Client  string // e.g. "franz-go v1.22.2"
	Sent    int64
	Acked   int64
	Failed  int64
	Errors  map[string]int64 // failed records by error message
	Elapsed time.Duration    // first send to last acknowledgement
	// Latency holds send→ack latency in microseconds.
	Latency *hdrhistogram.Histogram
	// LatencyIntended, for rate-limited trials only, measures from each
	// record's intended send time (start + seq/rate) to its
	// acknowledgement, so a stalled producer cannot hide its backlog
	// (coordinated omission). Nil when the trial is unthrottled.
	LatencyIntended   *hdrhistogram.Histogram
	UncompressedBytes int64
	CompressedBytes   int64
	Batches           int64
	ProduceRequests   int64
	// Effective is every producer setting as the client used it, defaults included.
	Effective map[string]string
	// Metrics are client-reported figures (batch-size-avg, requests-in-flight, ...).
	Metrics map[string]float64
	// Acks records, per partition, which sequence numbers were acknowledged;
	// nil unless the trial asked for audit headers.
	Acks *AckLog
}

// Driver is one client library able to run trials.
type Driver interface {
	// Name is the client's short name ("franz-go", "java@3.9.1").
	Name() string
	// Check rejects producer properties this client cannot honour, naming
	// the property and the client. It runs before any broker starts.
	Check(props map[string]string) error
	// Run performs one trial and returns its measurements. A configuration
	// the client rejects returns an error; the lab records it as a failed
	// scenario and goes on.
	Run(ctx context.Context, t Trial) (*Result, error)
	// Close releases the client's resources (worker processes, ...).
	Close() error
}

// NewLatencyHistogram returns the histogram every driver records into:
// 1 µs to 10 minutes, 3 significant digits.
func NewLatencyHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(1, int64(10*time.Minute/time.Microsecond), 3)
}
