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
	type run struct {
		dir  string
		pick summary.PickEstimate
		// values are a rate objective's pick's objective values, one per
		// trial; metric names it.
		values []float64
		metric summary.Metric
		margin float64
	}
	var runs []run
	for _, dir := range dirs {
		recs, err := results.Read(dir)
		if err != nil {
			return err
		}
		plan, ok, err := results.ReadPlan(dir)
		if err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		if !ok || plan.Advise == nil {
			return fmt.Errorf("%s: not an advise run (no advise plan in plan.json)", dir)
		}
		a := summary.Advice(recs, plan)
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
				end := t.Add(time.Duration(r.ElapsedS * float64(time.Second)))
				if end.After(last) {
					last = end
				}
			}
		}
		counts := make([]int, 0, len(probes))
		total := 0
		for _, n := range probes {
			counts = append(counts, n)
			total += n
		}
		sort.Ints(counts)
		fmt.Fprintf(w, "%s: %d candidates, %d probes (per candidate %d to %d), %s from the first probe to the last\n",
			dir, len(plan.Advise.Candidates), total, counts[0], counts[len(counts)-1], last.Sub(first).Round(time.Second))
		fmt.Fprintf(w, "  answer: %s\n", a.Answer)
		if a.Pick == nil {
			continue
		}
		s := a.Pick.Sustainable
		if s == nil { // a rate objective: its score, and no rate to compare across runs
			fmt.Fprintf(w, "  pick: %s %s %.2f %s [%.2f, %.2f] over %d trials, held the load in %s\n", a.Pick.ScenarioID,
				a.Pick.Score.Metric, a.Pick.Score.Mean, a.Pick.Score.Unit, a.Pick.Score.Lo, a.Pick.Score.Hi, a.Pick.Score.Trials, a.Pick.Held)
			for _, v := range a.Verdicts {
				fmt.Fprintf(w, "  against %s on %s: %s\n", v.Against, v.Metric, v.Text)
			}
			m, _ := summary.MetricByKey(a.Objective)
			sums, err := summary.ByScenario(recs)
			if err != nil {
				return fmt.Errorf("%s: %w", dir, err)
			}
			for i := range sums {
				if sums[i].ID == a.Pick.ScenarioID {
					runs = append(runs, run{dir: dir, pick: summary.PickEstimate{ID: a.Pick.ScenarioID}, values: m.Values(&sums[i]), metric: m, margin: plan.Margin})
				}
			}
			continue
		}
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
		runs = append(runs, run{dir: dir, pick: summary.PickThreshold(recs, plan, a.Pick.ScenarioID)})
	}
	for i := range runs {
		for j := i + 1; j < len(runs); j++ {
			a, b := runs[i].pick, runs[j].pick
			if runs[i].values != nil || runs[j].values != nil {
				if runs[i].values == nil || runs[j].values == nil || runs[i].metric.Key != runs[j].metric.Key {
					fmt.Fprintf(w, "%s against %s: not the same objective\n", runs[j].dir, runs[i].dir)
					continue
				}
				v := stats.Welch(runs[i].values, runs[j].values, stats.Options{Level: stats.DefaultConfidence, Margin: runs[i].margin, Dir: runs[i].metric.Dir})
				fmt.Fprintf(w, "%s (%s) against %s (%s) on %s: %s\n", runs[j].dir, b.ID, runs[i].dir, a.ID, runs[i].metric.Key, v.Text)
				continue
			}
			v := stats.CompareThresholds(a.Threshold, b.Threshold, stats.Options{Level: stats.DefaultConfidence, Margin: 0.05, Dir: stats.HigherIsBetter})
			fmt.Fprintf(w, "%s (%s) against %s (%s): %s; each interval holds the other's estimate: %v\n", runs[j].dir, b.ID, runs[i].dir, a.ID, v.Text,
				a.Lo <= b.Estimate && b.Estimate <= a.Hi && b.Lo <= a.Estimate && a.Estimate <= b.Hi)
		}
	}
	return nil
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
