package lab

import (
	"context"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
)

// TestCutShort: an interrupt that arrives once every planned trial
// finished leaves a complete run; one that left a trial unrun or cut one,
// or that hit a run whose rule decides how many trials, stops it (issue
// 46: a SIGTERM after the last trial reported the complete run as
// interrupted).
func TestCutShort(t *testing.T) {
	tests := []struct {
		name               string
		planned, ran, cuts int
		want               bool
	}{
		{"every trial finished", 6, 6, 0, false},
		{"a trial left unrun", 6, 5, 0, true},
		{"the last trial cut", 6, 6, 1, true},
		{"a rule decides how many", 0, 6, 0, true},
		{"nothing ran", 6, 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cutShort(tt.planned, tt.ran, tt.cuts); got != tt.want {
				t.Errorf("cutShort(%d, %d, %d) = %v, want %v", tt.planned, tt.ran, tt.cuts, got, tt.want)
			}
		})
	}
}

// TestMeasuredTrials counts measured trials and the interrupted among
// them; warm-up trials count in neither.
func TestMeasuredTrials(t *testing.T) {
	recs := []results.Record{
		{Warmup: true, Status: results.StatusOK},
		{Warmup: true, Status: results.StatusInterrupted},
		{Status: results.StatusOK},
		{Status: results.StatusFailed},
		{Status: results.StatusInterrupted},
	}
	if ran, cut := measuredTrials(recs); ran != 3 || cut != 1 {
		t.Errorf("measuredTrials = %d, %d; want 3, 1", ran, cut)
	}
}

// TestStoppedOutcome: the run's error says interrupted only when the
// interrupt stopped it; a complete run's error is its trials' own.
func TestStoppedOutcome(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		name    string
		sum     Summary
		wantErr string
	}{
		{"complete, signalled after", Summary{Trials: 2}, ""},
		{"stopped", Summary{Trials: 1, Stopped: true}, "run interrupted: context canceled"},
		{"complete with a failed trial", Summary{Trials: 2, Failed: 1}, "1 of 2 trials: some trials failed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &runner{sum: tt.sum}
			err := r.outcome(ctx)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.wantErr {
				t.Errorf("outcome = %q, want %q", got, tt.wantErr)
			}
		})
	}
}
