package report

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// HistoryRun is one run directory of a history, as app reads it.
type HistoryRun struct {
	Dir     string
	Records []results.Record
	// Plan is the run's plan.json (nil without one: no findings).
	Plan *results.Plan
	// Env is its environment.json (zero without one); Layout names its
	// cluster's shape (brokers, controllers, zones), "" when unknown.
	Env    results.Environment
	Layout string
}

// History is runs of one experiment in time order, lined up: every
// headline metric of every scenario, and every finding, as a series over
// the runs, with the change points of each (stats.ChangePoints).
type History struct {
	Experiment string       `json:"experiment"`
	Runs       []HistoryRef `json:"runs"`
	Series     []Series     `json:"series"`
	// Method says how change points are found, with its parameters.
	Method ChangeMethod `json:"change_points"`
}

// HistoryRef is one run of a history: its directory, when it started, and
// what of its environment differs from the run before (a change of level
// there may be the environment's, not prodlab's subject's).
type HistoryRef struct {
	Dir     string   `json:"dir"`
	Started string   `json:"started,omitempty"`
	Changed []string `json:"env_changed,omitempty"`
}

// ChangeMethod describes the change-point detection a history used.
type ChangeMethod struct {
	Name         string  `json:"method"`
	Alpha        float64 `json:"alpha"`
	Permutations int     `json:"permutations"`
	MinRuns      int     `json:"min_runs_per_level"`
}

// Series is one figure over the runs: a metric of a scenario, or a
// finding's relative difference (Finding set, Scenario empty).
type Series struct {
	Scenario string `json:"scenario,omitempty"`
	Finding  string `json:"finding,omitempty"`
	Metric   string `json:"metric"`
	Name     string `json:"name"`
	Unit     string `json:"unit"`
	// Higher is true when a higher value is better (throughput; a
	// finding's difference is as its metric's).
	Higher bool `json:"higher_is_better"`
	// Points are one per run, in the history's order.
	Points  []Point       `json:"points"`
	Changes []SeriesShift `json:"changes,omitempty"`
}

// Point is a series' value in one run: the mean over its counted trials
// and the interval at the run's level (a finding: its estimate and
// interval). Missing: the run has no value (the scenario or metric absent).
type Point struct {
	Value   float64 `json:"value"`
	Lo      float64 `json:"lo"`
	Hi      float64 `json:"hi"`
	N       int     `json:"n"`
	Missing bool    `json:"missing,omitempty"`
}

// SeriesShift is a change point of a series: Run is the index of the
// first run of the new level (JSON and text count runs from 1); Change
// is After against Before: relative (0.1: 10 % up) for a metric, in
// percentage points for a finding, whose values are differences already
// (Points). Env is true when the environment changed since the series'
// run before.
type SeriesShift struct {
	Run    int     `json:"run"`
	Dir    string  `json:"dir"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Change float64 `json:"change"`
	Points bool    `json:"change_in_points,omitempty"`
	PValue float64 `json:"p_value"`
	Env    bool    `json:"env_changed,omitempty"`
}

// NewHistory lines runs (in time order) up: every metric of
// summary.Metrics a scenario measured in some run, and every finding of
// the runs' plans, each with its change points found with cfg.
func NewHistory(runs []HistoryRun, cfg stats.ChangeConfig) (*History, error) {
	h := &History{Method: changeMethod(cfg)}
	var prev *HistoryRun
	for i := range runs {
		r := &runs[i]
		if h.Experiment == "" && len(r.Records) > 0 {
			h.Experiment = r.Records[0].Experiment
		}
		h.Runs = append(h.Runs, HistoryRef{Dir: r.Dir, Started: r.Env.StartedAt, Changed: envChanges(prev, r)})
		prev = r
	}
	idx := map[string]int{} // series key → index in h.Series
	for i, r := range runs {
		scs, err := summarize(r.Records)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Dir, err)
		}
		for j := range scs {
			for _, m := range summary.Metrics {
				s := m.Summary(scs[j].ScenarioStats)
				if s.N == 0 || math.IsNaN(s.Mean) || (m.Unit == "bytes" && s.Mean <= 0) { // 0 bytes: disk not read
					continue
				}
				h.add(idx, len(runs), i, Series{Scenario: scs[j].ID, Metric: m.Key, Name: m.Name, Unit: m.Unit, Higher: m.Dir == stats.HigherIsBetter},
					Point{Value: s.Mean, Lo: s.Mean - s.Err, Hi: s.Mean + s.Err, N: s.N})
			}
		}
		if r.Plan == nil {
			continue
		}
		for _, f := range findings(r.Records, scs, *r.Plan) {
			v := f.Verdict
			if math.IsNaN(v.Diff) || f.Kind == stats.KindNotTested {
				continue
			}
			m := metricByKey(f.Metric)
			h.add(idx, len(runs), i, Series{Finding: f.Title, Metric: f.Metric, Name: "difference in " + m.Name, Unit: "%",
				Higher: m.Dir == stats.HigherIsBetter}, Point{Value: 100 * v.Diff, Lo: 100 * v.Lo, Hi: 100 * v.Hi, N: f.CandidateTrials})
		}
	}
	for i := range h.Series {
		h.Series[i].Changes = h.shifts(&h.Series[i], cfg)
	}
	return h, nil
}

// add puts point p of run i into the series like s, making it (with every
// run missing) on first sight.
func (h *History) add(idx map[string]int, runs, i int, s Series, p Point) {
	key := s.Scenario + "\x00" + s.Finding + "\x00" + s.Metric
	j, ok := idx[key]
	if !ok {
		s.Points = make([]Point, runs)
		for k := range s.Points {
			s.Points[k] = Point{Value: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Missing: true}
		}
		j = len(h.Series)
		idx[key] = j
		h.Series = append(h.Series, s)
	}
	h.Series[j].Points[i] = p
}

// shifts finds s's change points over the runs that have a value, seeded
// by the series' name (seed).
func (h *History) shifts(s *Series, cfg stats.ChangeConfig) []SeriesShift {
	var xs []float64
	var at []int // run index of each value
	for i, p := range s.Points {
		if !p.Missing {
			xs = append(xs, p.Value)
			at = append(at, i)
		}
	}
	cfg.Seed = s.seed()
	var out []SeriesShift
	for _, c := range stats.ChangePoints(xs, cfg) {
		run := at[c.Index]
		sh := SeriesShift{Run: run, Dir: h.Runs[run].Dir, Before: c.Before, After: c.After,
			Change: c.Relative(), PValue: c.PValue, Env: h.envChanged(at[c.Index-1]+1, run)}
		if s.Finding != "" {
			sh.Change, sh.Points = c.After-c.Before, true
		}
		out = append(out, sh)
	}
	return out
}

// seed is the series' change-point seed, its name's hash: the same
// history gives the same answer, and the gate's search over the runs
// before the newest draws its permutations as the chart's does.
func (s *Series) seed() uint64 {
	f := fnv.New64a()
	_, _ = f.Write([]byte(s.Scenario + "\x00" + s.Finding + "\x00" + s.Metric))
	return f.Sum64()
}

// envChanged reports whether the environment changed at any run from
// first to last: a change at a run where the series has no value still
// lies between its two levels.
func (h *History) envChanged(first, last int) bool {
	for i := first; i <= last; i++ {
		if len(h.Runs[i].Changed) > 0 {
			return true
		}
	}
	return false
}

// changeMethod describes cfg with its defaults filled in.
func changeMethod(cfg stats.ChangeConfig) ChangeMethod {
	m := ChangeMethod{Name: "E-divisive means (Matteson & James 2014), permutation test",
		Alpha: cfg.Alpha, Permutations: cfg.Permutations, MinRuns: cfg.MinSize}
	if m.Alpha <= 0 {
		m.Alpha = stats.DefaultChangeAlpha
	}
	if m.Permutations <= 0 {
		m.Permutations = stats.DefaultChangePermutations
	}
	if m.MinRuns <= 0 {
		m.MinRuns = stats.DefaultChangeMinSize
	}
	return m
}

// envChanges lists what of r's environment differs from prev's: the Kafka
// and client versions, the machine, Java, Go, prodlab, the cluster's
// layout. Unknown values (empty) on either side do not count.
func envChanges(prev, r *HistoryRun) []string {
	if prev == nil {
		return nil
	}
	a, b := prev.Env, r.Env
	var out []string
	for _, f := range []struct {
		name   string
		before string
		after  string
	}{
		{"kafka", kafkaOf(prev), kafkaOf(r)},
		{"clients", strings.Join(a.Clients, ","), strings.Join(b.Clients, ",")},
		{"machine", machineOf(a), machineOf(b)},
		{"java", a.Java, b.Java},
		{"go", a.Go, b.Go},
		{"prodlab", strings.TrimSpace(a.Prodlab + " " + a.Commit), strings.TrimSpace(b.Prodlab + " " + b.Commit)},
		{"cluster layout", prev.Layout, r.Layout},
	} {
		if f.before != "" && f.after != "" && f.before != f.after {
			out = append(out, fmt.Sprintf("%s: %s → %s", f.name, f.before, f.after))
		}
	}
	return out
}

// kafkaOf is the Kafka versions r's records name, else its environment's.
func kafkaOf(r *HistoryRun) string {
	var vs []string
	for _, rec := range r.Records {
		if rec.Kafka != "" && !slices.Contains(vs, rec.Kafka) {
			vs = append(vs, rec.Kafka)
		}
	}
	if len(vs) == 0 {
		vs = r.Env.Kafka
	}
	slices.Sort(vs)
	return strings.Join(vs, ",")
}

// machineOf names a machine by its CPU, cores, memory and OS.
func machineOf(e results.Environment) string {
	if e.CPU == "" && e.Cores == 0 {
		return ""
	}
	return fmt.Sprintf("%s ×%d, %d MiB, %s", e.CPU, e.Cores, e.MemoryBytes>>20, e.OS)
}
