package driver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/keys"
)

// serveWait bounds every wait of these tests for an answer of Serve; none
// takes more than milliseconds when Serve works.
const serveWait = 5 * time.Second

// serveOut is Serve's output: each Write is one line (Serve writes a line
// per call), decoded as the Java driver's reader decodes it.
type serveOut struct {
	t    *testing.T
	msgs chan *workerMessage
}

func (o *serveOut) Write(p []byte) (int, error) {
	if !strings.HasSuffix(string(p), "\n") || strings.Count(string(p), "\n") != 1 {
		o.t.Errorf("Serve wrote %q, not one line", p)
	}
	m, err := decodeWorkerMessage(p)
	if err != nil {
		o.t.Errorf("Serve wrote a line the driver cannot read: %v", err)
		return len(p), nil
	}
	o.msgs <- m
	return len(p), nil
}

// conversation is a Serve running on a pipe, as a worker process serves
// its stdin: the test writes requests and reads the answers as they come.
type conversation struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *serveOut
	done chan error
}

// converse starts svc serving a new conversation; the test's end closes
// its input and waits for Serve to return.
func converse(t *testing.T, svc WorkerService) *conversation {
	t.Helper()
	pr, pw := io.Pipe()
	c := &conversation{t: t, in: pw, out: &serveOut{t: t, msgs: make(chan *workerMessage, 100)}, done: make(chan error, 1)}
	go func() {
		err := svc.Serve(pr, c.out)
		_ = pr.Close() // a later write fails instead of blocking
		c.done <- err
	}()
	t.Cleanup(func() { _ = pw.Close(); _ = c.wait() })
	return c
}

// send writes lines to Serve's input.
func (c *conversation) send(lines ...string) {
	c.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(c.in, l+"\n"); err != nil {
			c.t.Fatalf("write %q: %v", l, err)
		}
	}
}

// request writes a request as the Java driver encodes it.
func (c *conversation) request(r workerRequest) {
	c.t.Helper()
	line, err := encodeWorkerRequest(r)
	if err != nil {
		c.t.Fatal(err)
	}
	c.send(strings.TrimSuffix(string(line), "\n"))
}

// next is Serve's next answer.
func (c *conversation) next() *workerMessage {
	c.t.Helper()
	select {
	case m := <-c.out.msgs:
		return m
	case <-time.After(serveWait):
		c.t.Fatalf("no answer within %s", serveWait)
		return nil
	}
}

// result skips progress messages to the next other answer, returning the
// progress messages skipped.
func (c *conversation) result() (*workerMessage, []*workerMessage) {
	c.t.Helper()
	var progress []*workerMessage
	for {
		m := c.next()
		if m.Op != "progress" {
			return m, progress
		}
		progress = append(progress, m)
	}
}

// end closes Serve's input (stdin's end) and waits for Serve to return.
func (c *conversation) end() error {
	c.t.Helper()
	_ = c.in.Close()
	return c.wait()
}

// wait waits for Serve to return, and checks it wrote nothing unread.
func (c *conversation) wait() error {
	c.t.Helper()
	select {
	case err := <-c.done:
		c.done <- err // for a second wait
		for {
			select {
			case m := <-c.out.msgs:
				c.t.Errorf("unexpected answer op=%s id=%d error=%q", m.Op, m.ID, m.Error)
			default:
				return err
			}
		}
	case <-time.After(serveWait):
		c.t.Fatalf("Serve did not return within %s", serveWait)
		return nil
	}
}

// roundTripTrial is a trial with every field the run request carries set
// to something other than its zero value.
func roundTripTrial() Trial {
	return Trial{
		Bootstrap:        []string{"127.0.0.1:9092", "127.0.0.1:9093"},
		Topic:            "lab-t1",
		Settings:         kafkaconf.Decode(map[string]string{"acks": "all", "batch.num.messages": "1000"}),
		Records:          100,
		RecordSize:       512,
		Payload:          "random",
		Rate:             2500.5,
		Seed:             42,
		Tag:              "run1-s0-t0",
		Keys:             keys.Space{Distribution: keys.Zipf, Count: 1000, Size: 8, Exponent: 1.2},
		StampHandoff:     true,
		Timeout:          90 * time.Second,
		Duration:         30 * time.Second,
		WarmupRecords:    10,
		Warmup:           2 * time.Second,
		CatchUp:          250 * time.Millisecond,
		CatchUpMax:       5 * time.Second,
		TimelineInterval: 500 * time.Millisecond,
	}
}

// TestRunRequestTrial: a trial encoded as a run request (newRunRequest,
// then JSON) is read back by the worker's side (workerRequest.trial) as the
// same trial, on every field the protocol carries.
func TestRunRequestTrial(t *testing.T) {
	for _, tc := range []struct {
		label string
		trial Trial
		// want is the trial the worker reads; the progress callback and
		// the producer count are not the protocol's.
		want Trial
	}{
		// Every carried field set.
		{"full", roundTripTrial(), roundTripTrial()},
		// A burst of zero records (a valid run), keyless, no properties:
		// the worker gets an empty property map, not nil.
		{"minimal", Trial{Bootstrap: []string{"b:9092"}, Topic: "t"},
			Trial{Bootstrap: []string{"b:9092"}, Topic: "t", Settings: kafkaconf.Decode(map[string]string{})}},
		// Durations under a millisecond are sent as one, not turned off
		// (but the timeout is whole milliseconds).
		{"sub-millisecond", Trial{Bootstrap: []string{"b:9092"}, Topic: "t", Settings: kafkaconf.Decode(map[string]string{}),
			Duration: time.Microsecond, Warmup: time.Microsecond, TimelineInterval: 1500 * time.Microsecond, Timeout: 2500 * time.Microsecond},
			Trial{Bootstrap: []string{"b:9092"}, Topic: "t", Settings: kafkaconf.Decode(map[string]string{}),
				Duration: time.Millisecond, Warmup: time.Millisecond, TimelineInterval: time.Millisecond, Timeout: 2 * time.Millisecond}},
		// The producer count and progress callback stay on the driver's side.
		{"not carried", Trial{Bootstrap: []string{"b:9092"}, Topic: "t", Settings: kafkaconf.Decode(map[string]string{}), Producers: 3, Progress: func(Progress) {}},
			Trial{Bootstrap: []string{"b:9092"}, Topic: "t", Settings: kafkaconf.Decode(map[string]string{})}},
	} {
		t.Run(tc.label, func(t *testing.T) {
			line, err := encodeWorkerRequest(newRunRequest(9, tc.trial))
			if err != nil {
				t.Fatal(err)
			}
			var req workerRequest
			if err := json.Unmarshal(line, &req); err != nil {
				t.Fatal(err)
			}
			if req.Op != "run" || req.ID != 9 {
				t.Errorf("op %q id %d, want run 9", req.Op, req.ID)
			}
			got, err := req.trial()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("trial read back:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestRunRequestTrialRefused: a run request without records, bootstrap or
// topic is refused.
func TestRunRequestTrialRefused(t *testing.T) {
	zero := int64(0)
	for _, tc := range []struct {
		req     workerRequest
		wantErr string
	}{
		// No records field at all (0 records is written as "records":0).
		{workerRequest{Op: "run", ID: 3, Bootstrap: "b:9092", Topic: "t"}, "run request 3 has no records"},
		// No bootstrap.
		{workerRequest{Op: "run", ID: 4, Topic: "t", Records: &zero}, "run request 4 needs bootstrap and topic"},
		// No topic.
		{workerRequest{Op: "run", ID: 5, Bootstrap: "b:9092", Records: &zero}, "run request 5 needs bootstrap and topic"},
	} {
		if _, err := tc.req.trial(); err == nil || err.Error() != tc.wantErr {
			t.Errorf("trial() of %+v: error %v, want %q", tc.req, err, tc.wantErr)
		}
	}
}

// latencies is a histogram of the values given, in µs.
func latencies(t *testing.T, values ...int64) *hdrhistogram.Histogram {
	t.Helper()
	h := NewLatencyHistogram()
	for _, v := range values {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// checkHistogram compares a decoded histogram with the one encoded.
func checkHistogram(t *testing.T, what string, got, want *hdrhistogram.Histogram) {
	t.Helper()
	switch {
	case got == nil || want == nil:
		if got != want {
			t.Errorf("%s: got %v, want %v", what, got, want)
		}
	case got.TotalCount() != want.TotalCount():
		t.Errorf("%s: %d values, want %d", what, got.TotalCount(), want.TotalCount())
	case got.ValueAtQuantile(99) != want.ValueAtQuantile(99) || got.ValueAtQuantile(50) != want.ValueAtQuantile(50):
		t.Errorf("%s: p50 %d p99 %d, want p50 %d p99 %d", what,
			got.ValueAtQuantile(50), got.ValueAtQuantile(99), want.ValueAtQuantile(50), want.ValueAtQuantile(99))
	case got.Max() != want.Max() || got.Min() != want.Min():
		t.Errorf("%s: min %d max %d, want min %d max %d", what, got.Min(), got.Max(), want.Min(), want.Max())
	}
}

// TestWorkerServeRoundTrip: a trial goes through the Java driver's encoding,
// WorkerService.Serve and the worker's Run, and its result back through
// Serve's result message and the driver's decoding, unchanged.
func TestWorkerServeRoundTrip(t *testing.T) {
	trial := roundTripTrial()
	clockStart := time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC)
	var lat, intended []int64
	for i := int64(1); i <= 97; i++ {
		lat = append(lat, i*100)
		intended = append(intended, i*100+5000)
	}
	acks := NewAckLog(110)
	for seq := int64(0); seq < 110; seq++ {
		switch seq {
		case 50, 51, 107:
			acks.Fail(seq)
		default:
			acks.Ack(seq)
		}
	}
	want := &Result{
		Client: "x 1", Sent: 100, Acked: 97, Failed: 3,
		Errors:            map[string]int64{"Local: Message timed out": 3},
		Elapsed:           1500 * time.Millisecond,
		Latency:           latencies(t, lat...),
		LatencyIntended:   latencies(t, intended...),
		UncompressedBytes: 60000, CompressedBytes: 30000, Batches: 12, ProduceRequests: 7,
		Effective:        map[string]string{"request.required.acks": "-1", "batch.num.messages": "1000", "sasl.password": "[hidden]"},
		Metrics:          map[string]float64{"batch-size-avg": 2500.25, "warmup-records-failed": 1},
		PartitionRecords: map[int32]int64{0: 50, 1: 47},
		Acks:             acks,
		WarmupSent:       10, WarmupAcked: 9,
		ClockStart:   clockStart,
		MeasuredFrom: 2*time.Second + 123456,
		Timeline: []Interval{
			{Start: 0, Length: 500 * time.Millisecond, Warmup: true, Sent: 10, Acked: 9, AckedBytes: 4608, Retries: 0, InFlight: 3, Latency: latencies(t, 10, 20, 30)},
			{Start: 500 * time.Millisecond, Length: 500 * time.Millisecond, Sent: 60, Acked: 57, Failed: 2, AckedBytes: 29184, Retries: -1, InFlight: -1, Latency: latencies(t, lat[:57]...)},
			{Start: time.Second, Length: 250 * time.Millisecond, Sent: 40, Acked: 40, Failed: 1, AckedBytes: 20480, Retries: 4, InFlight: 1, Latency: latencies(t, lat[57:]...)},
		},
	}

	var (
		mu  sync.Mutex
		got []Trial
	)
	c := converse(t, WorkerService{Client: "x 1", Run: func(ctx context.Context, tr Trial) (*Result, error) {
		mu.Lock()
		got = append(got, tr)
		mu.Unlock()
		return want, nil
	}})
	c.send(`{"op":"hello"}`)
	c.request(newRunRequest(1, trial))

	hello := c.next()
	if hello.Op != "hello" || hello.Client != "x 1" || hello.Java != "" {
		t.Errorf("hello answer op=%q client=%q java=%q, want hello, x 1, no runtime", hello.Op, hello.Client, hello.Java)
	}
	m, progress := c.result()
	if len(progress) != 0 {
		t.Errorf("%d progress messages from a Run that reports none", len(progress))
	}
	c.send(`{"op":"exit"}`)
	if err := c.wait(); err != nil {
		t.Errorf("Serve = %v after exit", err)
	}

	// The worker's Run got the trial the driver sent.
	if len(got) != 1 {
		t.Fatalf("Run called %d times, want once", len(got))
	}
	if got[0].Progress == nil {
		t.Error("Run got no progress callback")
	}
	got[0].Progress = nil
	if !reflect.DeepEqual(got[0], trial) {
		t.Errorf("Run got\n %+v\nwant %+v", got[0], trial)
	}

	// The result message.
	if m.Op != "result" || m.ID != 1 || !m.OK || m.Error != "" {
		t.Fatalf("result op=%q id=%d ok=%v error=%q, want result 1 ok", m.Op, m.ID, m.OK, m.Error)
	}
	if m.WarmupFailed != 1 {
		t.Errorf("warmup_failed = %d, want the warmup-records-failed metric, 1", m.WarmupFailed)
	}
	if m.ClockStartEpochUs != clockStart.UnixMicro() {
		t.Errorf("clock_start_epoch_us = %d, want %d", m.ClockStartEpochUs, clockStart.UnixMicro())
	}

	// What the driver makes of it.
	res, err := m.toResult(trial)
	if err != nil {
		t.Fatal(err)
	}
	type counts struct {
		Client                                     string
		Sent, Acked, Failed, WarmupSent, WarmupAck int64
		Uncompressed, Compressed, Batches, Reqs    int64
		Elapsed, MeasuredFrom                      time.Duration
	}
	countsOf := func(r *Result) counts {
		return counts{r.Client, r.Sent, r.Acked, r.Failed, r.WarmupSent, r.WarmupAcked,
			r.UncompressedBytes, r.CompressedBytes, r.Batches, r.ProduceRequests, r.Elapsed, r.MeasuredFrom}
	}
	if g, w := countsOf(res), countsOf(want); g != w {
		t.Errorf("counts:\n got %+v\nwant %+v", g, w)
	}
	if !maps.Equal(res.Errors, want.Errors) {
		t.Errorf("errors = %v, want %v", res.Errors, want.Errors)
	}
	if !maps.Equal(res.Effective, want.Effective) {
		t.Errorf("effective = %v, want %v", res.Effective, want.Effective)
	}
	if !maps.Equal(res.Metrics, want.Metrics) {
		t.Errorf("metrics = %v, want %v", res.Metrics, want.Metrics)
	}
	if !maps.Equal(res.PartitionRecords, want.PartitionRecords) {
		t.Errorf("partition records = %v, want %v", res.PartitionRecords, want.PartitionRecords)
	}
	checkHistogram(t, "latency", res.Latency, want.Latency)
	checkHistogram(t, "intended latency", res.LatencyIntended, want.LatencyIntended)
	// The clock to the µs: the protocol carries no finer.
	if !res.ClockStart.Equal(clockStart.Truncate(time.Microsecond)) {
		t.Errorf("clock start %v, want %v", res.ClockStart, clockStart.Truncate(time.Microsecond))
	}
	if d := clockStart.Sub(res.ClockStart); d < 0 || d >= time.Microsecond {
		t.Errorf("clock start off by %v", d)
	}
	if len(res.Timeline) != len(want.Timeline) {
		t.Fatalf("%d timeline points, want %d", len(res.Timeline), len(want.Timeline))
	}
	for i, p := range res.Timeline {
		w := want.Timeline[i]
		gl, wl := p.Latency, w.Latency
		p.Latency, w.Latency = nil, nil
		if p != w {
			t.Errorf("timeline point %d:\n got %+v\nwant %+v", i, p, w)
		}
		checkHistogram(t, "timeline latency", gl, wl)
	}
	if res.Acks == nil {
		t.Fatal("no ack log for a tagged trial")
	}
	for seq := int64(0); seq < 112; seq++ {
		if res.Acks.Acked(seq) != acks.Acked(seq) || res.Acks.Failed(seq) != acks.Failed(seq) {
			t.Errorf("seq %d: acked %v failed %v, want acked %v failed %v",
				seq, res.Acks.Acked(seq), res.Acks.Failed(seq), acks.Acked(seq), acks.Failed(seq))
		}
	}
}

// TestWorkerServeNilHistograms: a result without an intended histogram
// (an unthrottled trial) and a timeline point without one come back as
// the driver's reader makes them: no intended histogram, an empty point
// histogram.
func TestWorkerServeNilHistograms(t *testing.T) {
	trial := Trial{Bootstrap: []string{"b:9092"}, Topic: "t", Records: 1, TimelineInterval: time.Second}
	c := converse(t, WorkerService{Client: "x 1", Run: func(context.Context, Trial) (*Result, error) {
		return &Result{Client: "x 1", Sent: 1, Acked: 1, Latency: latencies(t, 7),
			Timeline: []Interval{{Length: time.Second, Sent: 1, Acked: 1, Retries: -1, InFlight: -1}}}, nil
	}})
	c.request(newRunRequest(1, trial))
	m, _ := c.result()
	res, err := m.toResult(trial)
	if err != nil {
		t.Fatal(err)
	}
	if res.LatencyIntended != nil {
		t.Errorf("intended latency %v, want none", res.LatencyIntended)
	}
	if res.Latency.TotalCount() != 1 || res.Latency.Max() != 7 {
		t.Errorf("latency %d values max %d, want 1 value of 7µs", res.Latency.TotalCount(), res.Latency.Max())
	}
	if len(res.Timeline) != 1 || res.Timeline[0].Latency == nil || res.Timeline[0].Latency.TotalCount() != 0 {
		t.Errorf("timeline %+v, want one point with an empty histogram", res.Timeline)
	}
	if res.Acks != nil {
		t.Error("an untagged trial has an ack log")
	}
	if err := c.end(); err != nil {
		t.Errorf("Serve = %v at the input's end", err)
	}
}

// TestWorkerServeAnswers: what Serve answers to each request that is not a
// successful run.
func TestWorkerServeAnswers(t *testing.T) {
	failed := errors.New("Local: Unknown topic")
	svc := WorkerService{
		Client:  "x 1",
		Runtime: "rt 9",
		Run: func(_ context.Context, tr Trial) (*Result, error) {
			if tr.Topic == "missing" {
				return nil, failed
			}
			return &Result{Client: "x 1", Sent: tr.Records, Acked: tr.Records}, nil
		},
		Hint: func(err error) string {
			if errors.Is(err, failed) {
				return "create the topic"
			}
			return ""
		},
	}
	type answer struct {
		op      string
		id      int64
		ok      bool
		errText string // substring of error; "" for none
		hint    string
	}
	for _, tc := range []struct {
		label string
		lines []string
		want  []answer
	}{
		// hello names the client and its runtime.
		{"hello", []string{`{"op":"hello","id":2}`}, []answer{{op: "hello", id: 2}}},
		// An unknown op gets an error naming it.
		{"unknown op", []string{`{"op":"frobnicate","id":3}`}, []answer{{op: "error", id: 3, errText: `unknown op "frobnicate"`}}},
		// A line that is not JSON gets an error quoting it.
		{"garbage", []string{`not json`}, []answer{{op: "error", errText: `not a request: "not json`}}},
		// Nor is a JSON value other than a request.
		{"array", []string{`[1,2]`}, []answer{{op: "error", errText: "not a request"}}},
		// A JSON object without op.
		{"no op", []string{`{"id":4}`}, []answer{{op: "error", errText: "not a request"}}},
		// Blank lines are skipped.
		{"blank lines", []string{``, `   `, `{"op":"hello"}`}, []answer{{op: "hello"}}},
		// cancel when idle is ignored; the next request is answered.
		{"idle cancel", []string{`{"op":"cancel","id":1}`, `{"op":"hello","id":5}`}, []answer{{op: "hello", id: 5}}},
		// A run request without records is refused in its result.
		{"run without records", []string{`{"op":"run","id":6,"bootstrap":"b:9092","topic":"t"}`},
			[]answer{{op: "result", id: 6, errText: "run request 6 has no records"}}},
		// A run whose Run fails: ok false, the error and the hint.
		{"failed run", []string{`{"op":"run","id":7,"bootstrap":"b:9092","topic":"missing","records":5}`},
			[]answer{{op: "result", id: 7, errText: "Local: Unknown topic", hint: "create the topic"}}},
		// Answers come in request order, after a run too.
		{"order", []string{`{"op":"run","id":8,"bootstrap":"b:9092","topic":"t","records":5}`, `{"op":"nope","id":9}`, `{"op":"hello","id":10}`},
			[]answer{{op: "result", id: 8, ok: true}, {op: "error", id: 9, errText: "unknown op"}, {op: "hello", id: 10}}},
	} {
		t.Run(tc.label, func(t *testing.T) {
			c := converse(t, svc)
			c.send(tc.lines...)
			for i, w := range tc.want {
				m := c.next()
				if m.Op != w.op || m.ID != w.id || m.OK != w.ok || m.Hint != w.hint ||
					(w.errText == "") != (m.Error == "") || !strings.Contains(m.Error, w.errText) {
					t.Errorf("answer %d: op=%q id=%d ok=%v error=%q hint=%q; want op=%q id=%d ok=%v error with %q hint=%q",
						i, m.Op, m.ID, m.OK, m.Error, m.Hint, w.op, w.id, w.ok, w.errText, w.hint)
				}
				if m.Op == "hello" && (m.Client != "x 1" || m.Java != "rt 9") {
					t.Errorf("hello client=%q java=%q, want x 1 and rt 9", m.Client, m.Java)
				}
				if m.Op == "result" && m.Client != "x 1" {
					t.Errorf("result client=%q, want x 1", m.Client)
				}
			}
			if err := c.end(); err != nil {
				t.Errorf("Serve = %v at the input's end", err)
			}
		})
	}
}

// TestWorkerServeFailedResult: a failed run's result becomes the driver's
// *JavaError with the worker's message and hint.
func TestWorkerServeFailedResult(t *testing.T) {
	trial := Trial{Bootstrap: []string{"b:9092"}, Topic: "t", Records: 5, Tag: "x"}
	c := converse(t, WorkerService{Client: "x 1",
		Run: func(context.Context, Trial) (*Result, error) {
			return nil, errors.New("Broker: Topic authorization failed")
		},
		Hint: func(error) string { return "grant Write on the topic" },
	})
	c.request(newRunRequest(3, trial))
	m, _ := c.result()
	res, err := m.toResult(trial)
	var je *JavaError
	if !errors.As(err, &je) {
		t.Fatalf("toResult = %v, %v; want a *JavaError", res, err)
	}
	if je.Message != "Broker: Topic authorization failed" || je.Hint != "grant Write on the topic" {
		t.Errorf("JavaError message %q hint %q, want the Run's error and the hint", je.Message, je.Hint)
	}
	if m.ID != 3 || m.OK {
		t.Errorf("result id %d ok %v, want 3, false", m.ID, m.OK)
	}
}

// TestWorkerServeProgress: Run's progress reports become progress lines
// under the run request's id, before its result, and the driver's reader
// gets the same Progress back.
func TestWorkerServeProgress(t *testing.T) {
	reports := []Progress{
		{Elapsed: time.Second, Sent: 100, Acked: 90, Failed: 1, WindowCount: 90, WindowLatencySumUs: 45000, WindowLatencyMaxUs: 2000},
		{Elapsed: 2 * time.Second, Sent: 200, Acked: 195, Failed: 2, WindowCount: 105, WindowLatencySumUs: 52000, WindowLatencyMaxUs: 1500},
	}
	trial := Trial{Bootstrap: []string{"b:9092"}, Topic: "t", Records: 200}
	c := converse(t, WorkerService{Client: "x 1", Run: func(_ context.Context, tr Trial) (*Result, error) {
		for _, p := range reports {
			tr.Progress(p)
		}
		return &Result{Client: "x 1", Sent: 200, Acked: 198, Failed: 2}, nil
	}})
	c.request(newRunRequest(4, trial))
	m, progress := c.result()
	if m.Op != "result" || m.ID != 4 || !m.OK {
		t.Fatalf("answer op=%q id=%d ok=%v error=%q, want result 4 ok", m.Op, m.ID, m.OK, m.Error)
	}
	if len(progress) != len(reports) {
		t.Fatalf("%d progress lines, want %d", len(progress), len(reports))
	}
	for i, pm := range progress {
		if pm.ID != 4 {
			t.Errorf("progress %d: id %d, want the request's, 4", i, pm.ID)
		}
		if got := pm.progress(); got != reports[i] {
			t.Errorf("progress %d:\n got %+v\nwant %+v", i, got, reports[i])
		}
	}
}

// TestWorkerServeProducers: a run request with two producers runs both
// through Run, each with its share, and answers one result holding each
// producer's under its own id, which the driver merges.
func TestWorkerServeProducers(t *testing.T) {
	trial := Trial{Bootstrap: []string{"b:9092"}, Topic: "t", Settings: kafkaconf.Decode(map[string]string{"acks": "all"}), Records: 101,
		WarmupRecords: 10, Rate: 1000, Seed: 7, Tag: "run1", Producers: 2, Timeout: time.Minute}
	var (
		mu     sync.Mutex
		shares = map[string]Trial{}
	)
	run := func(_ context.Context, tr Trial) (*Result, error) {
		mu.Lock()
		shares[tr.Tag] = tr
		mu.Unlock()
		all := tr.WarmupRecords + tr.Records
		acks := NewAckLog(all)
		for seq := range all {
			acks.Ack(seq)
		}
		var lat []int64
		for i := range tr.Records {
			lat = append(lat, 1000+i)
		}
		tr.Progress(Progress{Elapsed: time.Second, Sent: tr.Records, Acked: tr.Records, WindowCount: tr.Records})
		return &Result{Client: "x 1", Sent: tr.Records, Acked: tr.Records, WarmupSent: tr.WarmupRecords, WarmupAcked: tr.WarmupRecords,
			Latency: latencies(t, lat...), Acks: acks, Elapsed: time.Second, Batches: 3, PartitionRecords: map[int32]int64{0: tr.Records}}, nil
	}
	c := converse(t, WorkerService{Client: "x 1", Run: run})
	req := newSharedRunRequest(7, trial)
	c.request(req)
	m, progress := c.result()

	// Each producer's progress under its own id.
	ids := map[int64]int{}
	for _, p := range progress {
		ids[p.ID]++
	}
	if !maps.Equal(ids, map[int64]int{8: 1, 9: 1}) {
		t.Errorf("progress ids %v, want one each of 8 and 9", ids)
	}
	// Each producer ran its share.
	for i := range 2 {
		want := trial.share(i, 2)
		got, ok := shares[want.Tag]
		if !ok {
			t.Errorf("producer %d (tag %s) did not run; %d shares ran", i, want.Tag, len(shares))
			continue
		}
		got.Progress, want.Progress = nil, nil
		want.Producers = 0 // not carried; 0 is one
		if !reflect.DeepEqual(got, want) {
			t.Errorf("producer %d ran\n %+v\nwant %+v", i, got, want)
		}
	}

	if m.ID != 7 || !m.OK || len(m.Producers) != 2 {
		t.Fatalf("result id %d ok %v with %d producers, want 7, true, 2", m.ID, m.OK, len(m.Producers))
	}
	for i, pm := range m.Producers {
		if pm.ID != int64(8+i) || !pm.OK {
			t.Errorf("producer result %d: id %d ok %v, want %d, true", i, pm.ID, pm.OK, 8+i)
		}
	}
	res, err := m.toSharedResult(trial)
	if err != nil {
		t.Fatal(err)
	}
	if res.Sent != 101 || res.Acked != 101 || res.WarmupSent != 10 || res.Batches != 6 || res.Latency.TotalCount() != 101 {
		t.Errorf("merged sent %d acked %d warm-up %d batches %d latencies %d, want 101, 101, 10, 6, 101",
			res.Sent, res.Acked, res.WarmupSent, res.Batches, res.Latency.TotalCount())
	}
	if res.PartitionRecords[0] != 101 {
		t.Errorf("merged partition records %v, want 101 in partition 0", res.PartitionRecords)
	}
	if len(res.Producers) != 2 {
		t.Fatalf("%d producer results, want 2", len(res.Producers))
	}
	for i, p := range res.Producers {
		share := trial.share(i, 2)
		if p.Tag != share.Tag || p.Sent != share.Records || p.WarmupSent != share.WarmupRecords {
			t.Errorf("producer %d: tag %q sent %d warm-up %d, want %q, %d, %d", i, p.Tag, p.Sent, p.WarmupSent, share.Tag, share.Records, share.WarmupRecords)
		}
		if p.Acks == nil {
			t.Errorf("producer %d: no ack log", i)
			continue
		}
		all := share.WarmupRecords + share.Records
		for seq := range all + 2 {
			if p.Acks.Acked(seq) != (seq < all) {
				t.Errorf("producer %d seq %d: acked %v, want %v", i, seq, p.Acks.Acked(seq), seq < all)
			}
		}
	}
	if err := c.end(); err != nil {
		t.Errorf("Serve = %v", err)
	}
}

// TestWorkerServeProducerFails: one producer's failure is its own
// result's; the driver fails the trial naming the producer.
func TestWorkerServeProducerFails(t *testing.T) {
	trial := Trial{Bootstrap: []string{"b:9092"}, Topic: "t", Records: 10, Tag: "run1", Producers: 2}
	c := converse(t, WorkerService{Client: "x 1", Run: func(_ context.Context, tr Trial) (*Result, error) {
		if tr.Tag == "run1/p1" {
			return nil, errors.New("Local: Queue full")
		}
		return &Result{Client: "x 1", Sent: tr.Records, Acked: tr.Records}, nil
	}})
	c.request(newSharedRunRequest(1, trial))
	m, _ := c.result()
	if !m.OK || len(m.Producers) != 2 || !m.Producers[0].OK || m.Producers[1].OK || m.Producers[1].Error != "Local: Queue full" {
		t.Fatalf("result ok %v producers %d; want ok with producer 1 ok and producer 2 failed", m.OK, len(m.Producers))
	}
	if _, err := m.toSharedResult(trial); err == nil || err.Error() != "producer 2 of 2: Local: Queue full" {
		t.Errorf("toSharedResult error %v, want producer 2 of 2: Local: Queue full", err)
	}
}

// TestWorkerServeCancel: cancel, exit and the input's end cancel the
// context of the running trial; its result is still written, failed as
// cancelled, whatever Run returned. After cancel the worker serves on.
func TestWorkerServeCancel(t *testing.T) {
	for _, tc := range []struct {
		label string
		stop  func(c *conversation)
		// returns says Run returns a Result, not ctx's error, once cancelled.
		returns bool
		// servesOn says the worker answers requests after the trial.
		servesOn bool
	}{
		// The driver's cancel of the running trial; Run returns ctx's error.
		{"cancel", func(c *conversation) { c.send(`{"op":"cancel","id":1}`) }, false, true},
		// Run ignores the cancellation and returns a result: Serve fails it anyway.
		{"cancel, Run returns a result", func(c *conversation) { c.send(`{"op":"cancel","id":1}`) }, true, true},
		// exit during a run.
		{"exit", func(c *conversation) { c.send(`{"op":"exit"}`) }, false, false},
		// The end of the input (prodlab gone).
		{"end of input", func(c *conversation) { _ = c.in.Close() }, false, false},
	} {
		t.Run(tc.label, func(t *testing.T) {
			started := make(chan struct{})
			ctxErr := make(chan error, 1)
			c := converse(t, WorkerService{Client: "x 1", Run: func(ctx context.Context, tr Trial) (*Result, error) {
				if tr.Topic != "block" {
					return &Result{Client: "x 1"}, nil
				}
				close(started)
				select {
				case <-ctx.Done():
					ctxErr <- ctx.Err()
				case <-time.After(serveWait):
					ctxErr <- nil
					return nil, errors.New("Run's context was not cancelled")
				}
				if tc.returns {
					return &Result{Client: "x 1", Sent: 1}, nil
				}
				return nil, ctx.Err()
			}})
			c.request(newRunRequest(1, Trial{Bootstrap: []string{"b:9092"}, Topic: "block", Records: 1}))
			select {
			case <-started:
			case <-time.After(serveWait):
				t.Fatal("Run did not start")
			}
			tc.stop(c)
			if err := <-ctxErr; !errors.Is(err, context.Canceled) {
				t.Errorf("Run's context ended with %v, want context.Canceled", err)
			}
			m := c.next()
			if m.Op != "result" || m.ID != 1 || m.OK || !strings.Contains(m.Error, "cancel") {
				t.Errorf("answer op=%q id=%d ok=%v error=%q; want result 1 failed as cancelled", m.Op, m.ID, m.OK, m.Error)
			}
			if tc.servesOn {
				c.request(newRunRequest(2, Trial{Bootstrap: []string{"b:9092"}, Topic: "t", Records: 1}))
				if m := c.next(); m.Op != "result" || m.ID != 2 || !m.OK {
					t.Errorf("after cancel: op=%q id=%d ok=%v error=%q; want result 2 ok", m.Op, m.ID, m.OK, m.Error)
				}
				if err := c.end(); err != nil {
					t.Errorf("Serve = %v", err)
				}
				return
			}
			if err := c.wait(); err != nil {
				t.Errorf("Serve = %v", err)
			}
		})
	}
}

// failingReader fails after its lines.
type failingReader struct {
	r   io.Reader
	err error
}

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, f.err
	}
	return n, err
}

// TestWorkerServeReadError: a failing input ends Serve with its error,
// after answering what was read; the input's end or exit is no error.
func TestWorkerServeReadError(t *testing.T) {
	broken := errors.New("read |0: bad file descriptor")
	for _, tc := range []struct {
		label   string
		in      io.Reader
		wantErr error
		hellos  int
	}{
		// The input fails: Serve returns the error after answering hello.
		{"read error", &failingReader{strings.NewReader("{\"op\":\"hello\"}\n"), broken}, broken, 1},
		// A last line without a newline is still read.
		{"no final newline", strings.NewReader(`{"op":"hello"}`), nil, 1},
		// exit ends it; what follows is not read.
		{"exit", strings.NewReader("{\"op\":\"hello\"}\n{\"op\":\"exit\"}\n{\"op\":\"hello\"}\n"), nil, 1},
	} {
		t.Run(tc.label, func(t *testing.T) {
			out := &serveOut{t: t, msgs: make(chan *workerMessage, 10)}
			err := WorkerService{Client: "x 1"}.Serve(tc.in, out)
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("Serve = %v, want %v", err, tc.wantErr)
			}
			close(out.msgs)
			n := 0
			for m := range out.msgs {
				if m.Op != "hello" {
					t.Errorf("answer op=%q error=%q, want hello", m.Op, m.Error)
				}
				n++
			}
			if n != tc.hellos {
				t.Errorf("%d answers, want %d", n, tc.hellos)
			}
		})
	}
}

// TestAckLogRanges: the sorted [from, to) runs of acknowledged and failed
// sequence numbers, as the protocol carries them, and read back by
// fillRanges into the same log.
func TestAckLogRanges(t *testing.T) {
	for _, tc := range []struct {
		label               string
		acked, failed       []int64
		wantAcked, wantFail [][2]int64
	}{
		// Empty log: no ranges.
		{"empty", nil, nil, nil, nil},
		// One run from 0.
		{"one run", []int64{0, 1, 2}, nil, [][2]int64{{0, 3}}, nil},
		// Gaps split runs; failed runs apart.
		{"gaps", []int64{0, 1, 3, 4, 5, 9}, []int64{2, 6, 7}, [][2]int64{{0, 2}, {3, 6}, {9, 10}}, [][2]int64{{2, 3}, {6, 8}}},
		// A run ending on a word's last bit, and one across words.
		{"word edges", []int64{62, 63, 64, 65, 127}, []int64{0}, [][2]int64{{62, 66}, {127, 128}}, [][2]int64{{0, 1}}},
		// Negative sequence numbers are ignored.
		{"negative", []int64{-1, 5}, []int64{-3}, [][2]int64{{5, 6}}, nil},
	} {
		a := NewAckLog(8)
		for _, s := range tc.acked {
			a.Ack(s)
		}
		for _, s := range tc.failed {
			a.Fail(s)
		}
		acked, failed := a.Ranges()
		if !reflect.DeepEqual(acked, tc.wantAcked) || !reflect.DeepEqual(failed, tc.wantFail) {
			t.Errorf("%s: Ranges() = %v, %v; want %v, %v", tc.label, acked, failed, tc.wantAcked, tc.wantFail)
		}
		// Read back, the ranges give the same log.
		b := NewAckLog(0)
		if err := fillRanges(b.Ack, acked, 1<<20); err != nil {
			t.Fatal(err)
		}
		if err := fillRanges(b.Fail, failed, 1<<20); err != nil {
			t.Fatal(err)
		}
		for s := int64(0); s < 130; s++ {
			if a.Acked(s) != b.Acked(s) || a.Failed(s) != b.Failed(s) {
				t.Errorf("%s: seq %d read back acked %v failed %v, want %v %v", tc.label, s, b.Acked(s), b.Failed(s), a.Acked(s), a.Failed(s))
			}
		}
	}
}

// TestBuiltinWorker: prodlab's own binary serves a worker for the kinds
// whose library it holds (franz-go) and for no other.
func TestBuiltinWorker(t *testing.T) {
	if svc, ok := BuiltinWorker("franz-go"); !ok || svc.Run == nil || !strings.HasPrefix(svc.Client, "franz-go ") {
		t.Errorf("franz-go: %+v, %v", svc, ok)
	}
	for _, c := range []string{"librdkafka", "java", "java@3.9.1", "nope"} {
		if _, ok := BuiltinWorker(c); ok {
			t.Errorf("%s: a worker in prodlab's binary", c)
		}
	}
}
