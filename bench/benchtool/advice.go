package main

import (
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// advice prints, for each advise run directory, what the advisor cost and
// answered: candidates, probes, wall time, the pick with its interval, the
// pipe model's rate for the pick (in flight × request bytes ÷ round trip,
// from its unthrottled probe, in records/s) and the answer; then, for
// every two runs, whether their picks agree: the verdict of one pick's
// sustainable rate against the other's (stats.CompareThresholds), and
// whether each run's interval holds the other's estimate; for a rate
// objective, Welch's verdict of one pick's objective values against the
// other's at the runs' margin.
//
//	benchtool advice RUN_DIR...
func advice(dirs []string, w io.Writer) error {
	var runs []adviceRun
	for _, dir := range dirs {
		r, err := readAdviceRun(dir, w)
		if err != nil {
			return err
		}
		if r != nil {
			runs = append(runs, *r)
		}
	}
	for i := range runs {
		for j := i + 1; j < len(runs); j++ {
			compareAdviceRuns(runs[i], runs[j], w)
		}
	}
	return nil
}

// adviceRun is one advise run's pick, as two runs are compared.
type adviceRun struct {
	dir  string
	pick summary.PickEstimate
	// values are a rate objective's pick's objective values, one per
	// trial; metric names it.
	values []float64
	metric summary.Metric
	margin float64
}

// readAdviceRun reads the advise run in dir, prints its cost and answer to
// w, and returns its pick (nil when it has none).
func readAdviceRun(dir string, w io.Writer) (*adviceRun, error) {
	recs, err := results.Read(dir)
	if err != nil {
		return nil, err
	}
	plan, ok, err := results.ReadPlan(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if !ok || plan.Advise == nil {
		return nil, fmt.Errorf("%s: not an advise run (no advise plan in plan.json)", dir)
	}
	a := summary.Advice(recs, plan)
	fmt.Fprintf(w, "%s: %d candidates, %s\n", dir, len(plan.Advise.Candidates), probeCost(recs))
	fmt.Fprintf(w, "  answer: %s\n", a.Answer)
	switch {
	case a.Pick == nil:
		return nil, nil
	case a.Pick.Sustainable == nil:
		return ratePick(dir, recs, plan, a, w)
	}
	s := a.Pick.Sustainable
	model := pipeModel(recs, a.Pick.ScenarioID)
	fmt.Fprintf(w, "  pick: %s %s msg/s [%s, %s] ±%.1f %%; pipe model %s msg/s (pick ÷ model %.3f)\n", a.Pick.ScenarioID,
		textfmt.Group(s.RecordsPerS, 0), textfmt.Group(s.Lo, 0), textfmt.Group(s.Hi, 0), 100*(s.Hi-s.Lo)/2/s.RecordsPerS,
		textfmt.Group(model, 0), s.RecordsPerS/model)
	for _, v := range a.Verdicts {
		fmt.Fprintf(w, "  against %s: %s\n", v.Against, v.Text)
	}
	for _, r := range a.RunnersUp {
		fmt.Fprintf(w, "  runner-up %s: %s\n", r.ScenarioID, r.Text)
	}
	return &adviceRun{dir: dir, pick: summary.PickThreshold(recs, plan, a.Pick.ScenarioID)}, nil
}

// probeCost says how many probes a run made, per candidate, and the time
// from its first probe to the end of its last.
func probeCost(recs []results.Record) string {
	probes := map[string]int{}
	var first, last time.Time
	for _, r := range recs {
		if r.Warmup {
			continue
		}
		probes[r.ScenarioID]++
		if t, err := time.Parse(time.RFC3339Nano, r.StartedAt); err == nil {
			if first.IsZero() || t.Before(first) {
				first = t
			}
			if end := t.Add(time.Duration(r.ElapsedS * float64(time.Second))); end.After(last) {
				last = end
			}
		}
	}
	if len(probes) == 0 {
		return "no probes"
	}
	counts := make([]int, 0, len(probes))
	total := 0
	for _, n := range probes {
		counts = append(counts, n)
		total += n
	}
	sort.Ints(counts)
	return fmt.Sprintf("%d probes (per candidate %d to %d), %s from the first probe to the last",
		total, counts[0], counts[len(counts)-1], last.Sub(first).Round(time.Second))
}

// ratePick prints a rate objective's pick (its score; no rate to compare
// across runs) and returns its objective values.
func ratePick(dir string, recs []results.Record, plan results.Plan, a results.Advice, w io.Writer) (*adviceRun, error) {
	sc := a.Pick.Score
	fmt.Fprintf(w, "  pick: %s %s %.2f %s [%.2f, %.2f] over %d trials, held the load in %s\n", a.Pick.ScenarioID,
		sc.Metric, sc.Mean, sc.Unit, sc.Lo, sc.Hi, sc.Trials, a.Pick.Held)
	for _, v := range a.Verdicts {
		fmt.Fprintf(w, "  against %s on %s: %s\n", v.Against, v.Metric, v.Text)
	}
	m, _ := summary.MetricByKey(a.Objective)
	sums, err := summary.ByScenario(recs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	for i := range sums {
		if sums[i].ID == a.Pick.ScenarioID {
			return &adviceRun{dir: dir, pick: summary.PickEstimate{ID: a.Pick.ScenarioID}, values: m.Values(&sums[i]), metric: m, margin: plan.Margin}, nil
		}
	}
	return nil, nil
}

// compareAdviceRuns prints the verdict of run b's pick against run a's:
// Welch on a rate objective's values, else the sustainable rates' intervals.
func compareAdviceRuns(a, b adviceRun, w io.Writer) {
	if a.values != nil || b.values != nil {
		if a.values == nil || b.values == nil || a.metric.Key != b.metric.Key {
			fmt.Fprintf(w, "%s against %s: not the same objective\n", b.dir, a.dir)
			return
		}
		v := stats.Welch(a.values, b.values, stats.Options{Level: stats.DefaultConfidence, Margin: a.margin, Dir: a.metric.Dir})
		fmt.Fprintf(w, "%s (%s) against %s (%s) on %s: %s\n", b.dir, b.pick.ID, a.dir, a.pick.ID, a.metric.Key, v.Text)
		return
	}
	x, y := a.pick, b.pick
	v := stats.CompareThresholds(x.Threshold, y.Threshold, stats.Options{Level: stats.DefaultConfidence, Margin: 0.05, Dir: stats.HigherIsBetter})
	fmt.Fprintf(w, "%s (%s) against %s (%s): %s; each interval holds the other's estimate: %v\n", b.dir, y.ID, a.dir, x.ID, v.Text,
		x.Lo <= y.Estimate && y.Estimate <= x.Hi && y.Lo <= x.Estimate && x.Estimate <= y.Hi)
}

// pipeModel is the pipe model's rate for scenario id in records/s, from
// its unthrottled probe: the proxies' model throughput (in flight ×
// request bytes ÷ round trip) over the request bytes per record. NaN
// without one.
func pipeModel(recs []results.Record, id string) float64 {
	for _, r := range recs {
		if r.ScenarioID != id || r.Probe == nil || !r.Probe.Ceiling || r.RecordsPerBatch <= 0 {
			continue
		}
		n := r.Network
		if n["model_mb_per_s"] > 0 && n["mean_request_bytes"] > 0 {
			return n["model_mb_per_s"] * (1 << 20) / (n["mean_request_bytes"] / r.RecordsPerBatch)
		}
	}
	return math.NaN()
}
