package expfile

// Mode is how a run spends its trials: steady rounds (mode_steady.go),
// a duet's side-by-side rounds (duet.go), a capacity search (capacity.go),
// or an advisor race, searching rates or at a fixed one (advise.go). An
// experiment has exactly one (Experiment.Mode), told once from its
// sections; the rest of the house asks the mode, never a combination of
// the sections' flags, and each mode answers in its own file. The lab's
// and the report's parts of a mode are registered in their packages by
// its Name (lab/mode_*.go); TestModes holds the lists together.
type Mode interface {
	// Name is the mode's word: "steady", "duet", "capacity", "advise"
	// or "advise-rate".
	Name() string
	// Searches reports whether the mode decides its own probes or rounds
	// (a capacity search, an advisor): trials:, lives: and --set trials
	// do not apply to it.
	Searches() bool
	// Advises reports whether the run is an advisor race: it needs an
	// advise section, and writes advice.
	Advises() bool
	// SideBySide reports whether a round runs each comparison's two arms
	// at once, on clusters of their own.
	SideBySide() bool
	// roundsText says how each scenario's trials run after warm, the
	// warm-up's words (Experiment.RoundsText).
	roundsText(e *Experiment, warm string) string
	// measuredSeconds is the planned measured time, in seconds, of rounds
	// that take round seconds each (plannedSeconds).
	measuredSeconds(e *Experiment, round float64) float64
	// livesRefusal says why lives: cannot apply, or "".
	livesRefusal(lives string) string
	// UpperBound says why the planned duration is only a bound, or ""
	// when the rounds' own settings decide (trials: auto, lives: auto).
	UpperBound() string
}

// Modes are every run mode, for the registries in lab and report to be
// checked against.
var Modes = []Mode{steadyMode{}, duetMode{}, capacityMode{}, adviseMode{}, adviseRateMode{}}

// Mode is the experiment's run mode. It is the one place that reads the
// sections' flags together: an advise section with an objective judged at
// a rate, an advise section (whose search is a capacity search), a
// capacity section, schedule: duet, or else steady rounds.
func (e *Experiment) Mode() Mode {
	switch {
	case e.Advise.On && isRateObjective(e.Advise.Objective):
		return adviseRateMode{}
	case e.Advise.On:
		return adviseMode{}
	case e.Capacity.On:
		return capacityMode{}
	case e.Schedule == ScheduleDuet:
		return duetMode{}
	default:
		return steadyMode{}
	}
}
