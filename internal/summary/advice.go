package summary

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/figures"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// Advice answers an advise run: the one definition of the pick, its proof
// and the runners-up, which advice.json, advice.properties and every
// report format show. For a rate objective see rateAdvice; for the
// sustainable rate, the pick is the candidate with the highest
// sustainable rate whose interval is closed, on at least
// stats.DefaultMinPairs probes; it is recommended only when the verdict
// against the current settings says it is faster. The verdicts are
// stats.CompareThresholds at the plan's level and margin, as a capacity
// run's Findings are.
func Advice(recs []results.Record, plan results.Plan) results.Advice {
	if plan.Advise.Objective != figures.ObjectiveSustainable {
		return rateAdvice(recs, plan)
	}
	ap := plan.Advise
	out := results.Advice{Objective: ap.Objective, Verdicts: []results.AdviceVerdict{}, RunnersUp: []results.AdviceRunnerUp{}}
	settings := map[string]map[string]string{}
	for _, c := range ap.Candidates {
		settings[c.ScenarioID] = c.Settings
	}
	th := map[string]stats.Threshold{}
	var ranked []string
	bad := Violations(recs)
	for _, sp := range Probes(recs) {
		if _, ok := settings[sp.ScenarioID]; !ok {
			continue
		}
		t := sp.Threshold(plan.Level)
		th[sp.ScenarioID] = t
		if t.Edge == "" && !math.IsNaN(t.Estimate) && t.Probes >= stats.DefaultMinPairs && bad[sp.ScenarioID].Trials == 0 {
			ranked = append(ranked, sp.ScenarioID)
		}
	}
	slices.SortStableFunc(ranked, func(a, b string) int { return cmp.Compare(th[b].Estimate, th[a].Estimate) })
	out.Candidates = scores(recs, plan, th)
	if len(ranked) == 0 {
		out.Answer = fmt.Sprintf("cannot tell yet: no candidate's sustainable rate was bracketed on %d probes or more; give the search a larger advise.budget", stats.DefaultMinPairs)
		out.Dropped = len(settings)
		return out
	}
	pickID := ranked[0]
	pt := th[pickID]
	out.Pick = &results.AdvicePick{ScenarioID: pickID, Settings: settings[pickID],
		Properties: merged(ap.Constraints, settings[pickID]), Sustainable: sustainableOf(pt)}
	o := stats.Options{Level: plan.Level, Margin: plan.Margin, Dir: stats.HigherIsBetter, MinPairs: stats.DefaultMinPairs}
	judge := func(against, id string) *results.AdviceVerdict {
		ref, ok := th[id]
		if !ok {
			ref = stats.Threshold{Estimate: math.NaN(), LogMean: math.NaN(), LogSD: math.NaN()}
		}
		v := stats.CompareThresholds(ref, pt, o)
		return &results.AdviceVerdict{Against: against, ScenarioID: id, Metric: figures.SustainableMetric, Kind: v.Kind,
			Diff: finiteOr(v.Diff, 0), Lo: finiteOr(v.Lo, 0), Hi: finiteOr(v.Hi, 0), Text: v.Text,
			AtLeast: v.OneSided()}
	}
	var cur *results.AdviceVerdict
	if pickID != ap.Current {
		against := "current"
		if ap.Current == ap.Defaults { // no current settings: the defaults stand for them
			against = "defaults"
		}
		cur = judge(against, ap.Current)
		out.Verdicts = append(out.Verdicts, *cur)
	}
	if ap.Defaults != ap.Current && pickID != ap.Defaults {
		out.Verdicts = append(out.Verdicts, *judge("defaults", ap.Defaults))
	}
	for _, id := range ranked[1:] {
		v := stats.CompareThresholds(pt, th[id], o)
		if v.Kind == stats.KindSlower {
			continue
		}
		out.RunnersUp = append(out.RunnersUp, results.AdviceRunnerUp{ScenarioID: id, Settings: settings[id],
			Sustainable: sustainableOf(th[id]), Kind: v.Kind, Text: v.Text})
	}
	out.Dropped = len(settings) - 1 - len(out.RunnersUp)
	out.Answer, out.Recommend = sustainableAnswer(cur, referenceText(ap), plan.Margin)
	out.Why = why(recs, ap, pickID, ap.Current)
	holdConstraints(&out, recs, ap.Constraints)
	return out
}

// sustainableAnswer is the advice's answer from the pick's verdict against
// the reference named current (nil: the pick is the reference), and
// whether it recommends the pick.
func sustainableAnswer(cur *results.AdviceVerdict, current string, margin float64) (string, bool) {
	switch {
	case cur == nil:
		return "keep " + current + ": no candidate had a higher sustainable rate", false
	case cur.Kind == stats.KindFaster:
		return fmt.Sprintf("use the pick: its sustainable rate is %s above %s", adviceDiff(*cur), current), true
	case cur.Kind == stats.KindEquivalent:
		return fmt.Sprintf("keep %s: they are within ±%g %% of the best found (%s)", current, margin*100, cur.Text), false
	}
	return fmt.Sprintf("cannot tell yet whether the pick beats %s: %s", current, cur.Text), false
}

// referenceText names what the pick is judged against in an answer.
func referenceText(ap *results.AdvicePlan) string {
	if ap.Current == ap.Defaults {
		return "the client's defaults (no current settings were given)"
	}
	return "your current settings"
}

// scores places every candidate with an estimate by its sustainable rate
// and the first SLO percentile (p99 without an SLO) at its highest passing
// probe, and marks the Pareto front of the two, in the order of the plan.
func scores(recs []results.Record, plan results.Plan, th map[string]stats.Threshold) []results.AdviceScore {
	var slo map[string]float64
	if plan.Capacity != nil {
		slo = plan.Capacity.SLO
	}
	pct := sloPercentile(slo)
	out := []results.AdviceScore{}
	for _, c := range plan.Advise.Candidates {
		t, ok := th[c.ScenarioID]
		if !ok || math.IsNaN(t.Estimate) {
			continue
		}
		s := results.AdviceScore{ScenarioID: c.ScenarioID, Sustainable: sustainableOf(t), Percentile: pct.Key}
		if b := bestPass(recs, c.ScenarioID); b != nil && sloLatency(pct, b) != nil {
			s.LatencyMs = sloAt(pct, b)
		}
		out = append(out, s)
	}
	for i := range out {
		out[i].Pareto = out[i].LatencyMs > 0 && !slices.ContainsFunc(out, func(o results.AdviceScore) bool { return dominates(o, out[i]) })
	}
	return out
}

// dominates reports whether a sustains at least b's rate at no higher
// latency, and is better in one of the two.
func dominates(a, b results.AdviceScore) bool {
	ar, br := a.Sustainable.RecordsPerS, b.Sustainable.RecordsPerS
	return a.LatencyMs > 0 && ar >= br && a.LatencyMs <= b.LatencyMs && (ar > br || a.LatencyMs < b.LatencyMs)
}

// adviceDiff writes a verdict's difference as "+38.1 % [+30.2 %, +46.0 %]".
func adviceDiff(v results.AdviceVerdict) string {
	if v.AtLeast {
		return "more than " + stats.LeastText(1+v.Lo) + " (the reference's interval is open below)"
	}
	return fmt.Sprintf("%+.1f %% [%+.1f %%, %+.1f %%]", v.Diff*100, v.Lo*100, v.Hi*100)
}

// sustainableOf is a threshold as capacity.json writes it.
func sustainableOf(t stats.Threshold) *results.Sustainable {
	return &results.Sustainable{RecordsPerS: t.Estimate, Lo: t.Lo, Hi: t.Hi, Level: t.Level, Edge: t.Edge}
}

// merged is the constraints with a candidate's settings over them.
func merged(constraints, set map[string]string) map[string]string {
	out := maps.Clone(constraints)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, set)
	return out
}

// why explains the pick against the reference (the current settings, or
// the defaults) from measured figures: the settings that moved, then what
// the client measured at each one's highest passing probe.
func why(recs []results.Record, ap *results.AdvicePlan, pick, ref string) []string {
	out := moved(ap, pick, ref)
	if out == nil {
		return nil
	}
	a, b := bestPass(recs, ref), bestPass(recs, pick)
	if a == nil || b == nil {
		return append(out, "no probe of both passed, so there is nothing measured to set them against")
	}
	line := fmt.Sprintf("at each one's highest passing probe (%s and %s msg/s offered): records per batch %s → %s",
		textfmt.Group(a.Load.OfferedRecordsPerS, 0), textfmt.Group(b.Load.OfferedRecordsPerS, 0),
		textfmt.Group(a.RecordsPerBatch, 1), textfmt.Group(b.RecordsPerBatch, 1))
	if a.ProduceRequests > 0 && b.ProduceRequests > 0 {
		line += fmt.Sprintf(", records per produce request %s → %s",
			textfmt.Group(float64(a.Records.Acked)/float64(a.ProduceRequests), 1), textfmt.Group(float64(b.Records.Acked)/float64(b.ProduceRequests), 1))
	}
	if a.CompressionRatio > 0 && b.CompressionRatio > 0 && (a.CompressionRatio != 1 || b.CompressionRatio != 1) {
		line += fmt.Sprintf(", compression ratio %.2f → %.2f", a.CompressionRatio, b.CompressionRatio)
	}
	if a.LatencyIntendedMs != nil && b.LatencyIntendedMs != nil {
		line += fmt.Sprintf(", p99 from the intended send time %.1f → %.1f ms", a.LatencyIntendedMs.P99, b.LatencyIntendedMs.P99)
	}
	if ma, mb := a.Network["model_mb_per_s"], b.Network["model_mb_per_s"]; ma > 0 && mb > 0 {
		line += fmt.Sprintf(", requests in flight %.1f → %.1f, pipe model (in flight × request bytes ÷ round trip) %.2f → %.2f MB/s against %.2f → %.2f MB/s achieved",
			a.Network["mean_in_flight"], b.Network["mean_in_flight"], ma, mb, a.Throughput.MBPerS, b.Throughput.MBPerS)
	}
	return append(out, line)
}

// moved is the first line of why: the searched settings that differ
// between the reference and the pick; nil when none does.
func moved(ap *results.AdvicePlan, pick, ref string) []string {
	if pick == ref {
		return nil
	}
	settings := map[string]map[string]string{}
	for _, c := range ap.Candidates {
		settings[c.ScenarioID] = c.Settings
	}
	var parts []string
	for _, ax := range ap.Space {
		from, to := settings[ref][ax.Key], settings[pick][ax.Key]
		if from == to {
			continue
		}
		if from == "" {
			from = "client default"
		}
		parts = append(parts, ax.Key+" "+from+" → "+to)
	}
	if len(parts) == 0 {
		return nil
	}
	return []string{"settings that moved: " + strings.Join(parts, ", ")}
}

// bestPass is scenario id's passing probe at the highest offered rate.
func bestPass(recs []results.Record, id string) *results.Record {
	var best *results.Record
	for i := range recs {
		r := &recs[i]
		if r.ScenarioID != id || r.Warmup || r.Probe == nil || !r.Probe.Pass || r.Load == nil {
			continue
		}
		if best == nil || r.Load.OfferedRecordsPerS > best.Load.OfferedRecordsPerS {
			best = r
		}
	}
	return best
}

// PickEstimate is one candidate's sustainable-rate estimate, named.
type PickEstimate struct {
	ID string
	stats.Threshold
}

// PickThreshold is candidate id's sustainable-rate estimate in a run, as
// Advice judges it (benchtool compares two runs' picks with it).
func PickThreshold(recs []results.Record, plan results.Plan, id string) PickEstimate {
	for _, sp := range Probes(recs) {
		if sp.ScenarioID == id {
			return PickEstimate{ID: id, Threshold: sp.Threshold(plan.Level)}
		}
	}
	return PickEstimate{ID: id, Threshold: stats.Threshold{Estimate: math.NaN(), LogMean: math.NaN(), LogSD: math.NaN()}}
}
