package expfile

import (
	"math"
	"testing"
	"time"
)

// TestPlannedDuration checks the planned time of each kind of experiment:
// steady-state and rate-limited trials, unthrottled bursts (a lower bound),
// warm-up rounds, and trials: auto / warmup: auto bounded by their settings.
func TestPlannedDuration(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want time.Duration
	}{
		// One burst at full speed: only the gap between trials is known.
		{"unthrottled burst", "name: x\n", 100 * time.Millisecond},
		// 10,000 records at 1,000/s, plus the gap.
		{"rate-limited burst", "name: x\nworkload: {records: 10000, rate: 1000}\n", 10*time.Second + 100*time.Millisecond},
		// Warm-up records are sent at the rate too.
		{"warm-up records", "name: x\nworkload: {records: 1500, warmup.records: 500, rate: 1000}\n", 2*time.Second + 100*time.Millisecond},
		// 2 scenarios × (2 warm-up + 3 measured) rounds × (1 + 4 + 0.1) s.
		{"steady rounds", "name: x\nworkload: {duration.s: 4, warmup.s: 1}\ntrials: 3\nwarmup: 2\nmatrix:\n  linger.ms: [0, 5]\n",
			2 * 5 * 5100 * time.Millisecond},
		// trials: auto measures for at most its budget; warmup: auto warms
		// each cluster layout for at most warmup.max.s.
		{"auto", "name: x\nworkload: {duration.s: 2}\ntrials: auto\nbudget: 10m\nwarmup: auto\nwarmup.max.s: 30\nmatrix:\n  brokers: [1, 3]\n",
			10*time.Minute + 2*30*time.Second},
		// trials: auto stops after MaxAutoRounds rounds when they fit the budget.
		{"auto rounds", "name: x\ntrials: auto\nbudget: 1h\n", MaxAutoRounds * 100 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustParse(t, tt.src)
			got := e.PlannedDuration()
			if d := got - tt.want; d < -time.Millisecond || d > time.Millisecond {
				t.Errorf("PlannedDuration = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestPlannedDurationSaturates checks that a plan longer than a
// time.Duration holds (hundreds of years) is the longest Duration rather
// than a negative overflow. The experiment is built directly: Parse would
// refuse it.
func TestPlannedDurationSaturates(t *testing.T) {
	e := defaults()
	e.Trials = MaxRounds
	e.Workload.Records, e.Workload.Rate = MaxRecords, 1e-3
	e.Workload.TimeoutS = 1e13 // past the records' send time, which the scenario checks ask
	if got := e.PlannedDuration(); got != time.Duration(math.MaxInt64) {
		t.Errorf("PlannedDuration = %v, want the longest Duration", got)
	}
}
