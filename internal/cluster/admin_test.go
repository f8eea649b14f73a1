package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
)

// adminRounds is what the lab does around every trial, n times: create a
// fresh topic and wait until it is served, size it, delete it. It logs the
// median and maximum round and per-step times, and fails when even the
// fastest round waits out kgo's 5 s minimum metadata age (the bug it guards:
// a readiness probe that read a broker's cached UNKNOWN_TOPIC_OR_PARTITION
// costs ≥ 5 s in every round; load only adds to a round, so the fastest
// round of a correct probe stays under it).
// How fast a round is belongs to the benchmarks (bench/gaps-sweep.sh), not
// here: the shared tier runs it beside other packages' JVMs. Run it alone with
//
//	go test -count=1 -v -run 'TestThreeNodes/admin|TestOneNodeDetached' ./internal/cluster
//
// (PRODLAB_TRACE_ADMIN=1 adds one line per admin request).
func adminRounds(t *testing.T, bootstrap []string, n, partitions, rf int) {
	t.Helper()
	a, err := NewAdmin(bootstrap)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var rounds, creates, disks, deletes []time.Duration
	for i := range n {
		topic := fmt.Sprintf("admin-round-%d-%d", i, time.Now().UnixNano()%1e6)
		t0 := time.Now()
		if err := a.CreateTopic(ctx, topic, partitions, rf, map[string]string{"min.insync.replicas": "1"}); err != nil {
			t.Fatal(err)
		}
		t1 := time.Now()
		if _, err := a.DiskBytes(ctx, topic, partitions); err != nil {
			t.Fatal(err)
		}
		t2 := time.Now()
		if err := a.DeleteTopic(ctx, topic); err != nil {
			t.Fatal(err)
		}
		t3 := time.Now()
		creates, disks, deletes = append(creates, t1.Sub(t0)), append(disks, t2.Sub(t1)), append(deletes, t3.Sub(t2))
		rounds = append(rounds, t3.Sub(t0))
	}
	med := func(d []time.Duration) time.Duration {
		s := slices.Clone(d)
		slices.Sort(s)
		return s[len(s)/2]
	}
	mx := slices.Max[[]time.Duration]
	ms := func(d time.Duration) string { return fmt.Sprintf("%.0f ms", d.Seconds()*1000) }
	t.Logf("%d admin rounds (%d partitions, rf %d): round median %s max %s; create+served median %s max %s; disk median %s; delete median %s max %s",
		n, partitions, rf, ms(med(rounds)), ms(mx(rounds)), ms(med(creates)), ms(mx(creates)), ms(med(disks)), ms(med(deletes)), ms(mx(deletes)))
	if m := slices.Min(rounds); m >= staleMetadataWait {
		t.Errorf("fastest admin round %v, want under %v (every round waits out kgo's cached metadata)", m, staleMetadataWait)
	}
}

// staleMetadataWait is kgo's 5 s minimum metadata age less a margin: when
// every round takes this long, the readiness probe read cached metadata.
const staleMetadataWait = 4 * time.Second

func TestAdminRequiresBootstrap(t *testing.T) {
	if _, err := NewAdmin(nil); err == nil {
		t.Error("NewAdmin(nil) succeeded, want an error")
	}
}

func TestNotServedError(t *testing.T) {
	err := error(&NotServedError{Topic: "t", Probes: 3, Last: kerr.UnknownTopicOrPartition, Err: context.DeadlineExceeded})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Error("NotServedError does not unwrap to the context's error")
	}
	want := "topic t: partitions not served by their leaders after 3 probes"
	if got := err.Error(); len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("Error() = %q, want it to start with %q", got, want)
	}
}
