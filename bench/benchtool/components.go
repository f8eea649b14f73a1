package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// components splits the variance of a paired comparison's per-round log
// ratio ln(b/a) into what happens inside a trial's window and what happens
// between trials, in the manner of Kalibera & Jones ("Rigorous
// benchmarking in reasonable time", ISMM 2013), and says how long a window
// would make the budget go furthest.
//
// Within a trial, the window's two halves are two measurements of the same
// thing: d = ln(first half's rate / second half's) has variance about 4
// times that of ln(window rate) from the window's own noise, if the halves
// are independent. So the within-trial share of var(ln(b/a)) is
// var(d_b - d_a) / 4 (what of it the arms share cancels in the ratio, as
// side by side it should), and the rest is between trials (the cluster,
// the topic, the JIT, the neighbour of that moment). The within part
// shrinks as 1/T with the window length T, the between part does not, and a
// trial costs its window plus a fixed overhead c (warm-up, topic, audit,
// the gaps), so the half-width reached per unit of time is best at
//
//	T* = sqrt(W·T·c / B)
//
// where W and B are the within and between parts at the window T measured.
//
//	benchtool components RESULTS.jsonl
//	→ per pair of scenarios: rounds, SD, within/between shares, T, c, T*
func components(files []string, w io.Writer) error {
	if len(files) == 0 {
		return fmt.Errorf("components: give results.jsonl files")
	}
	for _, f := range files {
		recs, err := readTrials(f)
		if err != nil {
			return fmt.Errorf("components: %w", err)
		}
		ids := scenarioIDs(recs)
		if len(ids) < 2 {
			fmt.Fprintf(w, "%s: fewer than two scenarios\n", f)
			continue
		}
		// The trials run one after another in a round: every scenario's,
		// or one per pair side by side in a duet.
		inRow := float64(len(ids))
		if duetRun(recs) {
			inRow /= 2
		}
		for _, p := range plannedPairs(filepath.Join(filepath.Dir(f), "plan.json"), ids) {
			c, err := splitVariance(recs, p[0], p[1], inRow)
			if err != nil {
				fmt.Fprintf(w, "%s: %s vs %s: %v\n", f, p[1], p[0], err)
				continue
			}
			fmt.Fprintf(w, "%s: %s vs %s: %s\n", f, p[1], p[0], c)
		}
	}
	return nil
}

// trial is what components reads of a record.
type trial struct {
	ScenarioID string  `json:"scenario_id"`
	Trial      int     `json:"trial"`
	Warmup     bool    `json:"warmup"`
	Status     string  `json:"status"`
	StartedAt  string  `json:"started_at"`
	ElapsedS   float64 `json:"elapsed_s"`
	CPU        *struct {
		Sets string `json:"sets"`
	} `json:"cpu"`
	Timeline *timeline `json:"timeline"`
}

// timeline is what components reads of a record's timeline.
type timeline struct {
	MeasuredFromMs float64 `json:"measured_from_ms"`
	Points         []point `json:"points"`
}

// point is one timeline interval.
type point struct {
	TMs    float64 `json:"t_ms"`
	DurMs  float64 `json:"dur_ms"`
	Warmup bool    `json:"warmup"`
	Sent   int64   `json:"sent"`
	Acked  int64   `json:"acked"`
}

// readTrials reads the measured trials that ran, with their timelines.
func readTrials(path string) ([]trial, error) {
	all, err := readJSONL[trial](path)
	if err != nil {
		return nil, err
	}
	var out []trial
	for _, t := range all {
		if !t.Warmup && t.Status == "ok" && t.Timeline != nil {
			out = append(out, t)
		}
	}
	return out, nil
}

// plannedPairs are the run's planned comparisons (baseline, candidate)
// from its plan.json, or, without one, every scenario against the first.
func plannedPairs(plan string, ids []string) [][2]string {
	var p struct {
		Comparisons []struct {
			Baseline  string `json:"baseline"`
			Candidate string `json:"candidate"`
		} `json:"comparisons"`
	}
	var out [][2]string
	if data, err := os.ReadFile(plan); err == nil && json.Unmarshal(data, &p) == nil {
		for _, c := range p.Comparisons {
			if !slices.Contains(out, [2]string{c.Baseline, c.Candidate}) {
				out = append(out, [2]string{c.Baseline, c.Candidate})
			}
		}
	}
	if len(out) == 0 {
		for _, id := range ids[1:] {
			out = append(out, [2]string{ids[0], id})
		}
	}
	return out
}

// duetRun reports whether the trials ran as duet rounds (schedule: duet).
func duetRun(recs []trial) bool {
	return len(recs) > 0 && recs[0].CPU != nil && strings.HasPrefix(recs[0].CPU.Sets, "duet:")
}

// scenarioIDs lists the scenarios in order of first appearance.
func scenarioIDs(recs []trial) []string {
	var ids []string
	for _, r := range recs {
		if !slices.Contains(ids, r.ScenarioID) {
			ids = append(ids, r.ScenarioID)
		}
	}
	return ids
}

// halves returns the acknowledgement rates of the measured window's two
// halves (by interval count) and the window's length in seconds.
func (t *trial) halves() (h1, h2, windowS float64, ok bool) {
	var pts []float64
	var durS float64
	last := len(t.Timeline.Points) - 1 // the drain after the window sends nothing
	for last >= 0 && t.Timeline.Points[last].Sent == 0 {
		last--
	}
	for _, p := range t.Timeline.Points[:last+1] {
		if p.Warmup || p.DurMs <= 0 {
			continue
		}
		pts = append(pts, float64(p.Acked)/(p.DurMs/1000))
		durS += p.DurMs / 1000
	}
	if len(pts) < 4 {
		return 0, 0, 0, false
	}
	k := len(pts) / 2
	return mean(pts[:k]), mean(pts[len(pts)-k:]), durS, true
}

// varianceSplit is the outcome for one pair.
type varianceSplit struct {
	Rounds                 int
	Total, Within, Between float64 // variances of ln(b/a) per round
	WindowS, OverheadS     float64 // T, and c: each trial's time beyond it
	OptimalS               float64 // T*
}

func (v varianceSplit) String() string {
	opt := "—"
	if !math.IsNaN(v.OptimalS) {
		opt = fmt.Sprintf("%.1fs", v.OptimalS)
	}
	return fmt.Sprintf("rounds=%d  sd=%.3f  within=%.0f%%  between=%.0f%%  window=%.1fs  overhead=%.1fs  optimal window=%s",
		v.Rounds, math.Sqrt(v.Total), 100*v.Within/v.Total, 100*v.Between/v.Total, v.WindowS, v.OverheadS, opt)
}

// splitVariance pairs a's and b's trials by round and splits var(ln(b/a));
// inRow is how many trials a round runs one after another, to tell each
// trial's overhead from the round's length.
func splitVariance(recs []trial, a, b string, inRow float64) (varianceSplit, error) {
	var v varianceSplit
	by := map[string]map[int]*trial{a: {}, b: {}}
	for i := range recs {
		if m, ok := by[recs[i].ScenarioID]; ok {
			m[recs[i].Trial] = &recs[i]
		}
	}
	var ratios, dA, dB, windows []float64
	var starts []time.Time
	for n, ta := range by[a] {
		tb, ok := by[b][n]
		if !ok {
			continue
		}
		a1, a2, wa, okA := ta.halves()
		b1, b2, wb, okB := tb.halves()
		if !okA || !okB || a1 <= 0 || a2 <= 0 || b1 <= 0 || b2 <= 0 {
			continue
		}
		ratios = append(ratios, math.Log((b1+b2)/(a1+a2)))
		dA = append(dA, math.Log(a1/a2))
		dB = append(dB, math.Log(b1/b2))
		windows = append(windows, (wa+wb)/2)
		if s, err := time.Parse(time.RFC3339Nano, ta.StartedAt); err == nil {
			starts = append(starts, s)
		}
	}
	v.Rounds = len(ratios)
	if v.Rounds < 3 {
		return v, fmt.Errorf("%d paired rounds with timelines, want at least 3", v.Rounds)
	}
	v.Total = variance(ratios)
	// The arms' window noise may be correlated (side by side it is meant
	// to be): only what does not cancel in ln(b/a) counts.
	diff := make([]float64, len(dA))
	for i := range dA {
		diff[i] = dB[i] - dA[i]
	}
	v.Within = math.Min(variance(diff)/4, v.Total)
	v.Between = v.Total - v.Within
	v.WindowS = mean(windows)
	v.OverheadS = math.NaN()
	if len(starts) >= 3 {
		slices.SortFunc(starts, func(x, y time.Time) int { return x.Compare(y) })
		round := starts[len(starts)-1].Sub(starts[0]).Seconds() / float64(len(starts)-1)
		v.OverheadS = math.Max(round/inRow-v.WindowS, 0)
	}
	v.OptimalS = math.NaN()
	if v.Between > 0 && !math.IsNaN(v.OverheadS) {
		v.OptimalS = math.Sqrt(v.Within * v.WindowS * v.OverheadS / v.Between)
	}
	return v, nil
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// variance is the sample variance (n-1).
func variance(xs []float64) float64 {
	m := mean(xs)
	s := 0.0
	for _, x := range xs {
		s += (x - m) * (x - m)
	}
	return s / float64(len(xs)-1)
}
