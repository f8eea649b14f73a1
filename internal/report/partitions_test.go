package report

import (
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
)

// TestPartitionColumns shows the records-per-batch and skew columns only
// when trials counted records by partition, with their means.
func TestPartitionColumns(t *testing.T) {
	keyed := func(trial int, perBatch, skew float64) results.Record {
		r := rec(5, "lz4", trial, 1)
		r.Batches, r.RecordsPerBatch = 100, perBatch
		r.Partitions = &results.Partitions{Count: 12, Min: 10, Max: 30, Skew: skew}
		return r
	}
	for _, tc := range []struct {
		name string
		recs []results.Record
		want []string // cells of the one scenario; nil: columns hidden
	}{
		{"keyless run of old", []results.Record{rec(5, "lz4", 1, 1), rec(5, "lz4", 2, 1)}, nil},
		{"keyed", []results.Record{keyed(1, 40, 1.5), keyed(2, 60, 2.5)}, []string{"50", "2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scs, err := summarize(tc.recs)
			if err != nil {
				t.Fatal(err)
			}
			var heads, cells []string
			for _, c := range shown(inTable, scs) {
				heads = append(heads, c.head)
				cells = append(cells, c.text(&scs[0]))
			}
			i := strings.Index(strings.Join(heads, "|"), "REC/BATCH")
			if tc.want == nil {
				if i >= 0 {
					t.Errorf("columns %v shown without partition figures", heads)
				}
				return
			}
			if i < 0 {
				t.Fatalf("no REC/BATCH column in %v", heads)
			}
			for j, h := range heads {
				switch h {
				case "REC/BATCH":
					if !strings.HasPrefix(cells[j], tc.want[0]) {
						t.Errorf("REC/BATCH = %q, want %s±…", cells[j], tc.want[0])
					}
				case "PART SKEW":
					if !strings.HasPrefix(cells[j], tc.want[1]) {
						t.Errorf("PART SKEW = %q, want %s…", cells[j], tc.want[1])
					}
				}
			}
		})
	}
}
