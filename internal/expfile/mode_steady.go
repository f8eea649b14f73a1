package expfile

import "fmt"

// steadyMode runs rounds of every scenario one after another: trials: N,
// trials: auto until every comparison is precise, over one life or many.
type steadyMode struct{}

func (steadyMode) Name() string     { return "steady" }
func (steadyMode) Searches() bool   { return false }
func (steadyMode) Advises() bool    { return false }
func (steadyMode) SideBySide() bool { return false }

func (steadyMode) roundsText(e *Experiment, warm string) string { return e.roundsWords(warm, "") }

func (steadyMode) measuredSeconds(e *Experiment, round float64) float64 {
	return e.roundsSeconds(round)
}

func (steadyMode) livesRefusal(string) string { return "" }
func (steadyMode) UpperBound() string         { return "" }

// roundsWords says how rounds run after warm, the warm-up's words, by the
// rounds' settings (lives, trials); suffix ends a sentence of one life's
// rounds (a duet's side by side).
func (e *Experiment) roundsWords(warm, suffix string) string {
	if e.LivesAuto {
		return fmt.Sprintf("lives until every comparison is known within ±%g %% over them (%d to %d lives; budget %s, their starts and warm-ups included), in each every cluster in turn: ", e.Precision*100, MinAutoLives, MaxLives, seconds(e.BudgetS)) +
			warm + fmt.Sprintf("%d rounds; answers judged over the lives", e.RoundsPerLife())
	}
	if n := e.ClusterLives(); n > 1 {
		lives := fmt.Sprintf("%d lives, in each every cluster in turn: ", n)
		if e.TrialsAuto {
			return lives + warm + fmt.Sprintf("rounds until its comparisons are known within ±%g %% (1/%d of the budget %s); answers judged over the lives", e.Precision*100, n, seconds(e.BudgetS))
		}
		return lives + warm + fmt.Sprintf("%d trials; answers judged over the lives", e.Trials)
	}
	if e.TrialsAuto {
		return warm + fmt.Sprintf("rounds until every comparison is known within ±%g %% (budget %s)", e.Precision*100, seconds(e.BudgetS)) + suffix
	}
	return warm + fmt.Sprintf("%d trials", e.Trials) + suffix
}
