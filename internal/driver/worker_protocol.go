package driver

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/keys"
)

// The Java worker protocol: one JSON object per line on the worker's stdin
// (requests) and stdout (answers). docs/worker-protocol.md is the reference;
// these types mirror it.

// workerRequest is a request to the worker: hello, run, cancel or exit.
type workerRequest struct {
	Op string `json:"op"`
	ID int64  `json:"id,omitempty"`

	// run only
	Bootstrap  string            `json:"bootstrap,omitempty"`
	Topic      string            `json:"topic,omitempty"`
	Props      map[string]string `json:"props,omitempty"`
	Records    *int64            `json:"records,omitempty"` // pointer: 0 records is a valid run
	RecordSize int               `json:"record_size,omitempty"`
	Payload    string            `json:"payload,omitempty"`
	Rate       float64           `json:"rate,omitempty"`
	Seed       int64             `json:"seed,omitempty"`
	Tag        string            `json:"tag,omitempty"`
	TimeoutMs  int64             `json:"timeout_ms,omitempty"`
	// Steady state, warm-up and timeline; 0 (omitted) is off.
	DurationMs    int64 `json:"duration_ms,omitempty"`
	WarmupRecords int64 `json:"warmup_records,omitempty"`
	WarmupMs      int64 `json:"warmup_ms,omitempty"`
	// CatchUpMs and CatchUpMaxMs are Trial.CatchUp and CatchUpMax.
	CatchUpMs          int64 `json:"catch_up_ms,omitempty"`
	CatchUpMaxMs       int64 `json:"catch_up_max_ms,omitempty"`
	TimelineIntervalMs int64 `json:"timeline_interval_ms,omitempty"`
	// Keys is the records' key space; omitted for keyless records.
	Keys *workerKeys `json:"keys,omitempty"`
	// Stamp adds the hand-off time header (auditheader.TimeKey).
	Stamp bool `json:"stamp,omitempty"`
	// Producers, when set, runs one producer per sub-request concurrently
	// (see java_producers.go); the other run fields are then unused.
	Producers []workerRequest `json:"producers,omitempty"`
}

// workerKeys is a run request's key space (package keys).
type workerKeys struct {
	Distribution string  `json:"distribution"`
	Count        int64   `json:"count"`
	Size         int     `json:"size"`
	Exponent     float64 `json:"exponent,omitempty"`
}

// workerMessage is any line the worker writes; Op says which fields are set.
type workerMessage struct {
	Op string `json:"op"` // hello | progress | result | error
	ID int64  `json:"id"`

	// hello (Client also in result)
	Client string `json:"client"`
	Java   string `json:"java"`

	// progress (Sent, Acked, Failed, ElapsedNs also in result); the window
	// fields cover the records acknowledged since the previous progress.
	Sent               int64 `json:"sent"`
	Acked              int64 `json:"acked"`
	WindowCount        int64 `json:"window_count"`
	WindowLatencySumUs int64 `json:"window_latency_sum_us"`
	WindowLatencyMaxUs int64 `json:"window_latency_max_us"`

	// result; error also for op "error"
	OK                bool               `json:"ok"`
	Error             string             `json:"error"`
	Hint              string             `json:"hint"`
	Failed            int64              `json:"failed"`
	Errors            map[string]int64   `json:"errors"`
	ElapsedNs         int64              `json:"elapsed_ns"`
	Histogram         string             `json:"histogram"`
	HistogramIntended string             `json:"histogram_intended"`
	HistogramWarmup   string             `json:"histogram_warmup"`
	WarmupErrors      map[string]int64   `json:"warmup_errors,omitempty"`
	Effective         map[string]string  `json:"effective"`
	Metrics           map[string]float64 `json:"metrics"`
	UncompressedBytes int64              `json:"uncompressed_bytes"`
	CompressedBytes   int64              `json:"compressed_bytes"`
	Batches           int64              `json:"batches"`
	ProduceRequests   int64              `json:"produce_requests"`
	Commits           int64              `json:"commits"`
	Aborts            int64              `json:"aborts"`
	AckedRanges       [][2]int64         `json:"acked_ranges"`
	FailedRanges      [][2]int64         `json:"failed_ranges"`
	// Fenced: the trial ended (ok=false) because another producer
	// registered its transactional.id; the figures are as far as it went.
	Fenced bool `json:"fenced,omitempty"`
	// The records of committed and of aborted transactions (a
	// transactional producer's; absent otherwise).
	CommittedRanges [][2]int64 `json:"committed_ranges,omitempty"`
	AbortedRanges   [][2]int64 `json:"aborted_ranges,omitempty"`
	// Warm-up counts (not in Sent, Acked, Failed), the trial's clock and
	// its timeline.
	WarmupSent        int64       `json:"warmup_sent"`
	WarmupAcked       int64       `json:"warmup_acked"`
	WarmupFailed      int64       `json:"warmup_failed"`
	ClockStartEpochUs int64       `json:"clock_start_epoch_us"`
	MeasuredFromNs    int64       `json:"measured_from_ns"`
	Timeline          []javaPoint `json:"timeline"`
	// PartitionRecords counts the measured records acknowledged by
	// partition.
	PartitionRecords map[int32]int64 `json:"partition_records"`
	// Producers holds each producer's result, in order, when the request
	// had producers.
	Producers []*workerMessage `json:"producers"`
	// CPUNs is the CPU time of the process that ran the trial on a Trogdor
	// agent (user + system): the external worker's whole life, or the
	// agent JVM's during the trial; 0 when not measured.
	CPUNs int64 `json:"cpu_ns,omitempty"`
}

// javaPoint is one timeline point of a result: counts of its interval only.
type javaPoint struct {
	TNs        int64  `json:"t_ns"`
	DurNs      int64  `json:"dur_ns"`
	Warmup     bool   `json:"warmup"`
	Sent       int64  `json:"sent"`
	Acked      int64  `json:"acked"`
	AckedBytes int64  `json:"acked_bytes"`
	Failed     int64  `json:"failed"`
	Retries    *int64 `json:"retries"`   // -1 (or absent) when the client does not count retries
	InFlight   *int64 `json:"in_flight"` // -1 (or absent) when unknown
	Histogram  string `json:"histogram"`
}

// JavaError is a trial the Java client refused or could not finish: Message
// is the client's own words, Hint a one-line suggestion.
type JavaError struct {
	Message string
	Hint    string
	// Log quotes the client's WARN/ERROR lines logged during the trial,
	// with the worker log's path and line numbers; "" when there were none.
	Log string
}

func (e *JavaError) Error() string {
	msg := e.Message
	if e.Hint != "" {
		msg += " (hint: " + e.Hint + ")"
	}
	if e.Log != "" {
		msg += "\n" + e.Log
	}
	return msg
}

// progress converts a progress message into a Progress report.
func (m *workerMessage) progress() Progress {
	return Progress{
		Elapsed:            time.Duration(m.ElapsedNs),
		Sent:               m.Sent,
		Acked:              m.Acked,
		Failed:             m.Failed,
		WindowCount:        m.WindowCount,
		WindowLatencySumUs: m.WindowLatencySumUs,
		WindowLatencyMaxUs: m.WindowLatencyMaxUs,
	}
}

// newRunRequest turns a trial into the worker's run request.
func newRunRequest(id int64, t Trial) workerRequest {
	records := t.Records
	return workerRequest{
		Op:         "run",
		ID:         id,
		Bootstrap:  strings.Join(t.Bootstrap, ","),
		Topic:      t.Topic,
		Props:      kafkaconf.WithTransactionSchedule(t.Settings.Raw()),
		Records:    &records,
		RecordSize: t.RecordSize,
		Payload:    t.Payload,
		Rate:       t.Rate,
		Seed:       t.Seed,
		Tag:        t.Tag,
		TimeoutMs:  t.Timeout.Milliseconds(),

		DurationMs:         positiveMillis(t.Duration),
		WarmupRecords:      t.WarmupRecords,
		WarmupMs:           positiveMillis(t.Warmup),
		CatchUpMs:          positiveMillis(t.CatchUp),
		CatchUpMaxMs:       positiveMillis(t.CatchUpMax),
		TimelineIntervalMs: positiveMillis(t.TimelineInterval),
		Keys:               newWorkerKeys(t.Keys),
		Stamp:              t.StampHandoff,
	}
}

// newWorkerKeys is the request's key space, nil when keyless.
func newWorkerKeys(s keys.Space) *workerKeys {
	if !s.Keyed() {
		return nil
	}
	return &workerKeys{Distribution: s.Distribution, Count: s.Count, Size: s.Size, Exponent: s.Exponent}
}

// positiveMillis is d in whole milliseconds, at least 1 when d is positive
// (so that a sub-millisecond setting is not silently turned off), 0 otherwise.
func positiveMillis(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return max(d.Milliseconds(), 1)
}

// encodeWorkerRequest renders a request as one protocol line, newline included.
func encodeWorkerRequest(r workerRequest) ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("encode %s request: %w", r.Op, err)
	}
	return append(b, '\n'), nil
}

// decodeWorkerMessage parses one line the worker wrote.
func decodeWorkerMessage(line []byte) (*workerMessage, error) {
	var m workerMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return nil, fmt.Errorf("the worker wrote a malformed line %.200q: %w", line, err)
	}
	if m.Op == "" {
		return nil, fmt.Errorf("the worker wrote a line without op: %.200q", line)
	}
	return &m, nil
}

// decodeJavaHistogram decodes the worker's base64 compressed HdrHistogram
// (values in µs) into a histogram shaped as NewLatencyHistogram.
func decodeJavaHistogram(b64 string) (*hdrhistogram.Histogram, error) {
	if b64 == "" {
		return NewLatencyHistogram(), nil
	}
	d, err := hdrhistogram.Decode([]byte(b64))
	if err != nil {
		return nil, fmt.Errorf("decode java latency histogram: %w", err)
	}
	// The worker encodes with NewLatencyHistogram's shape: use the decoded
	// histogram as it is (timelines decode many); re-shape anything else.
	if d.LowestTrackableValue() == 1 && d.HighestTrackableValue() == latencyHighestUs && d.SignificantFigures() == 3 {
		return d, nil
	}
	h := NewLatencyHistogram()
	if dropped := h.Merge(d); dropped > 0 {
		return nil, fmt.Errorf("decode java latency histogram: %d values out of range", dropped)
	}
	return h, nil
}

// latencyHighestUs is NewLatencyHistogram's highest trackable value.
const latencyHighestUs = int64(10 * time.Minute / time.Microsecond)

// toResult converts a result message into a Result for trial t; a result
// with ok=false becomes a *JavaError, returned with the Result as far as it
// went when the producer was fenced (ErrFenced).
func (m *workerMessage) toResult(t Trial) (*Result, error) {
	if !m.OK {
		return m.failedResult(t)
	}
	if err := m.impossibleCounts(); err != nil {
		return nil, err
	}
	lat, err := decodeJavaHistogram(m.Histogram)
	if err != nil {
		return nil, err
	}
	var intended, warm *hdrhistogram.Histogram
	if m.HistogramIntended != "" {
		if intended, err = decodeJavaHistogram(m.HistogramIntended); err != nil {
			return nil, err
		}
	}
	if m.HistogramWarmup != "" {
		if warm, err = decodeJavaHistogram(m.HistogramWarmup); err != nil {
			return nil, err
		}
	}
	res := &Result{
		WarmupSent:        m.WarmupSent,
		WarmupAcked:       m.WarmupAcked,
		WarmupLatency:     warm,
		WarmupErrors:      m.WarmupErrors,
		MeasuredFrom:      time.Duration(m.MeasuredFromNs),
		LatencyIntended:   intended,
		Client:            m.Client,
		Sent:              m.Sent,
		Acked:             m.Acked,
		Failed:            m.Failed,
		Errors:            m.Errors,
		Elapsed:           time.Duration(m.ElapsedNs),
		Latency:           lat,
		UncompressedBytes: m.UncompressedBytes,
		CompressedBytes:   m.CompressedBytes,
		Batches:           m.Batches,
		ProduceRequests:   m.ProduceRequests,
		Effective:         m.Effective,
		Metrics:           m.Metrics,
		PartitionRecords:  m.PartitionRecords,
	}
	if res.Errors == nil {
		res.Errors = map[string]int64{}
	}
	if res.Metrics == nil {
		res.Metrics = map[string]float64{}
	}
	if m.WarmupFailed > 0 { // as the in-process loop reports it (sendLoop.result)
		res.Metrics[MetricWarmupFailed] = float64(m.WarmupFailed)
	}
	if m.Commits > 0 || m.Aborts > 0 {
		res.Metrics[MetricTxnCommitted] = float64(m.Commits)
		res.Metrics[MetricTxnAborted] = float64(m.Aborts)
	}
	if m.ClockStartEpochUs != 0 {
		res.ClockStart = time.UnixMicro(m.ClockStartEpochUs)
	}
	if t.TimelineInterval > 0 || m.Timeline != nil {
		if res.Timeline, err = m.timeline(); err != nil {
			return nil, err
		}
	}
	if t.Tag != "" {
		if res.Acks, err = m.ackLog(t); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// impossibleCounts refuses a result no producer can have reported: a
// negative count or time, more records acknowledged than handed over (in
// the window or the warm-up). A worker that says so is broken, and its
// figures must not reach a record as if measured.
func (m *workerMessage) impossibleCounts() error {
	var why []string
	for _, c := range []struct {
		name string
		v    int64
	}{{"sent", m.Sent}, {"acked", m.Acked}, {"failed", m.Failed}, {"warmup_sent", m.WarmupSent}, {"warmup_acked", m.WarmupAcked},
		{"batches", m.Batches}, {"produce_requests", m.ProduceRequests}, {"uncompressed_bytes", m.UncompressedBytes},
		{"compressed_bytes", m.CompressedBytes}, {"elapsed_ns", m.ElapsedNs}} {
		if c.v < 0 {
			why = append(why, fmt.Sprintf("%s %d is negative", c.name, c.v))
		}
	}
	// Acknowledged beyond sent, not acknowledged and failed: the Java
	// worker counts a record whose send threw as failed without counting
	// it as sent.
	if m.Acked > m.Sent {
		why = append(why, fmt.Sprintf("acked %d is more than the %d sent", m.Acked, m.Sent))
	}
	if m.WarmupAcked > m.WarmupSent {
		why = append(why, fmt.Sprintf("warmup_acked %d is more than the %d sent in the warm-up", m.WarmupAcked, m.WarmupSent))
	}
	if len(why) == 0 {
		return nil
	}
	return fmt.Errorf("worker result with impossible counts: %s", strings.Join(why, "; "))
}

// failedResult is the outcome of a result with ok=false: its *JavaError,
// with the figures as far as they went when the producer was fenced.
func (m *workerMessage) failedResult(t Trial) (*Result, error) {
	msg := m.Error
	if msg == "" {
		msg = "java worker reported a failed trial without a message"
	}
	jerr := &JavaError{Message: msg, Hint: m.Hint}
	if !m.Fenced {
		return nil, jerr
	}
	ok := *m
	ok.OK = true
	res, err := ok.toResult(t)
	if err != nil {
		return nil, err
	}
	return res, fmt.Errorf("%w: %w", ErrFenced, jerr)
}

// ackLog is the ack log the result's ranges describe: acked, failed and,
// for a transactional producer, each record's transaction.
func (m *workerMessage) ackLog(t Trial) (*AckLog, error) {
	n := m.seqLimit(t)
	acks := NewAckLog(n)
	if err := fillRanges(acks.Ack, m.AckedRanges, n); err != nil {
		return nil, fmt.Errorf("java acked_ranges: %w", err)
	}
	if err := fillRanges(acks.Fail, m.FailedRanges, n); err != nil {
		return nil, fmt.Errorf("java failed_ranges: %w", err)
	}
	if kafkaconf.Effective(m.Effective).Transactional() {
		acks.SetTransactional()
	}
	for _, tr := range []struct {
		name      string
		ranges    [][2]int64
		committed bool
	}{{"committed_ranges", m.CommittedRanges, true}, {"aborted_ranges", m.AbortedRanges, false}} {
		if err := checkRanges(tr.ranges, n); err != nil {
			return nil, fmt.Errorf("java %s: %w", tr.name, err)
		}
		for _, r := range tr.ranges {
			acks.MarkTxn(r[0], r[1], tr.committed)
		}
	}
	return acks, nil
}

// seqLimit bounds the sequence numbers a result may name: every record the
// worker tried (sent ones, and those whose send() threw, which count as
// failed only), warm-up included, and no more than the trial asked for when
// its length is a record count.
func (m *workerMessage) seqLimit(t Trial) int64 {
	n := m.WarmupSent + m.WarmupFailed + m.Sent + m.Failed
	if t.Warmup <= 0 {
		n = min(n, t.WarmupRecords+t.Records)
	}
	return n
}

// timeline converts the result's timeline points, decoding their histograms.
func (m *workerMessage) timeline() ([]Interval, error) {
	out := make([]Interval, 0, len(m.Timeline))
	for i, p := range m.Timeline {
		lat, err := decodeJavaHistogram(p.Histogram)
		if err != nil {
			return nil, fmt.Errorf("java timeline point %d: %w", i, err)
		}
		out = append(out, Interval{
			Start:      time.Duration(p.TNs),
			Length:     time.Duration(p.DurNs),
			Warmup:     p.Warmup,
			Sent:       p.Sent,
			Acked:      p.Acked,
			Failed:     p.Failed,
			AckedBytes: p.AckedBytes,
			Retries:    unknownAsMinusOne(p.Retries),
			InFlight:   unknownAsMinusOne(p.InFlight),
			Latency:    lat,
		})
	}
	return out, nil
}

// unknownAsMinusOne is *v, or -1 when the worker left it out or said -1.
func unknownAsMinusOne(v *int64) int64 {
	if v == nil || *v < 0 {
		return -1
	}
	return *v
}

// fillRanges marks every sequence number of [from,to) ranges.
func fillRanges(mark func(int64), ranges [][2]int64, n int64) error {
	if err := checkRanges(ranges, n); err != nil {
		return err
	}
	for _, r := range ranges {
		for s := r[0]; s < r[1]; s++ {
			mark(s)
		}
	}
	return nil
}

// checkRanges refuses a [from,to) range outside [0,n).
func checkRanges(ranges [][2]int64, n int64) error {
	for _, r := range ranges {
		if r[0] < 0 || r[1] < r[0] || r[1] > n {
			return fmt.Errorf("range [%d,%d) outside [0,%d)", r[0], r[1], n)
		}
	}
	return nil
}
