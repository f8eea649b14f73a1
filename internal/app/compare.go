package app

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// CompareRequest asks whether B differs from A. Without RunB, ScenarioA
// and ScenarioB are two scenarios of RunA (IDs as in results.jsonl or
// "k=v k=v" labels); with it, every scenario ID present in both runs is
// compared.
type CompareRequest struct {
	RunA, RunB           string
	ScenarioA, ScenarioB string
	// Unpaired uses Welch's test for two scenarios of one run, whose
	// trials are otherwise paired by round.
	Unpaired bool
	// Level and Margin are the verdicts' confidence level and equivalence
	// margin; 0 takes the one the run's plan.json holds (both runs' when
	// they agree), else stats' default, so that compare judges a run as
	// its experiment asked (equivalence: 0.10 is ±10 %, not ±5 %).
	Level, Margin float64
}

// Compare reads the runs (leniently, warning on warn of each results line
// it skips) and judges each pair of scenarios on every metric either side
// measured. Unknown scenarios, and runs with no scenario in common, are
// InputErrors.
func Compare(req CompareRequest, warn io.Writer) ([]report.Comparison, error) {
	if req.RunB != "" && sameDir(req.RunA, req.RunB) {
		// a run against itself: every verdict "equivalent"
		return nil, invalid(fmt.Errorf("%s and %s are the same run: compare it with another run, or two of its scenarios (compare %s --scenarios ID_A ID_B)", req.RunA, req.RunB, req.RunA))
	}
	pairs, err := comparePairs(req, warn)
	if err != nil {
		return nil, err
	}
	o, err := compareOptions(req, warn)
	if err != nil {
		return nil, err
	}
	out := make([]report.Comparison, 0, len(pairs))
	// The runs are finished: their rounds were the user's choice, so a
	// verdict on fewer pairs than the stopping rule's minimum stands, and
	// its text says "fewer than 8 pairs".
	o.MinPairs, o.FixedRounds = stats.DefaultMinPairs, true
	for i := range pairs {
		out = append(out, pairs[i].judge(o))
	}
	return out, nil
}

// compareOptions resolves the verdicts' level and margin: the request's
// when set, else what the plan.json of the run (or of both runs, when they
// agree) holds, else stats' defaults. Two runs whose plans disagree get a
// warning on warn naming the default used instead.
func compareOptions(req CompareRequest, warn io.Writer) (stats.Options, error) {
	o := stats.Options{Level: req.Level, Margin: req.Margin}
	if o.Level != 0 && o.Margin != 0 {
		return o, nil
	}
	pa, err := planOf(req.RunA)
	if err != nil {
		return o, err
	}
	pb := pa
	if req.RunB != "" {
		if pb, err = planOf(req.RunB); err != nil {
			return o, err
		}
	}
	o.Level = fromPlans(o.Level, pa.Level, pb.Level, stats.DefaultConfidence, "confidence level", req, warn)
	o.Margin = fromPlans(o.Margin, pa.Margin, pb.Margin, stats.DefaultMargin, "equivalence margin", req, warn)
	return o, nil
}

// planOf returns the plan.json of run dir; a run without one plans
// nothing (zero level and margin).
func planOf(dir string) (results.Plan, error) {
	p, _, err := results.ReadPlan(dir)
	if err != nil {
		return p, invalid(err) // it names the file
	}
	return p, nil
}

// fromPlans picks one setting: the request's (given) when set, the plans'
// (a, b) when they agree on one, else def, warning when two plans differ.
func fromPlans(given, a, b, def float64, what string, req CompareRequest, warn io.Writer) float64 {
	switch {
	case given != 0:
		return given
	case a == b && a != 0:
		return a
	case a != b && a != 0 && b != 0:
		fmt.Fprintf(warn, "prodlab: warning: %s plans %s %g and %s %g: using %g (give the flag to choose)\n",
			req.RunA, what, a, req.RunB, b, def)
	}
	return def
}

// comparePair is one comparison: scenario a against scenario b.
type comparePair struct {
	title string
	a, b  summary.ScenarioStats
	// aName and bName say where each side comes from.
	aName, bName string
	// paired: a and b are scenarios of one run, their trials paired by round.
	paired bool
}

// comparePairs reads the runs the request names and pairs up the
// scenarios to compare.
func comparePairs(req CompareRequest, warn io.Writer) ([]comparePair, error) {
	if req.RunB == "" {
		scs, err := readStats(req.RunA, warn)
		if err != nil {
			return nil, err
		}
		a, err := findScenario(scs, req.ScenarioA, req.RunA)
		if err != nil {
			return nil, err
		}
		b, err := findScenario(scs, req.ScenarioB, req.RunA)
		if err != nil {
			return nil, err
		}
		if a.ID == b.ID {
			return nil, invalid(fmt.Errorf("the comparison names scenario %q twice: a scenario compared with itself can only look equivalent; name two different scenarios", a.ID))
		}
		return []comparePair{{title: filepath.Base(req.RunA), a: a, b: b, aName: a.ID, bName: b.ID, paired: !req.Unpaired}}, nil
	}
	as, err := readStats(req.RunA, warn)
	if err != nil {
		return nil, err
	}
	bs, err := readStats(req.RunB, warn)
	if err != nil {
		return nil, err
	}
	byID := map[string]summary.ScenarioStats{}
	for _, b := range bs {
		byID[b.ID] = b
	}
	var pairs []comparePair
	for _, a := range as {
		if b, ok := byID[a.ID]; ok {
			pairs = append(pairs, comparePair{title: a.ID, a: a, b: b, aName: filepath.Base(req.RunA), bName: filepath.Base(req.RunB)})
		}
	}
	if len(pairs) == 0 {
		return nil, invalid(fmt.Errorf("%s and %s have no scenario ID in common", req.RunA, req.RunB))
	}
	return pairs, nil
}

// readStats reads a run directory's results (leniently, warning on warn of
// each line it skips; see ReadRun) and summarises its scenarios.
func readStats(dir string, warn io.Writer) ([]summary.ScenarioStats, error) {
	recs, err := ReadRun(dir, warn)
	if err != nil {
		return nil, err
	}
	scs, err := summary.ByScenario(recs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return scs, nil
}

// findScenario returns the scenario of scs whose ID is id, or whose
// "k=v k=v" label is, listing the IDs when none matches.
func findScenario(scs []summary.ScenarioStats, id, dir string) (summary.ScenarioStats, error) {
	ids := make([]string, len(scs))
	for i, s := range scs {
		if s.ID == id || strings.ReplaceAll(s.ID, ",", " ") == id {
			return s, nil
		}
		ids[i] = s.ID
	}
	return summary.ScenarioStats{}, invalid(fmt.Errorf("no scenario %q in %s; scenarios: %s", id, dir, strings.Join(ids, "  ")))
}

// judge compares the pair on every metric either side measured (the
// always-present figures, and CPU or intended-send-time latency when the
// trials have them), paired by round or with Welch's test.
func (p *comparePair) judge(o stats.Options) report.Comparison {
	c := report.Comparison{Title: p.title, A: p.aName, B: p.bName, Paired: p.paired,
		ATrials: p.a.Trials, BTrials: p.b.Trials, Level: o.Level}
	if p.paired {
		xs, _ := summary.Paired(&p.a, &p.b, summary.Metrics[0])
		c.Pairs = len(xs)
	}
	for _, m := range summary.Metrics {
		a, b := m.Summary(&p.a), m.Summary(&p.b)
		if m.Of == nil && a.N == 0 && b.N == 0 {
			continue
		}
		v := summary.Judge(&p.a, &p.b, m, p.paired, o)
		c.Metrics = append(c.Metrics, report.MetricVerdict{Name: m.Name, Unit: m.Unit, A: a, B: b, Verdict: v})
	}
	return c
}

// sameDir reports whether paths a and b name one directory.
func sameDir(a, b string) bool {
	ai, errA := os.Stat(a)
	bi, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ai, bi)
}
