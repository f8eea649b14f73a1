package driver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/audit"
	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/testtier"
)

// TestTwoProducers runs a trial with two producer instances with each
// client on the shared broker: the records are split between them, each
// producer's sequence is audited on its own and the topic is clean, the
// merged histogram holds every record, and each producer reports its own
// throughput. A warm-up and a timeline are on, so their merge is exercised.
func TestTwoProducers(t *testing.T) {
	testtier.Shared(t)
	c, _ := sharedBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	j := startJavaDriver(t, "4.3.0")
	const n = 20001 // odd: producer 1 gets one more
	for _, d := range []Driver{NewFranz(), j} {
		t.Run(d.Name(), func(t *testing.T) {
			name := servedTopic(ctx, t, "producers-"+strings.NewReplacer("@", "-", ".", "-").Replace(d.Name()), 3)
			tag := name + "-t0"
			res, err := d.Run(ctx, Trial{
				Bootstrap: c.Bootstrap(), Topic: name, Settings: kafkaconf.Decode(map[string]string{"acks": "all", "linger.ms": "5"}),
				Records: n, RecordSize: 100, Payload: "json", Seed: 3, Tag: tag, Timeout: 2 * time.Minute,
				Producers: 2, WarmupRecords: 1000, TimelineInterval: 200 * time.Millisecond, StampHandoff: true,
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Acked != n || res.Latency.TotalCount() != n || len(res.Producers) != 2 {
				t.Fatalf("acked %d, histogram %d, %d producers: want %d, %d, 2", res.Acked, res.Latency.TotalCount(), len(res.Producers), n, n)
			}
			var checkers []*audit.Checker
			var tlAcked int64
			for _, iv := range res.Timeline {
				tlAcked += iv.Acked
			}
			if tlAcked != n+1000 {
				t.Errorf("timeline acked %d, want %d (warm-up included)", tlAcked, n+1000)
			}
			for i, p := range res.Producers {
				t.Logf("%s producer %d: %s acked %d in %v (%.0f records/s)", d.Name(), i+1, p.Tag, p.Acked, p.Elapsed, p.RecordsPerS())
				if want := int64(n/2 + 1 - i); p.Acked != want || p.RecordsPerS() <= 0 {
					t.Errorf("producer %d: acked %d (%.0f/s), want %d", i+1, p.Acked, p.RecordsPerS(), want)
				}
				checkers = append(checkers, audit.NewChecker(p.Tag, p.AuditSent(), p.Acks))
			}
			g := audit.NewGroup(checkers...)
			if err := audit.ReadBack(ctx, c.Bootstrap(), name, g); err != nil {
				t.Fatal(err)
			}
			r := g.Result()
			t.Logf("%s: audit %+v; merged p99 %d µs over %v", d.Name(), r, res.Latency.ValueAtQuantile(99), res.Elapsed)
			if !r.Clean() || r.Foreign != 0 || r.Acked != n+1000 || r.Read != n+1000 {
				t.Errorf("audit %+v, want %d acked and read, clean, nothing foreign", r, n+1000)
			}
		})
	}
}
