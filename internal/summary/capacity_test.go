package summary

import (
	"math"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
)

// TestKeepUpResolution: a window resolves achieved ÷ offered to the
// records the producer can have in flight, and KeptUp allows exactly that.
func TestKeepUpResolution(t *testing.T) {
	rec := func(acked int64, perBatch float64, partitions int, inFlight string, achieved float64) *results.Record {
		return &results.Record{Records: results.Records{Acked: acked}, RecordsPerBatch: perBatch,
			Partitions:      &results.Partitions{Count: partitions},
			EffectiveConfig: map[string]string{"max.in.flight.requests.per.connection": inFlight},
			Load:            &results.Load{OfferedRecordsPerS: 1000, Achieved: achieved}}
	}
	tests := []struct {
		name    string
		r       *results.Record
		want    float64
		keptUp  bool
		comment string
	}{
		{"one batch of 15 in 1,000", rec(1000, 15, 1, "1", 0.98), 0.015, true, "0.98 + 0.015 reaches 0.99"},
		{"beyond it", rec(1000, 15, 1, "1", 0.97), 0.015, false, "0.97 + 0.015 does not"},
		{"5 in flight, 3 partitions", rec(90000, 30, 3, "5", 0.99), 30 * 3 * 5 / 90000.0, true, "at the bound"},
		{"no batches counted", rec(1000, 0, 1, "", 0.5), 0.001, false, "one record"},
		{"nothing acked", rec(0, 15, 1, "1", 0), 0, false, "no resolution, and far behind"},
		{"never more than everything", rec(10, 50, 1, "5", 0.2), 1, true, "a window of 10 records resolves nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := KeepUpResolution(tt.r); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("resolution %g, want %g", got, tt.want)
			}
			if got := KeptUp(tt.r, 0.99); got != tt.keptUp {
				t.Errorf("kept up %v, want %v (%s)", got, tt.keptUp, tt.comment)
			}
		})
	}
	if KeptUp(&results.Record{}, 0.5) {
		t.Error("a trial without a load kept up")
	}
}
