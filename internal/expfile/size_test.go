package expfile

import (
	"testing"
)

// TestRefusedSizes checks runs of absurd size (trials, matrix, planned
// time): each is refused with the limit and a way out.
func TestRefusedSizes(t *testing.T) {
	tests := []refusal{
		// trials: a typo of a billion.
		{name: "trials", src: "name: x\ntrials: 1000000000\nwarmup: 5000\n",
			want: []string{
				`x.yaml:2:9: trials must be an integer in 1..1000 or auto, got "1000000000"`,
				`x.yaml:3:9: warmup must be an integer in 0..1000 rounds or auto, got "5000"`,
			}},
		// A matrix of 11 × 10 × 10 scenarios.
		{name: "matrix size", src: "name: x\nmatrix:\n  linger.ms: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n" +
			"  batch.size: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n  rtt.ms: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n",
			want: []string{`x.yaml:5:3: matrix expands to 1100 scenarios, more than the limit of 1000; drop values or split the experiment`}},
		// Each setting within its limits, the product of them is not.
		{name: "planned duration", src: "name: x\nworkload: {duration.s: 3600, timeout.s: 4000}\ntrials: 200\nmatrix:\n  linger.ms: [0, 5]\n",
			want: []string{`x.yaml:3:1: the run is planned to take 17 days, more than the limit of 7 days (2 scenarios, 200 trials); lower trials, the matrix or workload.duration.s`}},
	}
	runRefusals(t, tests)
}

// TestAcceptedSizes checks sizes at the limits of TestRefusedSizes.
func TestAcceptedSizes(t *testing.T) {
	runAccepted(t, []acceptance{
		// 1000 trials of 1000 scenarios: within the limits of each.
		{"trials", "name: x\ntrials: 1000\nwarmup: 1000\n"},
		{"matrix", "name: x\nmatrix:\n  linger.ms: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n  batch.size: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n" +
			"  rtt.ms: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n"},
		// A week exactly: 168 one-hour trials.
		{"a week", "name: x\nworkload: {duration.s: 3599.9, timeout.s: 4000}\ntrials: 168\n"},
	})
}
