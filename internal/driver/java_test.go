package driver

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/testtier"
)

// readJavaTestdata reads testdata/java/name, trimmed of its trailing newline.
func readJavaTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "java", name))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.TrimRight(b, "\n")
}

func TestJavaRunRequestEncoding(t *testing.T) {
	tr := Trial{
		Bootstrap:  []string{"127.0.0.1:9092", "127.0.0.1:9093"},
		Topic:      "t",
		Settings:   kafkaconf.Decode(map[string]string{"linger.ms": "5", "acks": "all"}),
		Records:    100000,
		RecordSize: 1024,
		Payload:    "json",
		Seed:       1,
		Tag:        "run1-s0-t0",
		Timeout:    10 * time.Minute,
	}
	got, err := encodeWorkerRequest(newRunRequest(1, tr))
	if err != nil {
		t.Fatal(err)
	}
	want := append(readJavaTestdata(t, "run_request.json"), '\n')
	if !bytes.Equal(got, want) {
		t.Errorf("run request:\n got %s\nwant %s", got, want)
	}

	// Zero records is a valid run and must still be sent.
	got, _ = encodeWorkerRequest(newRunRequest(2, Trial{Topic: "t"}))
	if !bytes.Contains(got, []byte(`"records":0`)) {
		t.Errorf("zero records dropped: %s", got)
	}
	// Other ops carry only what they need.
	got, _ = encodeWorkerRequest(workerRequest{Op: "hello"})
	if string(got) != "{\"op\":\"hello\"}\n" {
		t.Errorf("hello = %q", got)
	}
}

func TestJavaDecodeMessages(t *testing.T) {
	tests := []struct {
		file string
		op   string
		id   int64
		ok   bool
	}{
		{"hello.json", "hello", 0, false},                // handshake
		{"progress.json", "progress", 1, false},          // progress during a run
		{"result_ok.json", "result", 1, true},            // finished trial
		{"result_config_error.json", "result", 2, false}, // client rejected the configuration
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			m, err := decodeWorkerMessage(readJavaTestdata(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if m.Op != tt.op || m.ID != tt.id || m.OK != tt.ok {
				t.Errorf("got op=%s id=%d ok=%v, want op=%s id=%d ok=%v", m.Op, m.ID, m.OK, tt.op, tt.id, tt.ok)
			}
		})
	}
	m, _ := decodeWorkerMessage(readJavaTestdata(t, "hello.json"))
	if m.Client != "kafka-clients 3.9.1" || m.Java != "17.0.15" {
		t.Errorf("hello = %+v", m)
	}
	m, _ = decodeWorkerMessage(readJavaTestdata(t, "progress.json"))
	want := Progress{Elapsed: 2001 * time.Millisecond, Sent: 52000, Acked: 51873, Failed: 2,
		WindowCount: 25000, WindowLatencySumUs: 75000000, WindowLatencyMaxUs: 9100}
	if got := m.progress(); got != want {
		t.Errorf("progress = %+v, want %+v", got, want)
	}

	for _, bad := range []string{
		`not json`,       // garbage
		`{"id":1}`,       // no op
		`{"op":"result"`, // truncated
	} {
		if _, err := decodeWorkerMessage([]byte(bad)); err == nil {
			t.Errorf("decode %q: no error", bad)
		}
	}
}

func TestJavaResultOK(t *testing.T) {
	m, err := decodeWorkerMessage(readJavaTestdata(t, "result_ok.json"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.toResult(Trial{Records: 1010, Tag: "run1-s0-t0"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Client != "kafka-clients 3.9.1" || res.Sent != 1010 || res.Acked != 1005 || res.Failed != 5 {
		t.Errorf("counts: %+v", res)
	}
	if res.Elapsed != 1500*time.Millisecond {
		t.Errorf("elapsed = %v", res.Elapsed)
	}
	if res.Errors["TimeoutException: Expiring 5 record(s)"] != 5 {
		t.Errorf("errors = %v", res.Errors)
	}
	if res.CompressedBytes != 160005 || res.UncompressedBytes != 640020 || res.Batches != 10 || res.ProduceRequests != 10 {
		t.Errorf("bytes/batches: %+v", res)
	}
	if res.Effective["acks"] != "-1" || res.Effective["ssl.key.password"] != "[hidden]" {
		t.Errorf("effective = %v", res.Effective)
	}
	if res.Metrics["requests-in-flight"] != 3 || res.Metrics["batch-size-avg"] != 16000.5 {
		t.Errorf("metrics = %v", res.Metrics)
	}
	if res.Latency.TotalCount() != 1010 {
		t.Errorf("latency count = %d", res.Latency.TotalCount())
	}
	for seq := int64(0); seq < 1010; seq++ {
		wantAcked := seq < 500 || seq >= 505
		if res.Acks.Acked(seq) != wantAcked || res.Acks.Failed(seq) == wantAcked {
			t.Fatalf("seq %d: acked=%v failed=%v, want acked=%v", seq, res.Acks.Acked(seq), res.Acks.Failed(seq), wantAcked)
		}
	}

	// Without a tag there is no ack log.
	res, err = m.toResult(Trial{Records: 1010})
	if err != nil || res.Acks != nil {
		t.Errorf("untagged: acks=%v err=%v", res.Acks, err)
	}
	// Ranges beyond the trial's records are a protocol error.
	if _, err := m.toResult(Trial{Records: 100, Tag: "x"}); err == nil {
		t.Error("out-of-range acked_ranges accepted")
	}
}

func TestJavaConfigErrorResult(t *testing.T) {
	m, err := decodeWorkerMessage(readJavaTestdata(t, "result_config_error.json"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.toResult(Trial{})
	var je *JavaError
	if !errors.As(err, &je) {
		t.Fatalf("err = %T %v, want *JavaError", err, err)
	}
	want := "Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence." +
		" (hint: the idempotent producer needs acks=all: set acks=all or enable.idempotence=false)"
	if err.Error() != want {
		t.Errorf("error:\n got %s\nwant %s", err, want)
	}
}

// TestDecodeJavaHistogram decodes a histogram encoded by Java's HdrHistogram
// 2.2.2 (testdata/java/GenHistogram.java says how it was made).
func TestDecodeJavaHistogram(t *testing.T) {
	h, err := decodeJavaHistogram(string(readJavaTestdata(t, "histogram.b64")))
	if err != nil {
		t.Fatal(err)
	}
	if h.TotalCount() != 1010 {
		t.Errorf("count = %d, want 1010", h.TotalCount())
	}
	if p50 := h.ValueAtQuantile(50); p50 < 504 || p50 > 506 {
		t.Errorf("p50 = %d, want ~505", p50)
	}
	if mx := h.Max(); mx < 4995 || mx > 5005 {
		t.Errorf("max = %d, want ~5000", mx)
	}
	if mn := h.Min(); mn != 1 {
		t.Errorf("min = %d, want 1", mn)
	}
	if h.SignificantFigures() != 3 || h.HighestTrackableValue() != NewLatencyHistogram().HighestTrackableValue() {
		t.Errorf("shape: %d figures, highest %d", h.SignificantFigures(), h.HighestTrackableValue())
	}
	if _, err := decodeJavaHistogram("bm90IGEgaGlzdG9ncmFt"); err == nil {
		t.Error("garbage histogram decoded")
	}
	if h, err := decodeJavaHistogram(""); err != nil || h.TotalCount() != 0 {
		t.Errorf("empty histogram: %v %v", h, err)
	}
}

func TestJavaCheck(t *testing.T) {
	j := &Worker{name: "java@3.9.1", version: "3.9.1", check: CheckJava}
	if j.Name() != "java@3.9.1" {
		t.Errorf("name = %s", j.Name())
	}
	tests := []struct {
		props   map[string]string
		wantErr string
	}{
		{map[string]string{"acks": "all", "linger.ms": "5"}, ""},  // Java properties pass; the client validates them
		{map[string]string{"transaction.duration.ms": "100"}, ""}, // honoured by the worker
		{map[string]string{"max.buffered.records": "10"},
			"producer property max.buffered.records is not supported by client java@3.9.1: "}, // franz-go only
	}
	for _, tt := range tests {
		err := j.Check(tt.props)
		if tt.wantErr == "" && err != nil {
			t.Errorf("Check(%v) = %v", tt.props, err)
		}
		if tt.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.wantErr)) {
			t.Errorf("Check(%v) = %v, want prefix %q", tt.props, err, tt.wantErr)
		}
	}
}

func TestTailWriter(t *testing.T) {
	w := &tailWriter{max: 5}
	_, _ = w.Write([]byte("abc"))
	_, _ = w.Write([]byte("defg"))
	if w.String() != "cdefg" {
		t.Errorf("tail = %q", w.String())
	}
}

// Integration tests: they build java/worker with Maven and start real JVMs.

var (
	workerOnce sync.Once
	workerJar  string
	workerErr  error
)

// buildWorker builds java/worker once per test binary and returns the jar.
func buildWorker(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the Java worker and starts a JVM")
	}
	for _, tool := range []string{"mvn", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: %v", tool, err)
		}
	}
	workerOnce.Do(func() {
		pom, err := filepath.Abs(filepath.Join("..", "..", "java", "worker", "pom.xml"))
		if err != nil {
			workerErr = err
			return
		}
		start := time.Now()
		cmd := exec.Command("mvn", "-B", "-q", "-DskipTests", "-f", pom, "package")
		out, err := cmd.CombinedOutput()
		if err != nil {
			workerErr = errors.New("mvn package: " + err.Error() + "\n" + string(out))
			return
		}
		t.Logf("worker built in %v", time.Since(start).Round(time.Millisecond))
		workerJar = filepath.Join(filepath.Dir(pom), "target", "prodlab-worker.jar")
	})
	if workerErr != nil {
		t.Fatal(workerErr)
	}
	return workerJar
}

// startJavaDriver starts a worker for version and closes it when the test ends.
func startJavaDriver(t *testing.T, version string) *Worker {
	t.Helper()
	jar := buildWorker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	j, err := NewJava(ctx, version, jar, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s (java %s) ready in %v", j.Client(), j.JavaVersion(), time.Since(start).Round(time.Millisecond))
	t.Cleanup(func() {
		if err := j.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return j
}

func TestJavaWorkerConfigError(t *testing.T) {
	testtier.Shared(t)
	j := startJavaDriver(t, "4.3.0")
	if j.Client() != "kafka-clients 4.3.0" {
		t.Errorf("client = %q", j.Client())
	}
	tests := []struct {
		props map[string]string
		want  string // in the client's message
	}{
		{map[string]string{"enable.idempotence": "true", "acks": "1"}, "Must set acks to all in order to use the idempotent producer"},
		{map[string]string{"enable.idempotence": "true", "max.in.flight.requests.per.connection": "6"}, "max.in.flight.requests.per.connection"},
		{map[string]string{"linger.ms": "soon"}, "linger.ms"},
	}
	// Several trials in a row: the worker stays up after each rejection.
	for _, tt := range tests {
		start := time.Now()
		_, err := j.Run(context.Background(), Trial{
			Bootstrap: []string{"127.0.0.1:1"}, Topic: "t", Settings: kafkaconf.Decode(tt.props),
			Records: 10, RecordSize: 1024, Payload: "json", Timeout: time.Minute,
		})
		var je *JavaError
		if !errors.As(err, &je) {
			t.Fatalf("props %v: err = %v, want *JavaError", tt.props, err)
		}
		if !strings.Contains(je.Message, tt.want) || je.Hint == "" || !strings.Contains(err.Error(), "(hint: ") {
			t.Errorf("props %v: error %q, want the client's message containing %q and a hint", tt.props, err, tt.want)
		}
		t.Logf("rejected in %v: %v", time.Since(start).Round(time.Millisecond), err)
	}
}

func TestJavaWorkerProduces(t *testing.T) {
	testtier.Shared(t)
	j := startJavaDriver(t, "4.3.0")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c, _ := sharedBroker(t)
	servedTopic(ctx, t, "java-produce", 3)

	const n = 20000
	var progress []Progress
	start := time.Now()
	res, err := j.Run(ctx, Trial{
		Bootstrap: c.Bootstrap(), Topic: "java-produce",
		Settings: kafkaconf.Decode(map[string]string{"acks": "all", "linger.ms": "5", "compression.type": "lz4"}),
		Records:  n, RecordSize: 512, Payload: "json", Seed: 1, Tag: "test-s0-t0",
		Timeout:  2 * time.Minute,
		Progress: func(p Progress) { progress = append(progress, p) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d records in %v (trial %v): p50 %d µs, p99 %d µs, %d batches, %d requests, %d → %d bytes, in-flight max %v",
		res.Acked, time.Since(start).Round(time.Millisecond), res.Elapsed.Round(time.Millisecond),
		res.Latency.ValueAtQuantile(50), res.Latency.ValueAtQuantile(99), res.Batches, res.ProduceRequests,
		res.UncompressedBytes, res.CompressedBytes, res.Metrics["requests-in-flight"])
	var windows int64
	for _, p := range progress { // reports are optional for short trials, but must add up
		windows += p.WindowCount
		if p.Acked > n || p.WindowLatencyMaxUs < 0 || (p.WindowCount > 0 && p.WindowLatencySumUs < p.WindowLatencyMaxUs) {
			t.Errorf("implausible progress %+v", p)
		}
	}
	if windows > n {
		t.Errorf("progress windows count %d records, more than %d", windows, n)
	}
	if res.Sent != n || res.Acked != n || res.Failed != 0 {
		t.Errorf("sent %d acked %d failed %d, want %d acked (errors %v)", res.Sent, res.Acked, res.Failed, n, res.Errors)
	}
	if res.Latency.TotalCount() != n || res.Latency.ValueAtQuantile(50) <= 0 {
		t.Errorf("latency: count %d p50 %d", res.Latency.TotalCount(), res.Latency.ValueAtQuantile(50))
	}
	if res.Client != "kafka-clients 4.3.0" || res.Effective["compression.type"] != "lz4" || res.Effective["acks"] != "-1" {
		t.Errorf("client %q effective %v", res.Client, res.Effective)
	}
	if res.Batches <= 0 || res.ProduceRequests <= 0 || res.CompressedBytes <= 0 || res.UncompressedBytes <= res.CompressedBytes {
		t.Errorf("batches %d requests %d bytes %d→%d", res.Batches, res.ProduceRequests, res.UncompressedBytes, res.CompressedBytes)
	}
	for seq := int64(0); seq < n; seq++ {
		if !res.Acks.Acked(seq) {
			t.Fatalf("seq %d not in the ack log", seq)
		}
	}
}

// TestJavaResultImpossibleCounts: a worker's result that no producer can
// have reported fails the trial, naming what is impossible; the same
// result with possible counts passes.
func TestJavaResultImpossibleCounts(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(m *workerMessage)
		want string // "" for a result that passes
	}{
		{"as written", func(*workerMessage) {}, ""},
		{"negative sent", func(m *workerMessage) { m.Sent = -1 }, "sent -1 is negative"},
		{"more acked than sent", func(m *workerMessage) { m.Acked = m.Sent + 1 }, "acked 1011 is more than the 1010 sent"},
		// A send that threw counts as failed, not as sent (the Java worker).
		{"acked and failed above sent", func(m *workerMessage) { m.Failed = m.Sent }, ""},
		{"warm-up acked beyond its sends", func(m *workerMessage) { m.WarmupSent, m.WarmupAcked = 5, 6 }, "warmup_acked 6 is more than the 5 sent"},
		{"negative time", func(m *workerMessage) { m.ElapsedNs = -1 }, "elapsed_ns -1 is negative"},
		{"negative bytes", func(m *workerMessage) { m.CompressedBytes = -5 }, "compressed_bytes -5 is negative"},
	} {
		m, err := decodeWorkerMessage(readJavaTestdata(t, "result_ok.json"))
		if err != nil {
			t.Fatal(err)
		}
		tc.edit(m)
		_, err = m.toResult(Trial{Records: 1010})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), "impossible counts") || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want impossible counts: %q", tc.name, err, tc.want)
		}
	}
}

// TestRunRequestNamesTheSchedule: a transactional trial that names no
// transaction bound goes to the worker with the default commit interval
// written out (kafkaconf owns it; the Java worker has none of its own),
// and the trial's own props are left as they are.
func TestRunRequestNamesTheSchedule(t *testing.T) {
	tr := Trial{Topic: "t", Settings: kafkaconf.Decode(map[string]string{kafkaconf.TransactionalID: "tx"})}
	req := newRunRequest(1, tr)
	if got := req.Props[kafkaconf.TransactionDurationMs]; got != strconv.Itoa(kafkaconf.DefaultTransactionDurationMs) {
		t.Errorf("request's transaction.duration.ms %q, want the default %d", got, kafkaconf.DefaultTransactionDurationMs)
	}
	if _, ok := tr.Settings.Raw()[kafkaconf.TransactionDurationMs]; ok {
		t.Error("the trial's own props were changed")
	}
}
