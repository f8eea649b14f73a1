package expfile

import (
	"fmt"
	"math"
	"time"
)

// MaxPlannedDuration bounds a run's planned time (see PlannedDuration): an
// experiment planned to take longer than a week is a typo or a mistake
// (trials × matrix × duration multiply), not a lab run.
const MaxPlannedDuration = 7 * 24 * time.Hour

// TrialGapS is the time a trial spends outside its measurement (a fresh
// topic, the driver's start and stop), in seconds: the median gap between
// trials measured by make bench (bench/RESULTS.md, "gaps": 0.096 s).
const TrialGapS = 0.1

// maxDurationS is the longest time.Duration, in seconds.
var maxDurationS = float64(math.MaxInt64) / float64(time.Second)

// PlannedDuration estimates how long running the experiment takes: every
// scenario's trials in every round, warm-up rounds included, each trial
// its workload.warmup.s and workload.duration.s (steady state) or its
// records at workload.rate (bursts), plus TrialGapS. An unthrottled burst
// counts only its gap and warm-up, since its send time is known only once
// it runs; so for such experiments the figure is a lower bound. Under
// trials: auto the measured phase counts as its budget (or MaxAutoRounds
// rounds, when shorter), and warmup: auto as warmup.max.s per cluster
// layout (the lab warms each cluster it starts): the most they take.
//
// The figure is what --dry-run shows; Parse refuses a plan longer than
// MaxPlannedDuration. It is zero for an experiment whose matrix does not
// expand, and saturates at the longest time.Duration.
func (e *Experiment) PlannedDuration() time.Duration {
	scs, err := e.Scenarios()
	if err != nil {
		return 0
	}
	return seconds(e.plannedSeconds(scs))
}

// plannedSeconds is PlannedDuration over expanded scenarios, in seconds.
func (e *Experiment) plannedSeconds(scs []Scenario) float64 {
	round := 0.0
	for _, sc := range scs {
		round += trialSeconds(sc.Exp.Workload)
	}
	layouts := float64(clusterLayouts(scs))
	if e.Mode().SideBySide() { // a round runs each pair's trials side by side, and warms every cluster at once
		round /= 2
		layouts = 1
	}
	if e.LivesAuto { // the budget holds every life: its start, warm-up and rounds
		return e.BudgetS
	}
	var warm float64
	if e.WarmupAuto {
		warm = e.WarmupMaxS * layouts
	} else {
		warm = float64(e.Warmup) * round
	}
	warm *= float64(e.ClusterLives()) // every life warms up again
	return warm + e.Mode().measuredSeconds(e, round)
}

// roundsSeconds is the measured time of rounds of round seconds each, by
// the rounds' settings: trials: auto's budget or its most rounds, or
// trials: N per life.
func (e *Experiment) roundsSeconds(round float64) float64 {
	if e.TrialsAuto {
		return math.Min(e.BudgetS, MaxAutoRounds*round*float64(e.ClusterLives()))
	}
	return float64(e.Trials) * round * float64(e.ClusterLives()) // trials: N per life
}

// trialSeconds estimates one trial of workload w, in seconds (see
// PlannedDuration).
func trialSeconds(w Workload) float64 {
	s := TrialGapS + w.WarmupS
	switch {
	case w.DurationS > 0:
		s += w.DurationS
	case w.Rate > 0:
		s += float64(w.WarmupRecords+w.Records) / w.Rate
	}
	return s
}

// clusterLayouts counts the distinct clusters the scenarios run on; the
// lab starts, and warms, each once.
func clusterLayouts(scs []Scenario) int {
	seen := map[string]bool{}
	for _, sc := range scs {
		seen[sc.Exp.Cluster.Key()] = true
	}
	return len(seen)
}

// seconds converts seconds to a Duration, saturating instead of
// overflowing.
func seconds(s float64) time.Duration {
	if s >= maxDurationS {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(s * float64(time.Second))
}

// checkPlan refuses an experiment planned to run longer than
// MaxPlannedDuration, saying how the figure comes about.
func (e *Experiment) checkPlan(scs []Scenario, c *collector) {
	total := e.plannedSeconds(scs)
	if total <= MaxPlannedDuration.Seconds() {
		return
	}
	at := pos{File: e.File}
	for _, k := range []string{"trials", "warmup"} {
		if p, ok := e.pos[k]; ok {
			at = p
			break
		}
	}
	c.add(at.errorf("the run is planned to take %s, more than the limit of %s (%d scenarios, %s); lower trials, the matrix or workload.duration.s",
		longDuration(total), longDuration(MaxPlannedDuration.Seconds()), len(scs), e.RoundsText()))
}

// RoundsText says how many trials each scenario gets, warm-up first, for
// messages (the plan's limit, `run`'s first line, `--dry-run`).
func (e *Experiment) RoundsText() string {
	warm := ""
	switch {
	case e.WarmupAuto:
		warm = fmt.Sprintf("warm-up rounds until steady (at most %gs), then ", e.WarmupMaxS)
	case e.Warmup > 0:
		warm = fmt.Sprintf("%d warm-up round%s, then ", e.Warmup, map[bool]string{true: "s"}[e.Warmup > 1])
	}
	return e.Mode().roundsText(e, warm)
}

// longDuration writes seconds for messages: days past two days, else a Go
// duration rounded to the second.
func longDuration(s float64) string {
	const day = 86_400
	if s >= 2*day {
		return fmt.Sprintf("%.0f days", s/day)
	}
	return seconds(s).Round(time.Second).String()
}
