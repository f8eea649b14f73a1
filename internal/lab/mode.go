package lab

import (
	"context"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/spec"
)

// labMode is the lab's part of a run mode (spec.Mode): how it runs and
// schedules its trials and what it adds to the plan. Each mode registers
// its own from its file (mode_steady.go, duet.go, capacity.go, advise.go,
// advise_rate.go); TestModes checks that every spec mode has one and
// vice versa. Unset fields take the steady mode's behaviour.
type labMode struct {
	// run runs the planned scenarios (nil: each cluster group in turn,
	// runGroups).
	run func(r *runner, ctx context.Context, scs []spec.Scenario)
	// measured is a cluster group's measured schedule; skip leaves out
	// trials a resumed run already has.
	measured func(r *runner, g *clusterGroup, skip func(spec.Scenario, int) bool) scheduler
	// plan adds the mode's section to plan.json (nil: nothing).
	plan func(p *results.Plan, e *spec.Experiment, scs []spec.Scenario)
	// external says why sc cannot run on an existing cluster (--bootstrap),
	// or "" (nil: it can).
	external func(sc spec.Scenario) string
	// preflight finds what the machine lacks for the mode before anything
	// starts (nil: nothing).
	preflight func(scs []spec.Scenario) []error
}

// labModes maps spec.Mode names to the lab's part of them.
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
func modeOf(e *spec.Experiment) labMode { return labModes[e.Mode().Name()] }
