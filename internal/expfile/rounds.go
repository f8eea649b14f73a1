package expfile

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Limits and defaults of the run-level settings: how many rounds to run and
// how precise their comparisons must be.
const (
	// DefaultPrecision is the target relative half-width of every planned
	// comparison's confidence interval under trials: auto.
	DefaultPrecision = 0.05
	// DefaultEquivalence is the margin within which two scenarios are
	// called equivalent (two one-sided tests).
	DefaultEquivalence = 0.05
	// DefaultBudgetS bounds the measured phase of trials: auto (10 min).
	DefaultBudgetS = 600
	// MaxAutoRounds bounds trials: auto in count as the budget bounds it in
	// time.
	MaxAutoRounds = 1000
	// MaxRounds bounds trials and warmup given as numbers, as MaxAutoRounds
	// bounds trials: auto: past it, more rounds refine nothing a reader
	// would act on, and a typo (trials: 1000000000) would run for years.
	MaxRounds = MaxAutoRounds
	// DefaultWarmupMaxS bounds warmup: auto.
	DefaultWarmupMaxS = 120
	// MinTimelineIntervalMs and MaxTimelineIntervalMs bound
	// timeline.interval.ms: finer points cost more than they tell, coarser
	// ones hide the trial's shape.
	MinTimelineIntervalMs = 10
	MaxTimelineIntervalMs = 60_000
	// DefaultTimelineIntervalMs is the timeline's interval for trials of
	// 20 s or more; shorter trials get about 20 points (see
	// Experiment.TimelineInterval).
	DefaultTimelineIntervalMs = 1000
	// MaxDurationS bounds workload.duration.s (one day).
	MaxDurationS = 86_400
)

// autoWord is the value of trials and warmup that asks the lab to decide.
const autoWord = "auto"

// roundFields are the run-level settings; they join fields.
var roundFields = []field{
	autoOrIntField("trials", 1, MaxRounds, "", func(e *Experiment, auto bool, n int) { e.TrialsAuto, e.Trials = auto, n }),
	autoOrIntField("warmup", 0, MaxRounds, " rounds", func(e *Experiment, auto bool, n int) { e.WarmupAuto, e.Warmup = auto, n }),
	floatField("warmup.max.s", 1, MaxDurationS, false, func(e *Experiment) *float64 { return &e.WarmupMaxS }),
	shareField("precision", "relative half-width", func(e *Experiment) *float64 { return &e.Precision }),
	shareField("equivalence", "relative margin", func(e *Experiment) *float64 { return &e.Equivalence }),
	autoOrIntField("lives", 1, MaxLives, "", func(e *Experiment, auto bool, n int) { e.LivesAuto, e.Lives = auto, n }),
	stringField("schedule", checkSchedule, func(e *Experiment) *string { return &e.Schedule }),
	{
		key:       "budget",
		normalize: budgetValue("budget"),
		assign:    func(e *Experiment, v string) { e.BudgetS, _ = strconv.ParseFloat(v, 64) },
		typed:     typedDuration,
	},
}

// shareField is a relative half-width or margin in MinShare..1 (1
// excluded): precision, equivalence.
func shareField(key, what string, get func(*Experiment) *float64) field {
	f := floatField(key, 0, 1, true, get)
	f.normalize = shareValue(key, what)
	return f
}

// shareValue accepts a relative half-width or margin (what) in
// [MinShare, 1).
func shareValue(key, what string) func(raw, _ string) (string, error) {
	return func(raw, _ string) (string, error) {
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil || !(f >= MinShare && f < 1) {
			return "", fmt.Errorf("%s must be a %s in %s..1 (1 excluded), e.g. 0.05 for ±5 %%, got %q", key, what, fmtNumber(MinShare), raw)
		}
		return strconv.FormatFloat(f, 'g', -1, 64), nil
	}
}

// autoOrIntField is a setting that takes an integer in lo..hi or "auto"
// (trials, warmup); set stores auto, or the number with auto false.
func autoOrIntField(key string, lo, hi int64, unit string, set func(e *Experiment, auto bool, n int)) field {
	return field{
		key: key,
		normalize: func(raw, _ string) (string, error) {
			if strings.EqualFold(raw, autoWord) {
				return autoWord, nil
			}
			if n, err := parseInt(raw); err == nil && n >= lo && n <= hi {
				return strconv.FormatInt(n, 10), nil
			}
			return "", fmt.Errorf("%s must be an integer in %d..%d%s or auto, got %q", key, lo, hi, unit, raw)
		},
		assign: func(e *Experiment, v string) {
			if v == autoWord {
				set(e, true, 0)
				return
			}
			n, _ := strconv.Atoi(v)
			set(e, false, n)
		},
		typed: autoOrInt,
	}
}

// autoOrInt is the YAML form of trials and warmup.
func autoOrInt(v string) any {
	if v == autoWord {
		return autoWord
	}
	n, _ := strconv.Atoi(v)
	return n
}

// parseSeconds reads a Go duration ("10m", "1h30m") or a bare number of
// seconds.
func parseSeconds(raw string) (float64, error) {
	if f, err := strconv.ParseFloat(raw, 64); err == nil {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("not finite")
		}
		return f, nil
	}
	d, err := time.ParseDuration(raw)
	if err != nil {
		return 0, err
	}
	return d.Seconds(), nil
}

// checkRounds reports run-level settings that contradict each other. It
// runs once per experiment (not per scenario): these keys are not matrix
// axes.
func (e *Experiment) checkRounds(c *collector) {
	at := func(k string) pos {
		if p, ok := e.pos[k]; ok {
			return p
		}
		return pos{File: e.File}
	}
	if !e.TrialsAuto && !e.LivesAuto && !e.Mode().Searches() { // checkCapacity and advise refuse them there
		for _, k := range []string{"precision", "budget"} {
			if _, set := e.pos[k]; set {
				c.add(at(k).errorf("%s applies to trials: auto or lives: auto, but trials is %d (set trials: auto or lives: auto, or drop %s)", k, e.Trials, k))
			}
		}
	}
	if _, set := e.pos["warmup.max.s"]; set && !e.WarmupAuto {
		c.add(at("warmup.max.s").errorf("warmup.max.s applies to warmup: auto, but warmup is %d rounds", e.Warmup))
	}
}

// WarmupCatchesUp reports whether e's rate-limited trials hold their
// warm-up past workload.warmup.s, for at most one more window, so that
// the window begins on schedule: under an SLO, with steady-state windows
// after a timed warm-up. One producer is held until it is near its
// schedule (the lab's catch-up, driver.Trial.CatchUp); several producers,
// or a Trogdor fleet's nodes, are held the whole window more
// (WarmupHeldTogether). workload.timeout.s must allow the extra window.
func (e *Experiment) WarmupCatchesUp() bool {
	w := e.Workload
	return len(e.Capacity.SLO) > 0 && w.DurationS > 0 && w.WarmupS > 0
}

// WarmupHeldTogether reports whether e's catch-up holds every producer's
// warm-up for the whole extra window rather than until each is on
// schedule: several producers, or the nodes of a Trogdor fleet, each
// catching up on its own would begin their parts of the merged window at
// different moments (and a fleet's nodes cannot wait for each other
// mid-task). Held together, every part begins at the same moment after
// the trial's one start time; a producer still behind its schedule then
// is judged by summary.StartBehind, as a single one is.
func (e *Experiment) WarmupHeldTogether() bool {
	return e.WarmupCatchesUp() && (e.Workload.Producers > 1 || e.Trogdor.Coordinator != "")
}

// checkWorkloadTime reports a scenario's contradictory timing settings.
func checkWorkloadTime(e *Experiment, report func(keys []string, format string, args ...any)) {
	w := e.Workload
	checkWarmup(w, report)
	if w.DurationS > 0 && w.WarmupS >= w.DurationS {
		report([]string{"workload.warmup.s", "workload.duration.s"},
			"workload.warmup.s (%g) must be shorter than workload.duration.s (%g)", w.WarmupS, w.DurationS)
	}
	need, what := w.DurationS+w.WarmupS, "workload.warmup.s + workload.duration.s"
	if e.WarmupCatchesUp() {
		// The warm-up's catch-up may take one more window.
		need, what = need+w.DurationS, "workload.warmup.s + 2 × workload.duration.s (a window's catch-up after the warm-up, under an SLO)"
	}
	if need > 0 && w.TimeoutS <= need {
		report([]string{"workload.timeout.s", "workload.duration.s", "workload.warmup.s"},
			"workload.timeout.s (%g) must exceed %s (%g)", w.TimeoutS, what, need)
	}
	if need := float64(w.Records+w.WarmupRecords) / w.Rate; w.DurationS <= 0 && w.Rate > 0 && need >= w.TimeoutS {
		report([]string{"workload.timeout.s", "workload.records", "workload.rate"},
			"workload.records %d%s at workload.rate %g records/s take %s, and workload.timeout.s (%g) ends the trial before: every trial would time out; raise workload.timeout.s above %.0f, raise the rate, or send fewer records",
			w.Records, warmupRecordsText(w), w.Rate, longDuration(need), w.TimeoutS, need)
	}
	if iv := e.TimelineIntervalMs; iv != 0 && (iv < MinTimelineIntervalMs || iv > MaxTimelineIntervalMs) {
		report([]string{"timeline.interval.ms"},
			"timeline.interval.ms must be 0 (automatic) or in %d..%d, got %g", MinTimelineIntervalMs, MaxTimelineIntervalMs, iv)
	} else if trial := w.WarmupS + w.DurationS; iv != 0 && w.DurationS > 0 && iv >= trial*1000 {
		report([]string{"timeline.interval.ms", "workload.duration.s", "workload.warmup.s"},
			"timeline.interval.ms %g is as long as the trial (workload.warmup.s + workload.duration.s = %s) or longer: its timeline would hold no point; use at most %.0f, or 0 (automatic)",
			iv, longDuration(trial), trial*1000/2)
	}
}

// warmupRecordsText is " and workload.warmup.records N" when w warms up
// by count, for messages about the records a trial sends.
func warmupRecordsText(w Workload) string {
	if w.WarmupRecords == 0 {
		return ""
	}
	return fmt.Sprintf(" and workload.warmup.records %d", w.WarmupRecords)
}

// checkWarmup reports a warm-up that contradicts the trial it precedes: a
// time-bounded warm-up before a burst (which counts records, not time) and
// a warm-up of at least as many records as are measured.
func checkWarmup(w Workload, report reportFunc) {
	if w.DurationS == 0 && w.WarmupS > 0 {
		report([]string{"workload.warmup.s", "workload.duration.s"},
			"workload.warmup.s (%g) applies to steady-state trials (workload.duration.s > 0); a burst of workload.records warms up by count: use workload.warmup.records",
			w.WarmupS)
	}
	if w.Records > 0 && w.WarmupRecords >= w.Records {
		report([]string{"workload.warmup.records", "workload.records"},
			"workload.warmup.records (%d) must be fewer than workload.records (%d): the warm-up is excluded from every figure",
			w.WarmupRecords, w.Records)
	}
}

// TimelineInterval is the timeline's interval for this scenario:
// timeline.interval.ms when set, else 1 s, finer for trials known to be
// short (about 20 points per steady-state trial, never below 50 ms), and
// 100 ms for bursts, whose length is unknown before they run.
func (e *Experiment) TimelineInterval() time.Duration {
	if e.TimelineIntervalMs > 0 {
		return time.Duration(e.TimelineIntervalMs * float64(time.Millisecond))
	}
	total := e.Workload.DurationS + e.Workload.WarmupS
	if total <= 0 {
		return 100 * time.Millisecond
	}
	ms := math.Min(DefaultTimelineIntervalMs, math.Max(50, math.Round(total*1000/20)))
	return time.Duration(ms * float64(time.Millisecond))
}

// Steady reports whether the scenario's trials are steady-state (bounded by
// workload.duration.s) rather than bursts.
func (e *Experiment) Steady() bool { return e.Workload.DurationS > 0 }

// checkBudget refuses a trials: auto budget that cannot fit one round of
// steady-state trials (a burst's length is unknown before it runs).
func (e *Experiment) checkBudget(scs []Scenario, c *collector) {
	if !e.TrialsAuto && !e.LivesAuto {
		return
	}
	round := 0.0
	for _, sc := range scs {
		w := sc.Exp.Workload
		if w.DurationS <= 0 {
			return
		}
		round += w.DurationS + w.WarmupS
	}
	at := pos{File: e.File}
	if p, ok := e.pos["budget"]; ok {
		at = p
	}
	if e.LivesAuto {
		if need := round * float64(MinAutoLives*e.RoundsPerLife()); need > e.BudgetS {
			c.add(at.errorf("budget %s cannot fit the %d rounds of lives: auto's first %d lives (%d each), not counting their warm-ups: %d scenarios × (warm-up + duration) take %s a round",
				fmtSeconds(e.BudgetS), MinAutoLives*e.RoundsPerLife(), MinAutoLives, e.RoundsPerLife(), len(scs), fmtSeconds(round)))
		}
		return
	}
	if lives := float64(e.ClusterLives()); round > e.BudgetS/lives {
		share := ""
		if lives > 1 {
			share = fmt.Sprintf(" in each of its %d lives (%s each)", e.Lives, fmtSeconds(e.BudgetS/lives))
		}
		c.add(at.errorf("budget %s cannot fit one round%s: %d scenarios × (warm-up + duration) take %s", fmtSeconds(e.BudgetS), share, len(scs), fmtSeconds(round)))
	}
}

// fmtSeconds writes seconds as a Go duration ("10m0s").
func fmtSeconds(s float64) string {
	return (time.Duration(math.Round(s*1000)) * time.Millisecond).String()
}
