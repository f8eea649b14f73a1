package driver

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/audit"
	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/testtier"
)

// TestFranzRunTrials runs warm-up, steady-state and audited trials on one
// real broker. Run it alone on the machine's brokers:
//
//	flock /tmp/prodlab-brokers.lock go test -count=1 -run TestFranzRunTrials ./internal/driver
func TestFranzRunTrials(t *testing.T) {
	testtier.Quiet(t)
	if testing.Short() {
		t.Skip("starts a real Kafka broker")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c, _ := sharedBroker(t)
	topic := func(t *testing.T, name string) string { return servedTopic(ctx, t, name, 3) }
	props := map[string]string{"acks": "all", "linger.ms": "5"}

	// Warm-up by count, rate-limited so that the timeline has several
	// warm-up and measured points: none of the warm-up may leak into the
	// measured figures.
	t.Run("warm-up records", func(t *testing.T) {
		const warm, n, rate = 2000, 5000, 10000.0
		var (
			mu       sync.Mutex
			progress []Progress
		)
		begin := time.Now()
		res, err := NewFranz().Run(ctx, Trial{
			Bootstrap: c.Bootstrap(), Topic: topic(t, "franz-warmup"), Settings: kafkaconf.Decode(props),
			Records: n, WarmupRecords: warm, RecordSize: 200, Payload: "json", Seed: 1, Rate: rate,
			Tag: "warm-s0-t0", Timeout: time.Minute, TimelineInterval: 50 * time.Millisecond,
			Progress: func(p Progress) { mu.Lock(); progress = append(progress, p); mu.Unlock() },
		})
		wall := time.Since(begin)
		if err != nil {
			t.Fatal(err)
		}
		logResult(t, res)
		if res.Sent != n || res.Acked != n || res.Failed != 0 || res.WarmupSent != warm || res.WarmupAcked != warm {
			t.Errorf("sent %d acked %d failed %d, warm-up sent %d acked %d; want %d %d 0, %d %d",
				res.Sent, res.Acked, res.Failed, res.WarmupSent, res.WarmupAcked, n, n, warm, warm)
		}
		if res.AuditSent() != warm+n {
			t.Errorf("AuditSent %d, want %d", res.AuditSent(), warm+n)
		}
		if res.LatencyIntended == nil {
			t.Fatal("no intended-time latency for a rate-limited trial")
		}
		if res.Latency.TotalCount() != n || res.LatencyIntended.TotalCount() != n {
			t.Errorf("latency counts %d and %d (intended), want %d measured records each",
				res.Latency.TotalCount(), res.LatencyIntended.TotalCount(), n)
		}
		// The warm-up takes warm/rate = 200 ms at the pace, never less; the
		// measured window n/rate = 500 ms plus the flush. The upper bound is
		// a hang guard: a stall lengthens the warm-up.
		if lo, hi := 150*time.Millisecond, 10*time.Second; res.MeasuredFrom < lo || res.MeasuredFrom > hi {
			t.Errorf("measured from %v, want the 200 ms warm-up (%v..%v)", res.MeasuredFrom, lo, hi)
		}
		if lo := 475 * time.Millisecond; res.Elapsed < lo || res.MeasuredFrom+res.Elapsed > wall {
			t.Errorf("elapsed %v from %v: want at least %v, and within the run's %v", res.Elapsed, res.MeasuredFrom, lo, wall)
		}
		if res.ClockStart.Before(begin) || res.ClockStart.After(begin.Add(wall)) {
			t.Errorf("clock start %v outside the run (%v + %v)", res.ClockStart, begin, wall)
		}
		var sent, acked, bytes, warmPoints, hist, inflight int64
		var at time.Duration
		for i, p := range res.Timeline {
			if p.Start != at || p.Length <= 0 {
				t.Errorf("point %d: [%v +%v), want it to start at %v", i, p.Start, p.Length, at)
			}
			at += p.Length
			if p.Warmup != (p.Start < res.MeasuredFrom) {
				t.Errorf("point %d at %v: warm-up %v, measured from %v", i, p.Start, p.Warmup, res.MeasuredFrom)
			}
			if p.Warmup {
				warmPoints++
			}
			if p.InFlight < 0 || p.Retries != -1 || p.Latency.TotalCount() != p.Acked {
				t.Errorf("point %d: in flight %d, retries %d, latency count %d of %d acked", i, p.InFlight, p.Retries, p.Latency.TotalCount(), p.Acked)
			}
			sent, acked, bytes, hist = sent+p.Sent, acked+p.Acked, bytes+p.AckedBytes, hist+p.Latency.TotalCount()
			inflight = max(inflight, p.InFlight)
		}
		if inflight < 1 || inflight > 5 {
			t.Errorf("at most %d produce requests in flight, want 1..5 (one broker, idempotent)", inflight)
		}
		if total := res.WarmupAcked + res.Acked; sent != total || acked != total || hist != total || bytes != total*200 {
			t.Errorf("timeline adds up to sent %d acked %d latencies %d bytes %d, want %d records of 200 bytes",
				sent, acked, hist, bytes, total)
		}
		if warmPoints < 2 || int64(len(res.Timeline))-warmPoints < 5 {
			t.Errorf("%d warm-up points of %d, want ≥ 2 warm-up and ≥ 5 measured at 50 ms", warmPoints, len(res.Timeline))
		}
		for seq := int64(0); seq < warm+n; seq++ {
			if !res.Acks.Acked(seq) {
				t.Fatalf("seq %d not in the ack log", seq)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		for _, p := range progress {
			if p.Sent > warm+n || p.Acked > p.Sent {
				t.Errorf("implausible progress %+v", p)
			}
		}
	})

	// A steady-state trial: the window ends on time, not on the record cap.
	t.Run("duration", func(t *testing.T) {
		const rate, every = 20000.0, 250 * time.Millisecond
		begin := time.Now()
		res, err := NewFranz().Run(ctx, Trial{
			Bootstrap: c.Bootstrap(), Topic: topic(t, "franz-duration"), Settings: kafkaconf.Decode(props),
			Records: 1 << 40, Duration: 2 * time.Second, RecordSize: 100, Payload: "random", Seed: 2, Rate: rate,
			Timeout: time.Minute, TimelineInterval: every,
		})
		wall := time.Since(begin)
		if err != nil {
			t.Fatal(err)
		}
		logResult(t, res)
		// The window never ends early; the upper bounds are hang guards.
		if res.Elapsed < 2*time.Second || res.Elapsed > 10*time.Second || wall > 30*time.Second {
			t.Errorf("elapsed %v (run %v), want 2 s plus a flush", res.Elapsed, wall)
		}
		// The pacer is never early: at most rate·2 s + 1. A producer may end
		// the window up to 400 ms behind its schedule (a stall of the
		// machine, acks holding the queue): at least 80 %.
		if want := int64(2 * rate); res.Sent < want*8/10 || res.Sent > want+1 || res.Acked != res.Sent {
			t.Errorf("sent %d acked %d, want about %d", res.Sent, res.Acked, want)
		}
		if res.WarmupSent != 0 || res.MeasuredFrom != 0 || res.Acks != nil {
			t.Errorf("warm-up sent %d measured from %v acks %v, want none", res.WarmupSent, res.MeasuredFrom, res.Acks)
		}
		// More points only if the flush stalls, up to the hang guard above.
		if n := len(res.Timeline); n < 8 || n > int(10*time.Second/every)+1 {
			t.Errorf("%d points, want 2 s / %v = 8 plus the flush's", n, every)
		}
		var acked int64
		for i, p := range res.Timeline {
			acked += p.Acked
			if p.Warmup {
				t.Errorf("point %d marked warm-up in a trial without one", i)
			}
			if i < len(res.Timeline)-1 && (p.Length < every/2 || p.Length > every*3/2) {
				t.Errorf("point %d lasts %v, want about %v", i, p.Length, every)
			}
		}
		if acked != res.Acked {
			t.Errorf("timeline acked %d, want %d", acked, res.Acked)
		}
	})

	// acks=0: no responses, so the client cannot tell what is in flight.
	t.Run("acks=0", func(t *testing.T) {
		res, err := NewFranz().Run(ctx, Trial{
			Bootstrap: c.Bootstrap(), Topic: topic(t, "franz-acks0"), Settings: kafkaconf.Decode(map[string]string{"acks": "0"}),
			Records: 2000, RecordSize: 100, Payload: "random", Seed: 4, Rate: 10000,
			Timeout: time.Minute, TimelineInterval: 50 * time.Millisecond,
		})
		if err != nil {
			t.Fatal(err)
		}
		logResult(t, res)
		if res.Acked != 2000 || len(res.Timeline) < 3 {
			t.Fatalf("acked %d with %d points, want 2000 and several", res.Acked, len(res.Timeline))
		}
		for i, p := range res.Timeline {
			if p.InFlight != -1 {
				t.Errorf("point %d: in flight %d with acks=0, want -1 (unknown)", i, p.InFlight)
			}
		}
	})

	// An audited steady-state trial with a timed warm-up: the ack log must
	// cover every sequence number handed out, which the audit's read-back
	// confirms record by record.
	t.Run("audited duration", func(t *testing.T) {
		name := topic(t, "franz-audited")
		const tag = "audited-s0-t0"
		res, err := NewFranz().Run(ctx, Trial{
			Bootstrap: c.Bootstrap(), Topic: name, Settings: kafkaconf.Decode(props),
			Records: 1 << 40, Duration: time.Second, Warmup: 300 * time.Millisecond, RecordSize: 100,
			Payload: "json", Seed: 3, Rate: 20000, Tag: tag, Timeout: time.Minute, TimelineInterval: 100 * time.Millisecond,
		})
		if err != nil {
			t.Fatal(err)
		}
		logResult(t, res)
		// How many records a loaded machine sends in 300 ms and 1 s is
		// its business; that both phases sent, all acknowledged, is ours.
		if res.WarmupSent == 0 || res.Sent == 0 || res.Acked != res.Sent || res.WarmupAcked != res.WarmupSent {
			t.Errorf("warm-up %d/%d, measured %d/%d: want both phases to send, all acked",
				res.WarmupAcked, res.WarmupSent, res.Acked, res.Sent)
		}
		// Never before the warm-up ends (a floor the clock sets); the
		// ceiling is a hang guard.
		if res.MeasuredFrom < 300*time.Millisecond || res.MeasuredFrom > 30*time.Second {
			t.Errorf("measured from %v, want after the 300 ms warm-up", res.MeasuredFrom)
		}
		n := res.AuditSent()
		for seq := int64(0); seq < n; seq++ {
			if !res.Acks.Acked(seq) {
				t.Fatalf("seq %d of %d not in the ack log", seq, n)
			}
		}
		if res.Acks.Acked(n) {
			t.Errorf("seq %d, never handed out, is in the ack log", n)
		}
		chk := audit.NewChecker(tag, n, res.Acks)
		if err := audit.ReadBack(ctx, c.Bootstrap(), name, chk); err != nil {
			t.Fatal(err)
		}
		if r := chk.Result(); !r.Clean() || r.Acked != n || r.Read != n {
			t.Errorf("audit %+v, want %d acked, read and clean", r, n)
		}
	})
}

func logResult(t *testing.T, res *Result) {
	t.Helper()
	t.Logf("warm-up %d/%d then %d/%d acked in %v from %v; p50 %d µs; %d points; %d batches, %d requests",
		res.WarmupAcked, res.WarmupSent, res.Acked, res.Sent, res.Elapsed.Round(time.Millisecond),
		res.MeasuredFrom.Round(time.Millisecond), res.Latency.ValueAtQuantile(50), len(res.Timeline), res.Batches, res.ProduceRequests)
}
