package driver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/keys"
)

// Serving the worker protocol (docs/worker-protocol.md) from Go: a client
// whose library cannot live in prodlab's own process (librdkafka, through
// cgo) runs as a worker process of its own, and this is that process's
// side of the conversation. It turns run requests into Trials for the
// worker's run function and its Results into the protocol's result
// messages, the reverse of what the Java driver does with the Java worker.

// WorkerService is what a protocol worker serves.
type WorkerService struct {
	// Client names the client and its release, e.g. "librdkafka 2.11.1";
	// the hello answer and every failed result carry it (a successful one
	// carries its Result's Client).
	Client string
	// Runtime is what the client runs on, for the hello answer's "java"
	// field (the JVM's version for the Java worker); "" when not a JVM.
	Runtime string
	// Run runs one producer's trial; Trial.Progress is set when the worker
	// reports progress. A refused configuration or a failed trial returns
	// an error, which the result carries with ok false.
	Run func(ctx context.Context, t Trial) (*Result, error)
	// Hint, when non-nil, gives a one-line suggestion for a failed trial's
	// error ("" for none).
	Hint func(err error) string
}

// Serve answers requests from in on out until in ends or an exit request
// arrives; a run in progress is then cancelled and its result still
// written. Answers come in request order: one trial runs at a time, and
// requests that arrive during it wait, except cancel and exit.
func (w WorkerService) Serve(in io.Reader, out io.Writer) error {
	s := &serving{svc: w, out: out}
	queue := make(chan workerRequest, 64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for req := range queue {
			s.handle(req)
		}
	}()
	br := bufio.NewReaderSize(in, 64<<10)
	var readErr error
read:
	for {
		line, err := br.ReadBytes('\n')
		if strings.TrimSpace(string(line)) != "" {
			var req workerRequest
			jerr := json.Unmarshal(line, &req)
			switch {
			case jerr != nil || req.Op == "":
				s.write(workerMessage{Op: "error", Error: fmt.Sprintf("not a request: %.200q", line)})
			case req.Op == "cancel":
				s.cancelRun()
			case req.Op == "exit":
				break read
			default:
				queue <- req
			}
		}
		if err != nil {
			if err != io.EOF {
				readErr = err
			}
			break
		}
	}
	s.closing()
	close(queue)
	<-done
	return readErr
}

// serving is one Serve conversation.
type serving struct {
	svc WorkerService
	wmu sync.Mutex // serializes lines on out
	out io.Writer

	mu      sync.Mutex
	cancel  context.CancelFunc // the running trial's, nil when idle
	exiting bool               // no new trial starts
}

// write writes one message as a line.
func (s *serving) write(m workerMessage) {
	b, err := json.Marshal(m)
	if err != nil {
		b, _ = json.Marshal(workerMessage{Op: "error", ID: m.ID, Error: "encode " + m.Op + ": " + err.Error()})
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_, _ = s.out.Write(append(b, '\n'))
}

func (s *serving) cancelRun() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
}

// closing stops new trials and cancels the running one, under one lock, so
// that no queued trial starts uncancelled between the two.
func (s *serving) closing() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exiting = true
	if s.cancel != nil {
		s.cancel()
	}
}

// handle answers one queued request.
func (s *serving) handle(req workerRequest) {
	switch req.Op {
	case "hello":
		s.write(workerMessage{Op: "hello", ID: req.ID, Client: s.svc.Client, Java: s.svc.Runtime})
	case "run":
		s.mu.Lock()
		if s.exiting {
			s.mu.Unlock()
			s.write(workerMessage{Op: "result", ID: req.ID, Client: s.svc.Client, Error: "the worker is exiting"})
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		s.cancel = cancel
		s.mu.Unlock()
		m := s.run(ctx, req)
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
		cancel()
		s.write(m)
	default:
		s.write(workerMessage{Op: "error", ID: req.ID, Error: fmt.Sprintf("unknown op %q (want hello, run, cancel or exit)", req.Op)})
	}
}

// run runs a run request: one producer, or each of its producers
// concurrently with its own id.
func (s *serving) run(ctx context.Context, req workerRequest) workerMessage {
	if len(req.Producers) == 0 {
		return s.runOne(ctx, req)
	}
	out := workerMessage{Op: "result", ID: req.ID, Client: s.svc.Client, OK: true}
	subs := make([]*workerMessage, len(req.Producers))
	var wg sync.WaitGroup
	for i, sub := range req.Producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := s.runOne(ctx, sub)
			subs[i] = &m
		}()
	}
	wg.Wait()
	out.Producers = subs
	return out
}

// runOne runs one producer's request and makes its result message.
func (s *serving) runOne(ctx context.Context, req workerRequest) workerMessage {
	t, err := req.trial()
	if err != nil {
		return workerMessage{Op: "result", ID: req.ID, Client: s.svc.Client, Error: err.Error()}
	}
	t.Progress = func(p Progress) {
		s.write(workerMessage{Op: "progress", ID: req.ID, Sent: p.Sent, Acked: p.Acked, Failed: p.Failed,
			ElapsedNs: int64(p.Elapsed), WindowCount: p.WindowCount, WindowLatencySumUs: p.WindowLatencySumUs, WindowLatencyMaxUs: p.WindowLatencyMaxUs})
	}
	res, err := s.svc.Run(ctx, t)
	if err == nil && ctx.Err() != nil {
		err = fmt.Errorf("trial cancelled: %w", ctx.Err())
	}
	if err != nil && (!errors.Is(err, ErrFenced) || res == nil) {
		m := workerMessage{Op: "result", ID: req.ID, Client: s.svc.Client, Error: err.Error()}
		if s.svc.Hint != nil {
			m.Hint = s.svc.Hint(err)
		}
		return m
	}
	m, merr := resultMessage(req.ID, res)
	if merr == nil && err != nil { // fenced: the figures as far as they went, and why it ended
		m.OK, m.Fenced, m.Error = false, true, err.Error()
		m.Hint = "another producer registered this producer's transactional.id"
		return m
	}
	err = merr
	if err != nil {
		return workerMessage{Op: "result", ID: req.ID, Client: s.svc.Client, Error: err.Error()}
	}
	return m
}

// trial is the Trial a run request asks for (the reverse of newRunRequest).
func (r workerRequest) trial() (Trial, error) {
	if r.Records == nil {
		return Trial{}, fmt.Errorf("run request %d has no records", r.ID)
	}
	if r.Bootstrap == "" || r.Topic == "" {
		return Trial{}, fmt.Errorf("run request %d needs bootstrap and topic", r.ID)
	}
	t := Trial{
		Bootstrap:        strings.Split(r.Bootstrap, ","),
		Topic:            r.Topic,
		Settings:         kafkaconf.Decode(r.Props),
		Records:          *r.Records,
		RecordSize:       r.RecordSize,
		Payload:          r.Payload,
		Rate:             r.Rate,
		Seed:             r.Seed,
		Tag:              r.Tag,
		StampHandoff:     r.Stamp,
		Timeout:          time.Duration(r.TimeoutMs) * time.Millisecond,
		Duration:         time.Duration(r.DurationMs) * time.Millisecond,
		WarmupRecords:    r.WarmupRecords,
		Warmup:           time.Duration(r.WarmupMs) * time.Millisecond,
		CatchUp:          time.Duration(r.CatchUpMs) * time.Millisecond,
		CatchUpMax:       time.Duration(r.CatchUpMaxMs) * time.Millisecond,
		TimelineInterval: time.Duration(r.TimelineIntervalMs) * time.Millisecond,
	}
	if k := r.Keys; k != nil {
		t.Keys = keys.Space{Distribution: k.Distribution, Count: k.Count, Size: k.Size, Exponent: k.Exponent}
	}
	return t, nil
}

// resultMessage is the result message of a finished trial (the reverse of
// workerMessage.toResult).
func resultMessage(id int64, res *Result) (workerMessage, error) {
	m := workerMessage{
		Op: "result", ID: id, OK: true, Client: res.Client,
		Sent: res.Sent, Acked: res.Acked, Failed: res.Failed, Errors: res.Errors,
		ElapsedNs:         int64(res.Elapsed),
		Effective:         res.Effective,
		Metrics:           res.Metrics,
		UncompressedBytes: res.UncompressedBytes,
		CompressedBytes:   res.CompressedBytes,
		Batches:           res.Batches,
		ProduceRequests:   res.ProduceRequests,
		WarmupSent:        res.WarmupSent,
		WarmupAcked:       res.WarmupAcked,
		WarmupErrors:      res.WarmupErrors,
		MeasuredFromNs:    int64(res.MeasuredFrom),
		PartitionRecords:  res.PartitionRecords,
	}
	if w := res.Metrics[MetricWarmupFailed]; w > 0 {
		m.WarmupFailed = int64(w)
	}
	if !res.ClockStart.IsZero() {
		m.ClockStartEpochUs = res.ClockStart.UnixMicro()
	}
	var err error
	if m.Histogram, err = encodeHistogram(res.Latency); err != nil {
		return m, err
	}
	if res.LatencyIntended != nil {
		if m.HistogramIntended, err = encodeHistogram(res.LatencyIntended); err != nil {
			return m, err
		}
	}
	if res.WarmupLatency != nil {
		if m.HistogramWarmup, err = encodeHistogram(res.WarmupLatency); err != nil {
			return m, err
		}
	}
	for _, p := range res.Timeline {
		h, err := encodeHistogram(p.Latency)
		if err != nil {
			return m, err
		}
		retries, inflight := p.Retries, p.InFlight
		m.Timeline = append(m.Timeline, javaPoint{TNs: int64(p.Start), DurNs: int64(p.Length), Warmup: p.Warmup,
			Sent: p.Sent, Acked: p.Acked, AckedBytes: p.AckedBytes, Failed: p.Failed,
			Retries: &retries, InFlight: &inflight, Histogram: h})
	}
	if res.Acks != nil {
		m.AckedRanges, m.FailedRanges = res.Acks.Ranges()
		m.CommittedRanges, m.AbortedRanges = res.Acks.TxnRanges()
	}
	return m, nil
}

// encodeHistogram is h as the protocol carries it: base64 of its V2
// compressed encoding; "" for nil.
func encodeHistogram(h *hdrhistogram.Histogram) (string, error) {
	if h == nil {
		return "", nil
	}
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return "", fmt.Errorf("encode latency histogram: %w", err)
	}
	return string(b), nil
}
