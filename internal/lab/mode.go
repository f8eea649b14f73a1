package lab

import (
	"context"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
)

// labMode is the lab's part of a run mode (expfile.Mode): how it runs and
// schedules its trials and what it adds to the plan. Each mode registers
// its own from its file (mode_steady.go, duet.go, capacity.go, advise.go,
// advise_rate.go); TestModes checks that every expfile mode has one and
// vice versa. Unset fields take the steady mode's behaviour.
type labMode struct {
	// run runs the planned scenarios (nil: each cluster group in turn,
	// runGroups).
	run func(r *runner, ctx context.Context, scs []expfile.Scenario)
	// measured is a cluster group's measured schedule; skip leaves out
	// trials a resumed run already has.
	measured func(r *runner, g *clusterGroup, skip func(expfile.Scenario, int) bool) scheduler
	// plan adds the mode's section to plan.json (nil: nothing).
	plan func(p *results.Plan, e *expfile.Experiment, scs []expfile.Scenario)
	// external says why sc cannot run on an existing cluster (--bootstrap),
	// or "" (nil: it can).
	external func(sc expfile.Scenario) string
	// preflight finds what the machine lacks for the mode before anything
	// starts (nil: nothing).
	preflight func(scs []expfile.Scenario) []error
}

// labModes maps expfile.Mode names to the lab's part of them.
var labModes = map[string]labMode{}

// registerMode adds the lab's part of a run mode; it runs from init
// functions.
func registerMode(name string, m labMode) {
	if _, dup := labModes[name]; dup {
		panic("lab: run mode registered twice: " + name)
	}
	labModes[name] = m
}

// modeOf is the lab's part of e's run mode.
func modeOf(e *expfile.Experiment) labMode { return labModes[e.Mode().Name()] }
