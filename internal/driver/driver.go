// Package driver runs one producer trial against a Kafka cluster with a
// particular client library. Each client (franz-go in process, the official
// Java client in a worker JVM) implements Driver; the lab knows nothing else
// about them.
package driver

import (
	"context"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/keys"
)

// Trial is everything a driver needs to run one measured produce run.
type Trial struct {
	Bootstrap []string           // host:port of the brokers
	Topic     string             // fresh topic created by the lab
	Settings  kafkaconf.Settings // producer settings in Java's names, read once; Raw() is their text as written
	Records   int64              // records to send
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
	// Keys is the records' key space (package keys); keyless unless Keyed.
	Keys keys.Space
	// Producers is the number of producer instances (each its own client,
	// buffer and connections) sharing Records, WarmupRecords and Rate;
	// 0 is one. See producers.go.
	Producers int
	// StampHandoff adds to every measured record (not the warm-up's) the
	// header auditheader.TimeKey with its hand-off time, for an
	// end-to-end latency consumer.
	StampHandoff bool
	// Timeout bounds the whole trial; a trial that exceeds it fails.
	Timeout time.Duration
	// Duration, when positive, makes a steady-state trial: the measured
	// window ends when it has lasted Duration or Records measured records
	// were handed over, whichever comes first (then the driver flushes).
	// Zero is a burst: exactly Records records.
	Duration time.Duration
	// WarmupRecords and Warmup are produced through the same producer
	// before the measured window, in the same stream (no flush between),
	// as kafka-producer-perf-test's --warmup-records: the warm-up ends after
	// WarmupRecords records or Warmup of time, whichever is set and comes
	// first. Warm-up records are excluded from every figure of Result
	// except the byte, batch and request counters (client totals) and the
	// audit: sequence numbers run on from 0 across warm-up and measured
	// records, and Acks covers them all.
	WarmupRecords int64
	Warmup        time.Duration
	// CatchUp, when positive, holds a rate-limited steady-state trial's
	// warm-up past Warmup until the producer is within CatchUp of its
	// schedule (the records it holds unacknowledged, at Rate, beyond the
	// fastest completion; the Java worker adds how late its hand-offs run),
	// for at most CatchUpMax more and not once it
	// falls further behind than when Warmup ended (by CatchUp): a start
	// hiccup near the producer's knee drains slowly (at the rate it has to
	// spare), and a window that begins behind its schedule measures that
	// backlog, not the steady state at Rate. Zero keeps Warmup as it is.
	CatchUp, CatchUpMax time.Duration
	// TimelineInterval, when positive, asks for Result.Timeline: one point
	// per interval of the trial's clock, warm-up included.
	TimelineInterval time.Duration
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
	Client string // e.g. "franz-go v1.22.2"
	Sent   int64
	Acked  int64
	Failed int64
	Errors map[string]int64 // failed records by error message
	// Log quotes the client's own WARN/ERROR log lines that explain
	// failed records (with the log file and line numbers), when the
	// client logs them (java); "" otherwise.
	Log     string
	Elapsed time.Duration // first send to last acknowledgement
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
	// PartitionRecords counts the measured records acknowledged, by
	// partition; partitions that got none are absent.
	PartitionRecords map[int32]int64
	// Acks records, per partition, which sequence numbers were acknowledged;
	// nil unless the trial asked for audit headers.
	Acks *AckLog
	// WarmupSent and WarmupAcked count the warm-up records (not in Sent or
	// Acked); AuditSent = WarmupSent + Sent is the number of sequence
	// numbers handed out, which the audit checks.
	WarmupSent, WarmupAcked int64
	// WarmupLatency holds the warm-up records' send→ack latency in µs, as
	// Latency does the measured ones': kafka-producer-perf-test's whole-run
	// line covers both. Nil without a warm-up.
	WarmupLatency *hdrhistogram.Histogram
	// WarmupErrors counts the failed warm-up records by error message, as
	// Errors does the measured ones'; nil when none failed.
	WarmupErrors map[string]int64
	// ClockStart is the wall-clock time of the trial's first send (warm-up
	// included): Timeline offsets and MeasuredFrom count from it, and the
	// lab places fault events on the same axis with it.
	ClockStart time.Time
	// MeasuredFrom is when the measured window began, since ClockStart
	// (0 without warm-up).
	MeasuredFrom time.Duration
	// Timeline holds one point per Trial.TimelineInterval, in time order,
	// covering the warm-up and the measured window; nil when not asked.
	Timeline []Interval
	// Producers holds each producer's own figures when the trial ran
	// several (Trial.Producers > 1); the fields above are their merge and
	// Acks is nil (each producer has its own).
	Producers []ProducerResult
	// CPU is the CPU time a Trogdor node reported for its share (its
	// worker process, or its agent's JVM during the trial); 0 elsewhere,
	// where the lab reads the client's process itself.
	CPU time.Duration
}

// AuditSent is the number of sequence numbers the trial handed out,
// warm-up included.
func (r *Result) AuditSent() int64 { return r.WarmupSent + r.Sent }

// MetricWarmupFailed counts the warm-up records that failed (Result.Metrics;
// absent when none did): the warm-up's counterpart of Result.Failed.
const MetricWarmupFailed = "warmup-records-failed"

// WarmupFailed is the number of warm-up records that failed.
func (r *Result) WarmupFailed() int64 { return int64(r.Metrics[MetricWarmupFailed]) }

// Interval is one point of a trial's timeline: what happened during
// [Start, Start+Length) of the trial's clock. Counts are of that interval
// only (not cumulative); Latency is an interval histogram (µs) of the
// records acknowledged in it.
type Interval struct {
	Start, Length time.Duration
	// Warmup is true for intervals that began before the measured window.
	Warmup bool
	// Sent records handed to the client; Acked and Failed callbacks;
	// AckedBytes the value bytes of the acknowledged records.
	Sent, Acked, Failed, AckedBytes int64
	// Retries is the client's retried records in the interval, or -1 when
	// the client does not count them.
	Retries int64
	// InFlight is the most produce requests in flight (all brokers) seen
	// during the interval, or -1 when the client does not know.
	InFlight int64
	// Latency is send→ack in µs of the records acknowledged in the interval.
	Latency *hdrhistogram.Histogram
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
