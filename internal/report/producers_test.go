package report

import (
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
)

// TestProducerColumns shows the per-producer throughput and end-to-end
// P99 columns only when trials have them, with their means.
func TestProducerColumns(t *testing.T) {
	many := func(trial int, a, b, e2e float64) results.Record {
		r := rec(5, "lz4", trial, 1)
		r.Producers = []results.Producer{{RecordsPerS: a}, {RecordsPerS: b}}
		r.LatencyE2EMs = &results.Latency{P99: e2e}
		return r
	}
	for _, tc := range []struct {
		name string
		recs []results.Record
		want map[string]string // cell prefixes by head; nil: columns hidden
	}{
		{"one producer, no consumer", []results.Record{rec(5, "lz4", 1, 1), rec(5, "lz4", 2, 1)}, nil},
		{"two producers and a consumer", []results.Record{many(1, 900, 1100, 4), many(2, 1900, 2100, 6)},
			map[string]string{"MSG/S PER PROD": "1500", "E2E P99 ms": "5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scs, err := summarize(tc.recs)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, c := range shown(inTable, scs) {
				got[c.head] = c.text(&scs[0])
			}
			for _, head := range []string{"MSG/S PER PROD", "E2E P99 ms"} {
				cell, shownCol := got[head]
				switch {
				case tc.want == nil && shownCol:
					t.Errorf("%s shown without its figures: %q", head, cell)
				case tc.want != nil && !strings.HasPrefix(cell, tc.want[head]):
					t.Errorf("%s = %q, want %s…", head, cell, tc.want[head])
				}
			}
		})
	}
}
