package expfile

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/prodlab/prodlab/internal/figures"
)

// The capacity: section (issue 23) asks for each scenario's sustainable
// rate: the highest offered rate at which the producer keeps up, its window
// is steady and every SLO percentile of the latency from the intended send
// time holds. The lab searches it with probes (steady-state trials at
// chosen rates) instead of fixed rounds.
const (
	// DefaultKeepUp is capacity.keep.up: achieved ÷ offered rate over the
	// measured window that counts as keeping up.
	DefaultKeepUp = figures.DefaultKeepUp
	// DefaultCapacityPrecision is capacity.precision: the sustainable
	// rate's interval within ±5 %.
	DefaultCapacityPrecision = 0.05
	// DefaultCapacityBudgetS is capacity.budget (10 min).
	DefaultCapacityBudgetS = 600
)

// Capacity is the capacity: section; On when the file has one.
type Capacity struct {
	On bool
	// SLO maps a percentile key (figures.SLOPercentiles: "p50" … "p999"
	// from the intended send time, "e2e.p50" … "e2e.p999" end to end) to
	// its bound in milliseconds; empty: only keeping up counts.
	SLO                        map[string]float64
	KeepUp, Precision, BudgetS float64

	// sectionPos is where the file's capacity: section starts (Line 0
	// without one): advise: beside it is refused there.
	sectionPos pos
}

// capacityFields are the settings of the capacity section; any of them
// turns the search on.
var capacityFields = func() []field {
	var fs []field
	for _, p := range figures.SLOPercentiles {
		key := p.Key
		fs = append(fs, field{
			key:       "capacity.slo." + p.Name + ".ms",
			normalize: sloValue("capacity.slo." + p.Name + ".ms"),
			assign: func(e *Experiment, v string) {
				f, _ := strconv.ParseFloat(v, 64)
				if e.Capacity.SLO == nil {
					e.Capacity.SLO = map[string]float64{}
				}
				e.Capacity.SLO[key] = f
				e.Capacity.On = true
			},
			typed: typedNumber,
		})
	}
	return append(fs,
		field{key: "capacity.keep.up", normalize: keepUp,
			assign: func(e *Experiment, v string) { e.Capacity.KeepUp, _ = strconv.ParseFloat(v, 64); e.Capacity.On = true },
			typed:  typedNumber},
		field{key: "capacity.precision", normalize: shareValue("capacity.precision", "relative half-width"),
			assign: func(e *Experiment, v string) {
				e.Capacity.Precision, _ = strconv.ParseFloat(v, 64)
				e.Capacity.On = true
			},
			typed: typedNumber},
		field{key: "capacity.budget", normalize: budgetValue("capacity.budget"),
			assign: func(e *Experiment, v string) { e.Capacity.BudgetS, _ = strconv.ParseFloat(v, 64); e.Capacity.On = true },
			typed:  typedDuration},
	)
}()

// sloValue accepts milliseconds in MinSLOMs..MaxSLOMs.
func sloValue(key string) func(raw, _ string) (string, error) {
	return func(raw, _ string) (string, error) {
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil || !(f >= MinSLOMs && f <= MaxSLOMs) {
			return "", fmt.Errorf("%s must be a number of milliseconds in %s..%s, got %q", key, fmtNumber(MinSLOMs), fmtNumber(MaxSLOMs), raw)
		}
		return strconv.FormatFloat(f, 'g', -1, 64), nil
	}
}

// keepUp accepts a share in [MinKeepUp, 1].
func keepUp(raw, _ string) (string, error) {
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || !(f >= MinKeepUp && f <= 1) {
		return "", fmt.Errorf("capacity.keep.up must be a share of the offered rate in %g..1, e.g. 0.99, got %q", MinKeepUp, raw)
	}
	return strconv.FormatFloat(f, 'g', -1, 64), nil
}

// budgetValue accepts a duration ("10m", "90s") or seconds, in
// MinBudgetS..MaxBudgetS.
func budgetValue(key string) func(raw, _ string) (string, error) {
	return func(raw, _ string) (string, error) {
		s, err := parseSeconds(raw)
		if err != nil || s < MinBudgetS || s > MaxBudgetS {
			return "", fmt.Errorf("%s must be a duration like 10m, 90s or 1h30m (or seconds), from %s to %s, got %q",
				key, longDuration(MinBudgetS), longDuration(MaxBudgetS), raw)
		}
		return strconv.FormatFloat(s, 'f', -1, 64), nil
	}
}

func typedNumber(v string) any { f, _ := strconv.ParseFloat(v, 64); return number(f) }

func typedDuration(v string) any {
	s, _ := strconv.ParseFloat(v, 64)
	return (time.Duration(s * float64(time.Second))).String()
}

// checkCapacity refuses what contradicts a capacity search, once per
// experiment: the search chooses every probe's rate and how many probes run,
// so a fixed rate, fixed or automatic rounds and run-level precision or
// budget have no place beside it; a probe is a steady-state window, so a
// burst cannot be one; and the budget must fit the ceiling probe and one
// more probe of every scenario.
func (e *Experiment) checkCapacity(scs []Scenario, c *collector) {
	if !e.Capacity.On {
		return
	}
	capAt := e.firstPos("capacity.")
	if e.Advise.On {
		capAt = e.firstPos("advise")
	}
	for _, k := range []string{"trials", "precision", "budget"} {
		p, set := e.pos[k]
		switch {
		case !set:
		case e.Advise.On:
			c.add(p.errorf("%s does not apply beside advise, which decides its own probes: drop %s (the search stops at advise.precision or advise.budget)", k, k))
		default:
			c.add(p.errorf("%s does not apply to a capacity search, which decides its own probes: drop %s (the search stops at capacity.precision or capacity.budget)", k, k))
		}
	}
	var rateSet, burst bool
	probe := 0.0
	for _, sc := range scs {
		w := sc.Exp.Workload
		rateSet = rateSet || w.Rate > 0
		burst = burst || w.DurationS <= 0
		probe += TrialGapS + w.WarmupS + w.DurationS
	}
	axis, onAxis := e.rateAxis()
	if rateSet || onAxis {
		at := e.posOr("workload.rate", capAt)
		if onAxis {
			at = axis
		}
		if e.Advise.On {
			c.add(at.errorf("workload.rate cannot be set beside advise objective %s: the search chooses each probe's rate (drop workload.rate, or set advise.objective to one judged at a fixed rate, such as %s)",
				ObjectiveSustainable, RateObjectives[0]))
		} else {
			c.add(at.errorf("workload.rate cannot be set with a capacity section: the search chooses each probe's rate (drop workload.rate, or drop capacity to measure at a fixed rate)"))
		}
	}
	if burst {
		c.add(capAt.errorf("%s probes steady-state windows: set workload.duration.s (e.g. 3) and workload.warmup.s (e.g. 1); a burst of workload.records cannot be one", e.searchName()))
		return
	}
	if e.Advise.On {
		e.checkAdviseBudget(scs, c)
	} else if need := 2 * probe; need > e.Capacity.BudgetS {
		c.add(e.posOr("capacity.budget", capAt).errorf("capacity.budget %s cannot fit two probes of each of %d scenarios (%s: the ceiling probe and one more)",
			fmtSeconds(e.Capacity.BudgetS), len(scs), fmtSeconds(need)))
	}
	e.capacityComparisons(c)
}

// searchName names the search in messages as the file asks for it: "advise"
// or "a capacity search".
func (e *Experiment) searchName() string {
	if e.Advise.On {
		return "advise"
	}
	return "a capacity search"
}

// capacityComparisons makes compare: entries of a capacity run judge
// sustainable rates: the default metric, and the only one, since a
// scenario's probes ran at different rates and their per-trial figures do
// not compare.
func (e *Experiment) capacityComparisons(c *collector) {
	for i := range e.Compare {
		cs := &e.Compare[i]
		p, named := cs.keyPos["metric"]
		switch {
		case !named:
			cs.Metric = figures.SustainableMetric
		case cs.Metric != figures.SustainableMetric:
			c.add(p.errorf("a capacity run compares sustainable rates (metric: %s): its probes run at different rates, so %s of one trial does not compare with another's",
				figures.SustainableMetric, cs.Metric))
		}
	}
}

// checkSustainableMetric refuses metric: sustainable outside a capacity run.
func (e *Experiment) checkSustainableMetric(c *collector) {
	if e.Capacity.On {
		return
	}
	for _, cs := range e.Compare {
		if cs.Metric == figures.SustainableMetric {
			c.add(cs.keyPos["metric"].errorf("metric %s needs a capacity: section (the sustainable rate is what a capacity search finds)", figures.SustainableMetric))
		}
	}
}

// firstPos is where the first key with prefix was set, or the file.
func (e *Experiment) firstPos(prefix string) pos {
	var keys []string
	for k := range e.pos {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	best := pos{File: e.File}
	for _, k := range slices.Sorted(slices.Values(keys)) {
		if p := e.pos[k]; best.Line == 0 || (p.Line > 0 && p.Line < best.Line) {
			best = p
		}
	}
	return best
}

// checkSLOOrder refuses an SLO bound above a higher percentile's: p50
// never exceeds p99, so the lower percentile's bound would never decide.
func (e *Experiment) checkSLOOrder(c *collector) {
	prefix := e.sloName("capacity.slo.")
	qs := figures.SLOPercentiles
	for i, lo := range qs {
		for _, hi := range qs[i+1:] {
			if lo.E2E != hi.E2E {
				continue // different latencies: neither bounds the other
			}
			a, okA := e.Capacity.SLO[lo.Key]
			b, okB := e.Capacity.SLO[hi.Key]
			if okA && okB && a > b {
				c.add(e.posOr("capacity.slo."+lo.Name+".ms", pos{File: e.File}).errorf("%s%s.ms %g is above %s%s.ms %g, and %s never exceeds %s: its bound would never decide (lower it to at most %g, or drop it)",
					prefix, lo.Name, a, prefix, hi.Name, b, lo.Name, hi.Name, b))
				break
			}
		}
	}
}

// rateAxis is where the matrix sets workload.rate (an axis, or a map
// value's key), even to 0: a capacity search would silently override it.
func (e *Experiment) rateAxis() (pos, bool) { return e.axisPos("workload.rate") }

// axisPos is where the matrix sets key (an axis, or a map value's key).
func (e *Experiment) axisPos(key string) (pos, bool) {
	for _, a := range e.Matrix {
		if a.canonical == key {
			return a.pos, true
		}
		for _, v := range a.Values {
			if _, ok := v.Set[key]; ok {
				if p, ok := v.keyPos[key]; ok {
					return p, true
				}
				return a.pos, true
			}
		}
	}
	return pos{}, false
}

// sloName is an SLO key (capacity.slo.p99.ms) as the file writes it:
// under advise.slo beside advise.
func (e *Experiment) sloName(key string) string {
	if e.Advise.On {
		return strings.Replace(key, "capacity.", "advise.", 1)
	}
	return key
}

// posOr is where key was set, or alt.
func (e *Experiment) posOr(key string, alt pos) pos {
	if p, ok := e.pos[key]; ok {
		return p
	}
	return alt
}

// capacityYAML writes the capacity section (nil without one, and beside
// advise, whose section writes them).
func (e *Experiment) capacityYAML() yaml.MapSlice {
	if !e.Capacity.On || e.Advise.On { // advise writes the search's settings
		return nil
	}
	var slo yaml.MapSlice
	for _, p := range figures.SLOPercentiles {
		if v, ok := e.Capacity.SLO[p.Key]; ok {
			slo = append(slo, yaml.MapItem{Key: p.Name + ".ms", Value: number(v)})
		}
	}
	out := yaml.MapSlice{}
	if len(slo) > 0 {
		out = append(out, yaml.MapItem{Key: "slo", Value: slo})
	}
	return append(out,
		yaml.MapItem{Key: "keep.up", Value: number(e.Capacity.KeepUp)},
		yaml.MapItem{Key: "precision", Value: number(e.Capacity.Precision)},
		yaml.MapItem{Key: "budget", Value: fmtSeconds(e.Capacity.BudgetS)})
}

// SLOText writes the SLO as "SLO p99 ≤ 100 ms" (percentiles in order,
// joined by "and"); "no SLO" when it has none.
func (c Capacity) SLOText() string {
	if s := figures.SLOText(c.SLO); s != "" {
		return "SLO " + s
	}
	return "no SLO"
}

// found notes a capacity section at at: even capacity: {} asks for a
// search, on keeping up alone.
func (c *Capacity) found(at pos) { c.On, c.sectionPos = true, at }

// capacityMode searches each scenario's sustainable rate (capacity:).
type capacityMode struct{}

func (capacityMode) Name() string     { return "capacity" }
func (capacityMode) Searches() bool   { return true }
func (capacityMode) Advises() bool    { return false }
func (capacityMode) SideBySide() bool { return false }

func (capacityMode) roundsText(e *Experiment, warm string) string {
	return warm + fmt.Sprintf("a capacity search per scenario (%s, keeping up %g) until each sustainable rate is known within ±%g %% (budget %s)",
		e.Capacity.SLOText(), e.Capacity.KeepUp, e.Capacity.Precision*100, seconds(e.Capacity.BudgetS))
}

// measuredSeconds is the search's budget: it stops there at the latest.
func (capacityMode) measuredSeconds(e *Experiment, _ float64) float64 { return e.Capacity.BudgetS }

func (capacityMode) livesRefusal(lives string) string { return searchLivesRefusal(lives) }

func (capacityMode) UpperBound() string {
	return "at most: the capacity search stops earlier once every sustainable rate is precise"
}

// searchLivesRefusal is why lives: cannot apply to a search.
func searchLivesRefusal(lives string) string {
	return fmt.Sprintf("lives: %s applies to rounds, not to a capacity or advise search, whose probes climb on one cluster (drop lives)", lives)
}
