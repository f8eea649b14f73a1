package driver

import (
	"bytes"
	"context"
	"encoding/json"

	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/testtier"
)

// Steady-state trials, in-trial warm-up, timelines and the worker's CPU
// time: unit tests of the protocol, then integration tests on a broker.

func TestJavaRunRequestSteadyState(t *testing.T) {
	got, err := encodeWorkerRequest(newRunRequest(3, Trial{
		Topic: "t", Records: 5000, Duration: 2 * time.Second, WarmupRecords: 2000,
		Warmup: 1500 * time.Millisecond, TimelineInterval: 250 * time.Millisecond,
	}))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"duration_ms":2000`, `"warmup_records":2000`, `"warmup_ms":1500`, `"timeline_interval_ms":250`} {
		if !bytes.Contains(got, []byte(want)) {
			t.Errorf("request lacks %s: %s", want, got)
		}
	}
	if bytes.Contains(got, []byte("transaction_duration_ms")) {
		t.Errorf("transaction_duration_ms is not part of the protocol (transaction.duration.ms in props is): %s", got)
	}
	// A sub-millisecond setting stays on; zero and negative are off.
	got, _ = encodeWorkerRequest(newRunRequest(4, Trial{Topic: "t", TimelineInterval: 300 * time.Microsecond, Duration: -time.Second}))
	if !bytes.Contains(got, []byte(`"timeline_interval_ms":1`)) || bytes.Contains(got, []byte("duration_ms")) ||
		bytes.Contains(got, []byte("warmup")) {
		t.Errorf("request = %s", got)
	}
}

// javaTimelineResult is a worker result with a warm-up (seq 0..1999) and a
// timeline of three points; hist is a Java-encoded histogram of 1010 values.
func javaTimelineResult(t *testing.T) []byte {
	hist := string(readJavaTestdata(t, "histogram.b64"))
	m := map[string]any{
		"op": "result", "id": 5, "ok": true, "client": "kafka-clients 4.3.0",
		"sent": 5000, "acked": 5000, "failed": 0, "errors": map[string]int{}, "elapsed_ns": 1_000_000_000,
		"histogram":   hist,
		"warmup_sent": 2000, "warmup_acked": 2000, "warmup_failed": 0,
		"clock_start_epoch_us": 1_767_225_600_123_456, "measured_from_ns": 400_000_000,
		"acked_ranges": [][2]int{{0, 7000}}, "failed_ranges": [][2]int{},
		"timeline": []map[string]any{
			{"t_ns": 0, "dur_ns": 500_000_000, "warmup": true, "sent": 2500, "acked": 2400, "acked_bytes": 2400 * 512,
				"failed": 0, "retries": 0, "in_flight": 3, "histogram": hist},
			{"t_ns": 500_000_000, "dur_ns": 500_000_000, "warmup": false, "sent": 2500, "acked": 2600, "acked_bytes": 2600 * 512,
				"failed": 0, "retries": -1, "in_flight": -1, "histogram": hist},
			{"t_ns": 1_000_000_000, "dur_ns": 410_000_000, "warmup": false, "sent": 2000, "acked": 2000, "acked_bytes": 2000 * 512,
				"failed": 0, "retries": 7, "histogram": ""},
		},
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestJavaResultTimeline(t *testing.T) {
	m, err := decodeWorkerMessage(javaTimelineResult(t))
	if err != nil {
		t.Fatal(err)
	}
	tr := Trial{Records: 5000, WarmupRecords: 2000, Tag: "x", TimelineInterval: 500 * time.Millisecond}
	res, err := m.toResult(tr)
	if err != nil {
		t.Fatal(err)
	}
	if res.Sent != 5000 || res.WarmupSent != 2000 || res.WarmupAcked != 2000 || res.AuditSent() != 7000 {
		t.Errorf("counts: sent %d warm-up %d/%d", res.Sent, res.WarmupSent, res.WarmupAcked)
	}
	if want := time.UnixMicro(1_767_225_600_123_456); !res.ClockStart.Equal(want) || res.MeasuredFrom != 400*time.Millisecond {
		t.Errorf("clock start %v measured from %v", res.ClockStart, res.MeasuredFrom)
	}
	if len(res.Timeline) != 3 {
		t.Fatalf("timeline has %d points", len(res.Timeline))
	}
	p := res.Timeline[0]
	if p.Start != 0 || p.Length != 500*time.Millisecond || !p.Warmup || p.Sent != 2500 || p.Acked != 2400 ||
		p.AckedBytes != 2400*512 || p.Retries != 0 || p.InFlight != 3 || p.Latency.TotalCount() != 1010 {
		t.Errorf("point 0 = %+v", p)
	}
	if p := res.Timeline[1]; p.Warmup || p.Retries != -1 || p.InFlight != -1 {
		t.Errorf("point 1: warmup %v retries %d in-flight %d, want false -1 -1", p.Warmup, p.Retries, p.InFlight)
	}
	if p := res.Timeline[2]; p.Length != 410*time.Millisecond || p.Retries != 7 || p.InFlight != -1 || p.Latency == nil ||
		p.Latency.TotalCount() != 0 {
		t.Errorf("point 2 (partial, in_flight absent) = %+v", p)
	}
	for seq := int64(0); seq < 7000; seq++ {
		if !res.Acks.Acked(seq) {
			t.Fatalf("seq %d (warm-up below 2000) not in the ack log", seq)
		}
	}
	// Ranges past warm-up + records are a protocol error.
	tr.WarmupRecords = 0
	if _, err := m.toResult(tr); err == nil || !strings.Contains(err.Error(), "outside [0,5000)") {
		t.Errorf("ranges past the trial's records: err = %v", err)
	}
	// With a timed warm-up the bound is what the worker says it sent.
	tr.Warmup = time.Second
	if _, err := m.toResult(tr); err != nil {
		t.Errorf("timed warm-up: %v", err)
	}
	// No timeline asked, none sent: nil.
	m.Timeline = nil
	if res, err := m.toResult(Trial{Records: 5000, WarmupRecords: 2000}); err != nil || res.Timeline != nil {
		t.Errorf("timeline without asking: %v %v", res.Timeline, err)
	}
	// A bad interval histogram names its point.
	m.Timeline = []javaPoint{{Histogram: "bm90IGEgaGlzdG9ncmFt"}}
	if _, err := m.toResult(Trial{Records: 5000, WarmupRecords: 2000}); err == nil || !strings.Contains(err.Error(), "point 0") {
		t.Errorf("bad point histogram: %v", err)
	}
}

func TestParseProcStatTicks(t *testing.T) {
	// A command name with spaces and parentheses; utime 1234, stime 66.
	line := "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 1 0 0 0 1234 66 0 0 20 0 30 0 5 1 2 3\n"
	n, err := parseProcStatTicks([]byte(line))
	if err != nil || n != 1300 {
		t.Errorf("ticks = %d, %v; want 1300", n, err)
	}
	for _, bad := range []string{"", "4242 java S 1", "4242 (java) S 1 2 3", "4242 (java) S 1 4242 4242 0 -1 4194560 1 0 0 0 x 66"} {
		if _, err := parseProcStatTicks([]byte(bad)); err == nil {
			t.Errorf("parsed %q", bad)
		}
	}
	// This process has used some CPU, and /proc agrees in its unit.
	d, err := procCPUTime(os.Getpid())
	if err != nil || d < 0 || d > time.Hour {
		t.Errorf("own CPU time %v, %v", d, err)
	}
	if _, err := (&Worker{version: "3.9.1"}).CPUTime(); err == nil || !strings.Contains(err.Error(), "no worker process") {
		t.Errorf("CPUTime without a worker: %v", err)
	}
}

// Integration tests: a real broker (flock /tmp/prodlab-brokers.lock when
// running them next to other broker jobs) and a real worker.

// createTopic creates a 3-partition topic on the shared broker.
func createTopic(ctx context.Context, t *testing.T, topic string) {
	t.Helper()
	servedTopic(ctx, t, topic, 3)
}

// checkTimeline checks what every timeline must satisfy: contiguous points
// from 0, regular lengths but the last, interval histograms holding the
// interval's acks, warm-up marks before MeasuredFrom only, and sums equal to
// the result's totals (warm-up included).
func checkTimeline(t *testing.T, res *Result, interval time.Duration) {
	t.Helper()
	if len(res.Timeline) == 0 {
		t.Fatal("no timeline")
	}
	var sent, acked, failed int64
	var next time.Duration
	for i, p := range res.Timeline {
		if p.Start != next {
			t.Errorf("point %d starts at %v, want %v", i, p.Start, next)
		}
		next = p.Start + p.Length
		if last := i == len(res.Timeline)-1; (!last && p.Length != interval) || p.Length <= 0 || p.Length > interval {
			t.Errorf("point %d lasts %v (interval %v, %d points)", i, p.Length, interval, len(res.Timeline))
		}
		if p.Warmup != (p.Start < res.MeasuredFrom) {
			t.Errorf("point %d at %v: warmup=%v, measured from %v", i, p.Start, p.Warmup, res.MeasuredFrom)
		}
		if p.Latency.TotalCount() != p.Acked {
			t.Errorf("point %d: histogram holds %d values, acked %d", i, p.Latency.TotalCount(), p.Acked)
		}
		if p.Retries < 0 || p.InFlight < 0 {
			t.Errorf("point %d: retries %d in-flight %d: kafka-clients 4.3 has both", i, p.Retries, p.InFlight)
		}
		if p.Acked > 0 && p.AckedBytes != p.Acked*512 {
			t.Errorf("point %d: %d acked bytes for %d records of 512 bytes", i, p.AckedBytes, p.Acked)
		}
		sent, acked, failed = sent+p.Sent, acked+p.Acked, failed+p.Failed
	}
	if acked != res.WarmupAcked+res.Acked || sent != res.WarmupSent+res.Sent || failed != res.Failed {
		t.Errorf("timeline sums: sent %d acked %d failed %d; result: warm-up %d/%d, measured %d/%d, failed %d",
			sent, acked, failed, res.WarmupSent, res.WarmupAcked, res.Sent, res.Acked, res.Failed)
	}
	// The last point ends at the end of the flush.
	if end := res.MeasuredFrom + res.Elapsed; next < end-time.Millisecond || next > end+50*time.Millisecond {
		t.Errorf("timeline ends at %v, the trial at %v", next, end)
	}
}

func TestJavaWorkerSteadyState(t *testing.T) {
	testtier.Quiet(t)
	j := startJavaDriver(t, "4.3.0")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c, _ := sharedBroker(t)
	bootstrap := c.Bootstrap()
	props := map[string]string{"acks": "all", "linger.ms": "5"}

	t.Run("warmup", func(t *testing.T) {
		createTopic(ctx, t, "java-warmup")
		// 5000 records/s: the warm-up takes ~0.4 s, the measured window ~1 s.
		const warm, n, rate = 2000, 5000, 5000
		var progress []Progress
		before := time.Now()
		res, err := j.Run(ctx, Trial{
			Bootstrap: bootstrap, Topic: "java-warmup", Settings: kafkaconf.Decode(props),
			Records: n, WarmupRecords: warm, RecordSize: 512, Payload: "json", Rate: rate, Seed: 1,
			Timeout: 2 * time.Minute, TimelineInterval: 100 * time.Millisecond,
			Progress: func(p Progress) { progress = append(progress, p) },
		})
		after := time.Now()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("warm-up %d/%d from 0, measured %d/%d from %v for %v; %d points", res.WarmupSent, res.WarmupAcked,
			res.Sent, res.Acked, res.MeasuredFrom.Round(time.Millisecond), res.Elapsed.Round(time.Millisecond), len(res.Timeline))
		if res.Sent != n || res.Acked != n || res.WarmupSent != warm || res.WarmupAcked != warm || res.Failed != 0 {
			t.Errorf("sent %d acked %d warm-up %d/%d failed %d, want %d and %d", res.Sent, res.Acked,
				res.WarmupSent, res.WarmupAcked, res.Failed, n, warm)
		}
		// Counting the warm-up would give 7000 latencies and a 1.4 s window.
		if res.Latency.TotalCount() != n || res.LatencyIntended.TotalCount() != n {
			t.Errorf("latency counts %d / %d, want %d", res.Latency.TotalCount(), res.LatencyIntended.TotalCount(), n)
		}
		// ~1 s of sending (5000 records at 5000/s, less what the stream's
		// one rate schedule catches up after the first send's metadata
		// wait), then the flush, which takes what acknowledgements take on
		// a busy machine. The schedule is never early: the last record is
		// due (warm+n-1)/rate = 1.3998 s into the clock, so the window lasts
		// at least that less MeasuredFrom. The upper bound is a hang guard.
		// That Elapsed leaves the warm-up out is checked exactly by
		// checkTimeline: MeasuredFrom + Elapsed ends the timeline.
		lastDue := time.Duration(float64(warm+n-1) / rate * float64(time.Second))
		if res.Elapsed < lastDue-res.MeasuredFrom || res.Elapsed > 10*time.Second {
			t.Errorf("measured window %v from %v, want at least %v and a flush", res.Elapsed, res.MeasuredFrom, lastDue-res.MeasuredFrom)
		}
		// At least 0.4 s (2000 records at 5000/s); the first send() also
		// waits for the topic's metadata, which is what a warm-up absorbs.
		// The upper bound is a hang guard.
		if res.MeasuredFrom < 390*time.Millisecond || res.MeasuredFrom > 5*time.Second {
			t.Errorf("measured from %v, want 0.4 s and the metadata wait", res.MeasuredFrom)
		}
		if res.ClockStart.Before(before) || res.ClockStart.After(after) {
			t.Errorf("clock start %v not within the Run call [%v, %v]", res.ClockStart, before, after)
		}
		checkTimeline(t, res, 100*time.Millisecond)
		// How many points are warm-up and how many measured follows from
		// checkTimeline (100 ms points from 0, warm-up exactly those that
		// start before MeasuredFrom, the last ending the trial) and from
		// the bounds on MeasuredFrom and Elapsed above.
		// Progress counts the whole stream, warm-up included: a report
		// made 100 ms (500 records) into the measured window counts more
		// than the warm-up. Reports come once a second; beside CPU hogs
		// the first send's metadata wait can push the whole window past
		// the last one (bench/RESULTS.md §63), and then none is judged.
		for _, p := range progress {
			if p.Elapsed > res.MeasuredFrom+100*time.Millisecond && p.Sent <= warm {
				t.Errorf("progress counts the whole stream: report %+v, %v after the window began, counts no more than the warm-up", p, p.Elapsed-res.MeasuredFrom)
			}
		}
	})

	t.Run("duration", func(t *testing.T) {
		createTopic(ctx, t, "java-duration")
		const rate, interval = 20000, 500 * time.Millisecond
		start := time.Now()
		res, err := j.Run(ctx, Trial{
			Bootstrap: bootstrap, Topic: "java-duration", Settings: kafkaconf.Decode(props),
			Records: 100_000_000, Duration: 2 * time.Second, Warmup: 500 * time.Millisecond,
			RecordSize: 512, Payload: "json", Rate: rate, Seed: 2,
			Timeout: 2 * time.Minute, TimelineInterval: interval,
		})
		if err != nil {
			t.Fatal(err)
		}
		wall := time.Since(start)
		t.Logf("warm-up %d in %v, measured %d in %v (wall %v), %d points", res.WarmupSent,
			res.MeasuredFrom.Round(time.Millisecond), res.Sent, res.Elapsed.Round(time.Millisecond), wall.Round(time.Millisecond), len(res.Timeline))
		// Sending stops at 2 s (the records cap is far), never before; the
		// flush after it takes what the acknowledgements take on a busy
		// machine. The upper bounds are hang guards.
		if res.Elapsed < 2*time.Second || res.Elapsed > 10*time.Second {
			t.Errorf("measured window %v, want 2 s and a flush", res.Elapsed)
		}
		if res.MeasuredFrom < 500*time.Millisecond || res.MeasuredFrom > 2*time.Second {
			t.Errorf("measured from %v, want ~0.5 s", res.MeasuredFrom)
		}
		// The worker's one schedule from its first send is never early: at
		// most rate·0.5 s + 1 in the warm-up, and rate·(MeasuredFrom + 2 s)
		// + 1 in all (the window catches up what the warm-up left behind).
		// Below, each may end up to 20 % of its time behind schedule (a
		// stall of the machine, the first send's metadata wait not yet
		// caught up, acks holding the queue).
		if hi := rate*(res.MeasuredFrom+2*time.Second).Seconds() + 1; float64(res.WarmupSent+res.Sent) > hi || res.Sent < 2*rate*8/10 || res.Acked != res.Sent {
			t.Errorf("sent %d acked %d after %d in the warm-up, want at least %d and %.0f in all (2 s at %d/s)", res.Sent, res.Acked, res.WarmupSent, 2*rate*8/10, hi, rate)
		}
		if res.WarmupSent > rate/2+1 || res.WarmupSent < rate/2*8/10 || res.WarmupAcked != res.WarmupSent {
			t.Errorf("warm-up sent %d acked %d, want %d to %d (0.5 s at %d/s)", res.WarmupSent, res.WarmupAcked, rate/2*8/10, rate/2+1, rate)
		}
		if res.Latency.TotalCount() != res.Acked {
			t.Errorf("latency count %d, acked %d", res.Latency.TotalCount(), res.Acked)
		}
		checkTimeline(t, res, interval)
		end := res.MeasuredFrom + res.Elapsed
		if n, want := len(res.Timeline), int((end+interval-1)/interval); n < want-1 || n > want {
			t.Errorf("%d points, want %d (%v in %v intervals, the last partial)", n, want, end, interval)
		}
		cpu, err := j.CPUTime()
		if err != nil || cpu <= 0 {
			t.Errorf("worker CPU time %v, %v", cpu, err)
		}
		t.Logf("worker CPU so far: %v (pid %d)", cpu, j.PID())
	})

	t.Run("audit", func(t *testing.T) {
		createTopic(ctx, t, "java-audit-warmup")
		const warm, n, tag = 3000, 4000, "steady-s0-r0"
		res, err := j.Run(ctx, Trial{
			Bootstrap: bootstrap, Topic: "java-audit-warmup", Settings: kafkaconf.Decode(props),
			Records: n, WarmupRecords: warm, Warmup: time.Minute, // the record count ends the warm-up
			RecordSize: 512, Payload: "json", Seed: 3, Tag: tag, Timeout: 2 * time.Minute,
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.Sent != n || res.WarmupSent != warm || res.AuditSent() != warm+n || res.Timeline != nil {
			t.Errorf("sent %d warm-up %d timeline %d points", res.Sent, res.WarmupSent, len(res.Timeline))
		}
		for seq := int64(0); seq < warm+n; seq++ {
			if !res.Acks.Acked(seq) || res.Acks.Failed(seq) {
				t.Fatalf("seq %d: acked %v failed %v", seq, res.Acks.Acked(seq), res.Acks.Failed(seq))
			}
		}
		if res.Acks.Acked(warm + n) {
			t.Errorf("seq %d acknowledged: only %d were sent", warm+n, warm+n)
		}
		// Read the topic back: every record, warm-up included, carries its header.
		seen := readAuditSeqs(ctx, t, bootstrap, "java-audit-warmup", tag, warm+n)
		for seq := int64(0); seq < warm+n; seq++ {
			if seen[seq] != 1 {
				t.Fatalf("seq %d read back %d times", seq, seen[seq])
			}
		}
	})

	t.Run("transactions", func(t *testing.T) {
		createTopic(ctx, t, "java-txn-warmup")
		// Commits every 200 ms through the warm-up and the measured window.
		res, err := j.Run(ctx, Trial{
			Bootstrap: bootstrap, Topic: "java-txn-warmup",
			Settings: kafkaconf.Decode(map[string]string{"acks": "all", "transactional.id": "steady-txn", "transaction.duration.ms": "200"}),
			Records:  3000, WarmupRecords: 1000, RecordSize: 512, Payload: "json", Rate: 5000, Seed: 4,
			Timeout: 2 * time.Minute, TimelineInterval: 250 * time.Millisecond,
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.Acked != 3000 || res.WarmupAcked != 1000 || res.Metrics["transactions-committed"] < 2 ||
			res.Metrics["transactions-aborted"] != 0 {
			t.Errorf("acked %d warm-up %d, transactions %v committed %v aborted", res.Acked, res.WarmupAcked,
				res.Metrics["transactions-committed"], res.Metrics["transactions-aborted"])
		}
		checkTimeline(t, res, 250*time.Millisecond)
	})

	// A closed worker has no CPU time to report.
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := j.CPUTime(); err == nil {
		t.Error("CPUTime of a closed worker: no error")
	}
}

// readAuditSeqs consumes n records of topic and counts the sequence numbers
// of their prodlab audit headers (tag/seq).
func readAuditSeqs(ctx context.Context, t *testing.T, bootstrap []string, topic, tag string, n int64) map[int64]int {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap...), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	rctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	seen := map[int64]int{}
	var read int64
	for read < n {
		fs := cl.PollFetches(rctx)
		if err := rctx.Err(); err != nil {
			t.Fatalf("read %d of %d records: %v", read, n, err)
		}
		fs.EachRecord(func(r *kgo.Record) {
			read++
			for _, h := range r.Headers {
				if h.Key != "prodlab" {
					continue
				}
				s, ok := strings.CutPrefix(string(h.Value), tag+"/")
				seq, err := strconv.ParseInt(s, 10, 64)
				if !ok || err != nil {
					t.Errorf("header %q", h.Value)
				}
				seen[seq]++
			}
		})
	}
	return seen
}
