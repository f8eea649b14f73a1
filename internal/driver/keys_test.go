package driver

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/audit"
	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/keys"
	"github.com/prodlab/prodlab/internal/testtier"
)

// TestJavaRunRequestKeys checks the run request carries a keyed space and
// leaves keyless records' out, and that a result's partition counts reach
// Result.PartitionRecords.
func TestJavaRunRequestKeys(t *testing.T) {
	for _, tc := range []struct {
		name  string
		space keys.Space
		want  string // "" = no keys field
	}{
		{"keyless", keys.Space{Distribution: keys.None, Count: 1000, Size: 8}, ""},
		{"unset", keys.Space{}, ""},
		{"zipf", keys.Space{Distribution: keys.Zipf, Count: 1000, Size: 8, Exponent: 1.2},
			`"keys":{"distribution":"zipf","count":1000,"size":8,"exponent":1.2}`},
		{"uniform", keys.Space{Distribution: keys.Uniform, Count: 10, Size: 2},
			`"keys":{"distribution":"uniform","count":10,"size":2}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := encodeWorkerRequest(newRunRequest(1, Trial{Topic: "t", Records: 5, Keys: tc.space}))
			if err != nil {
				t.Fatal(err)
			}
			got := string(b)
			if tc.want == "" && strings.Contains(got, `"keys"`) || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("request %s, want keys %q", got, tc.want)
			}
		})
	}
	m, err := decodeWorkerMessage([]byte(`{"op":"result","id":1,"ok":true,"sent":5,"acked":5,"partition_records":{"0":2,"11":3}}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.toResult(Trial{Records: 5})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[int32]int64{0: 2, 11: 3}; !maps.Equal(res.PartitionRecords, want) {
		t.Errorf("PartitionRecords = %v, want %v", res.PartitionRecords, want)
	}
}

// TestKeyedTrials produces keyed records with both clients on the shared
// broker and audits them. Both clients draw the same keys from the same
// seed and both partitioners hash them with murmur2, so every partition
// must get exactly as many records from franz-go as from the Java client:
// a check that the keys and the partitioning match across clients. A
// uniform space spreads records evenly; a Zipf space makes a hot partition.
func TestKeyedTrials(t *testing.T) {
	testtier.Shared(t)
	c, _ := sharedBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	j := startJavaDriver(t, "4.3.0")
	const n, parts = 20000, 12
	for _, tc := range []struct {
		name    string
		space   keys.Space
		maxSkew float64 // the highest partition skew accepted
		minSkew float64
	}{
		{"uniform", keys.Space{Distribution: keys.Uniform, Count: 1000, Size: 8}, 1.25, 1},
		{"zipf", keys.Space{Distribution: keys.Zipf, Count: 1000, Size: 8, Exponent: 1.2}, float64(parts), 1.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var counts []map[int32]int64
			for _, d := range []Driver{NewFranz(), j} {
				name := servedTopic(ctx, t, "keyed-"+tc.name+"-"+strings.NewReplacer("@", "-", ".", "-").Replace(d.Name()), parts)
				tag := name + "-t0"
				res, err := d.Run(ctx, Trial{
					Bootstrap: c.Bootstrap(), Topic: name, Settings: kafkaconf.Decode(map[string]string{"acks": "all", "linger.ms": "5"}),
					Records: n, RecordSize: 100, Payload: "json", Seed: 11, Tag: tag, Timeout: 2 * time.Minute, Keys: tc.space,
				})
				if err != nil {
					t.Fatalf("%s: %v", d.Name(), err)
				}
				var total, most int64
				for _, k := range res.PartitionRecords {
					total += k
					most = max(most, k)
				}
				skew := float64(most) * parts / float64(total)
				t.Logf("%s: %d acked, %d batches (%.1f records/batch), partitions %v, skew %.2f",
					d.Name(), res.Acked, res.Batches, float64(res.Acked)/float64(max(res.Batches, 1)), res.PartitionRecords, skew)
				if total != n || res.Acked != n {
					t.Errorf("%s: %d acked, %d counted by partition, want %d", d.Name(), res.Acked, total, n)
				}
				if skew > tc.maxSkew || skew < tc.minSkew {
					t.Errorf("%s: skew %.2f, want in %.2f..%.2f", d.Name(), skew, tc.minSkew, tc.maxSkew)
				}
				chk := audit.NewChecker(tag, res.AuditSent(), res.Acks)
				if err := audit.ReadBack(ctx, c.Bootstrap(), name, chk); err != nil {
					t.Fatal(err)
				}
				if r := chk.Result(); !r.Clean() || r.Read != n {
					t.Errorf("%s: audit %+v, want %d read and clean", d.Name(), r, n)
				}
				counts = append(counts, res.PartitionRecords)
			}
			if !maps.Equal(counts[0], counts[1]) {
				t.Errorf("records by partition differ: franz-go %v, java %v", counts[0], counts[1])
			}
		})
	}
}
