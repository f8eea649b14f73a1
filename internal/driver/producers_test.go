package driver

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// TestShare checks how a trial is split over its producers: records and
// warm-up records as evenly as possible (summing to the total), the rate
// divided, distinct seeds and tags.
func TestShare(t *testing.T) {
	for _, tc := range []struct {
		name              string
		records, warm     int64
		n                 int
		wantRec, wantWarm []int64
	}{
		{"even", 100, 10, 2, []int64{50, 50}, []int64{5, 5}},
		{"remainder to the first", 10, 0, 4, []int64{3, 3, 2, 2}, []int64{0, 0, 0, 0}},
		{"one each", 3, 1, 3, []int64{1, 1, 1}, []int64{1, 0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := Trial{Records: tc.records, WarmupRecords: tc.warm, Rate: 900, Seed: 7, Tag: "run-s0-r0", Producers: tc.n,
				Progress: func(Progress) {}}
			seeds := map[int64]bool{}
			tags := map[string]bool{}
			for i := range tc.n {
				s := tr.share(i, tc.n)
				if s.Records != tc.wantRec[i] || s.WarmupRecords != tc.wantWarm[i] {
					t.Errorf("producer %d: records %d warm-up %d, want %d %d", i, s.Records, s.WarmupRecords, tc.wantRec[i], tc.wantWarm[i])
				}
				if s.Rate != 900/float64(tc.n) || s.Producers != 1 || s.Progress != nil {
					t.Errorf("producer %d: rate %v producers %d progress set %v", i, s.Rate, s.Producers, s.Progress != nil)
				}
				seeds[s.Seed], tags[s.Tag] = true, true
			}
			if len(seeds) != tc.n || len(tags) != tc.n || !seeds[7] || !tags["run-s0-r0/p0"] {
				t.Errorf("seeds %v tags %v: want %d distinct, producer 0 keeping seed 7 and tag run-s0-r0/p0", seeds, tags, tc.n)
			}
		})
	}
}

// TestMergeResults checks the merge of two producers' results: counts and
// histograms add, the window spans both, timelines add point by point,
// and each producer keeps its own figures.
func TestMergeResults(t *testing.T) {
	t0 := time.Unix(1000, 0)
	part := func(start time.Duration, acked int64, elapsed time.Duration, lat int64, inflight int64) *Result {
		h := NewLatencyHistogram()
		for range acked {
			_ = h.RecordValue(lat)
		}
		iv := Interval{Length: time.Second, Sent: acked, Acked: acked, Retries: 0, InFlight: inflight, Latency: h}
		return &Result{Client: "c", Sent: acked, Acked: acked, Latency: h, ClockStart: t0.Add(start), Elapsed: elapsed,
			Batches: 2, CompressedBytes: 100, Errors: map[string]int64{}, PartitionRecords: map[int32]int64{0: acked},
			Metrics: map[string]float64{"request-latency-avg": float64(lat)}, Timeline: []Interval{iv}}
	}
	shares := []Trial{{Tag: "x/p0"}, {Tag: "x/p1"}}
	res := mergeResults(shares, []*Result{part(0, 10, 2*time.Second, 100, 1), part(time.Second, 30, 2*time.Second, 300, -1)})
	checks := []struct {
		name      string
		got, want any
	}{
		{"acked", res.Acked, int64(40)},
		{"histogram count", res.Latency.TotalCount(), int64(40)},
		{"histogram max", res.Latency.Max() >= 300, true},
		{"window from the first start to the last end", res.Elapsed, 3 * time.Second},
		{"clock start", res.ClockStart, t0},
		{"partition 0", res.PartitionRecords[0], int64(40)},
		{"records per batch from totals", res.Metrics["records-per-batch-avg"], 10.0},
		{"metric mean", res.Metrics["request-latency-avg"], 200.0},
		{"timeline acked", res.Timeline[0].Acked, int64(40)},
		{"timeline in-flight unknown when one producer does not know", res.Timeline[0].InFlight, int64(-1)},
		{"timeline histogram", res.Timeline[0].Latency.TotalCount(), int64(40)},
		{"producers", len(res.Producers), 2},
		{"producer 2 tag", res.Producers[1].Tag, "x/p1"},
		{"producer 2 throughput", res.Producers[1].RecordsPerS(), 15.0},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	if res.Producers[0].Acked != 10 || part(0, 10, time.Second, 100, 1).Timeline[0].Latency.TotalCount() != 10 {
		t.Errorf("a producer's own figures changed by the merge")
	}
}

// TestFirstError checks that a real failure is reported before the
// cancellation echoes it caused in the other producers.
func TestFirstError(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name string
		errs []error
		want error
	}{
		{"none", []error{nil, nil}, nil},
		{"real after echo", []error{context.Canceled, boom}, boom},
		{"only echoes", []error{nil, context.Canceled}, context.Canceled},
	} {
		got := firstError(tc.errs)
		if (got == nil) != (tc.want == nil) || got != nil && !errors.Is(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestProgressFan checks that the producers' reports add up: cumulative
// counts over their latest reports, windows passed on as they come.
func TestProgressFan(t *testing.T) {
	var got []Progress
	f := newProgressFan(2, func(p Progress) { got = append(got, p) })
	f.of(0)(Progress{Sent: 5, Acked: 4, WindowCount: 4, Elapsed: time.Second})
	f.of(1)(Progress{Sent: 3, Acked: 3, WindowCount: 3, Elapsed: 2 * time.Second})
	f.of(0)(Progress{Sent: 6, Acked: 6, WindowCount: 2, Elapsed: 3 * time.Second})
	last := got[len(got)-1]
	var windows int64
	for _, p := range got {
		windows += p.WindowCount
	}
	if last.Sent != 9 || last.Acked != 9 || windows != 9 || last.Elapsed != 3*time.Second {
		t.Errorf("last %+v, windows %d: want sent 9, acked 9, windows 9, elapsed 3s", last, windows)
	}
	if newProgressFan(2, nil).of(0) != nil {
		t.Error("no callback wanted, but the fan made one")
	}
}

// TestTransactionalIDs: every producer of a trial — several in one client,
// or on several Trogdor nodes — gets its own transactional.id with the
// user's as the prefix (a shared id would fence the others), the trial's
// props stay as they were, and props without an id are passed on as they
// are.
func TestTransactionalIDs(t *testing.T) {
	tr := Trial{Settings: kafkaconf.Decode(map[string]string{"transactional.id": "tx", "acks": "all"}), Producers: 4, Records: 8}
	ids := map[string]bool{}
	for _, node := range nodeTrials(tr, []string{"agent-1", "agent-2"}) {
		for i := range node.Producers {
			id := node.share(i, node.Producers).Settings.Raw()["transactional.id"]
			if !strings.HasPrefix(id, "tx-agent-") || ids[id] {
				t.Errorf("producer %d on a node: id %q, want tx-<node>-p<i>, unique", i, id)
			}
			ids[id] = true
		}
	}
	if len(ids) != 4 || !ids["tx-agent-1-p0"] || !ids["tx-agent-2-p1"] {
		t.Errorf("ids %v: want 4, tx-agent-1-p0 … tx-agent-2-p1", ids)
	}
	if tr.Settings.Raw()["transactional.id"] != "tx" {
		t.Errorf("the trial's own props changed: %v", tr.Settings.Raw())
	}
	if s := (Trial{Settings: kafkaconf.Decode(map[string]string{"transactional.id": "tx"})}).share(0, 1); s.Settings.Raw()["transactional.id"] != "tx" {
		t.Errorf("one producer: id %q, want the trial's own", s.Settings.Raw()["transactional.id"])
	}
	plain := map[string]string{"acks": "all"}
	if got := kafkaconf.WithSuffixedTransactionalID(plain, "p0"); len(got) != 1 || got["transactional.id"] != "" {
		t.Errorf("no id: %v, want the props as they are", got)
	}
}
