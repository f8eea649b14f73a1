package report

import (
	"fmt"

	"github.com/prodlab/prodlab/internal/figures"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// sustainableMetric is the metric of a planned comparison of sustainable
// rates (PlannedComparison.Metric figures.SustainableMetric): a figure of
// a scenario's probes together, not of one trial, so it is not among
// summary.Metrics. Only its key, name, unit and direction are set: it is
// never summarised per trial (Of and Trial are nil), only judged by
// sustainableFinding.
var sustainableMetric = summary.Metric{Metric: figures.Metric{Key: figures.SustainableMetric, Name: "sustainable rate", Unit: "msg/s", Dir: stats.HigherIsBetter}}

// probesByID indexes the capacity probes of recs by scenario ID.
func probesByID(recs []results.Record) map[string]summary.ScenarioProbes {
	out := map[string]summary.ScenarioProbes{}
	for _, sp := range summary.Probes(recs) {
		out[sp.ScenarioID] = sp
	}
	return out
}

// sustainableFinding answers comparison c of the sustainable rates of
// scenarios a (baseline) and b (candidate; either nil when it never ran):
// stats.CompareThresholds on their thresholds at p's level and margin
// (summary.ScenarioProbes.Threshold, the estimate capacity.json holds),
// higher being better, with the stopping rule's minimum of probes. A side
// without a probe at a chosen rate is "not tested".
func sustainableFinding(c results.PlannedComparison, a, b *scenario, probes map[string]summary.ScenarioProbes, p results.Plan) Finding {
	pa, pb := probes[c.Baseline], probes[c.Candidate]
	switch {
	case a == nil || len(pa.Outcomes) == 0:
		return notTestedFinding(c, a, b, "the baseline has no capacity probes")
	case b == nil || len(pb.Outcomes) == 0:
		return notTestedFinding(c, a, b, "the candidate has no capacity probes")
	}
	ta, tb := pa.Threshold(p.Level), pb.Threshold(p.Level)
	v := stats.CompareThresholds(ta, tb, stats.Options{Level: p.Level, Margin: p.Margin, Dir: stats.HigherIsBetter,
		MinPairs: stats.DefaultMinPairs})
	f := Finding{Question: c.Question, Metric: sustainableMetric.Key, Kind: v.Kind, Baseline: c.Baseline, Candidate: c.Candidate,
		BaselineTrials: a.Trials, CandidateTrials: b.Trials, Published: c.Published, Verdict: v}
	f.Title = orQuestion(f)
	f.Sentence = metricSentence(sustainableMetric, sentence(a, b, v, fmt.Sprintf("%d and %d probes", ta.Probes, tb.Probes)))
	return f
}
