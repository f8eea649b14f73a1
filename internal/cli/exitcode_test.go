package cli

import (
	"errors"
	"fmt"
	"testing"

	"github.com/prodlab/prodlab/internal/lab"
)

func TestExitCode(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want int
	}{
		{"ok", nil, ExitOK},
		{"run failure", errors.New("cluster did not start"), ExitFailure},
		{"trials failed", fmt.Errorf("2 of 4 trials: %w", lab.ErrTrialsFailed), ExitFailure},
		{"usage", usage(errors.New("bad key")), ExitUsage},
		{"violated", fmt.Errorf("1 of 4 trials: %w", lab.ErrViolated), ExitViolated},
	}
	for _, c := range cases {
		if got := exitCode(c.err); got != c.want {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.want)
		}
	}
}
