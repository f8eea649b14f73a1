package summary

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/figures"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// rateAdvice answers an advise run whose objective is a metric at a fixed
// offered rate (cpu.total, p99.intended, …: lower is better). A candidate
// qualifies when it held the load — kept up, a steady window, the SLO
// (HoldMisses) — in more than half of its trials, and, with audit on, no
// audit of its trials found a violation; the pick is the
// qualifying candidate with the lowest mean objective on at least
// stats.DefaultMinPairs trials. Its verdicts are paired by round
// (Judge), on the objective and, beside it, on the SLO's percentile and
// on CPU per MB. It is recommended only when the verdict on the objective
// against the current settings says lower, or when the current settings
// did not hold the load at all and the pick did.
func rateAdvice(recs []results.Record, plan results.Plan) results.Advice {
	ap := plan.Advise
	out := results.Advice{Objective: ap.Objective, Verdicts: []results.AdviceVerdict{}, RunnersUp: []results.AdviceRunnerUp{}, Candidates: []results.AdviceScore{}}
	m, ok := MetricByKey(ap.Objective)
	sums, err := ByScenario(recs)
	if !ok || err != nil {
		out.Answer = fmt.Sprintf("cannot tell: the results cannot be summarised on %s (%v)", ap.Objective, err)
		out.Dropped = len(ap.Candidates)
		return out
	}
	r := newRateRace(recs, plan, m, sums)
	ranked := r.ranked(recs)
	out.Candidates = rateScores(ap, m, r.byID, r.held, plan.Level)
	if len(ranked) == 0 {
		out.Answer = fmt.Sprintf("cannot tell yet: no candidate held %s msg/s (%s) in most of %d trials or more; give the search a larger advise.budget, or ask at a lower workload.rate",
			textfmt.Group(ap.RecordsPerS, 0), holdText(ap), stats.DefaultMinPairs)
		out.Dropped = len(ap.Candidates)
		return out
	}
	r.pick = ranked[0]
	out.Pick = &results.AdvicePick{ScenarioID: r.pick, Settings: r.settings[r.pick],
		Properties: merged(ap.Constraints, r.settings[r.pick]), Score: valueOf(m, r.byID[r.pick], plan.Level), Held: r.held[r.pick].Text()}
	var cur *results.AdviceVerdict
	out.Verdicts, cur = r.proof()
	out.RunnersUp = r.runnersUp(ranked[1:])
	out.Dropped = len(ap.Candidates) - 1 - len(out.RunnersUp)
	out.Answer, out.Recommend = r.answer(cur)
	if r.pick != ap.Current {
		out.Why = append(moved(ap, r.pick, ap.Current), whyAtRate(r.byID[ap.Current], r.byID[r.pick])...)
	}
	holdConstraints(&out, recs, ap.Constraints)
	return out
}

// rateRace is what rateAdvice's steps share: the candidates' trials
// summarised, their hold counts and, once chosen, the pick.
type rateRace struct {
	ap       *results.AdvicePlan
	plan     results.Plan
	m        Metric
	settings map[string]map[string]string
	byID     map[string]*ScenarioStats
	held     map[string]Held
	pick     string
}

func newRateRace(recs []results.Record, plan results.Plan, m Metric, sums []ScenarioStats) *rateRace {
	r := &rateRace{ap: plan.Advise, plan: plan, m: m, settings: map[string]map[string]string{}, byID: map[string]*ScenarioStats{}}
	for _, c := range r.ap.Candidates {
		r.settings[c.ScenarioID] = c.Settings
	}
	for i := range sums {
		r.byID[sums[i].ID] = &sums[i]
	}
	r.held = Holding(recs, r.ap.SLO, r.ap.KeepUp)
	return r
}

// ranked lists the qualifying candidates, lowest mean objective first: those
// that held the load in most trials, on at least stats.DefaultMinPairs
// trials, with no audit violation.
func (r *rateRace) ranked(recs []results.Record) []string {
	bad := Violations(recs)
	var ids []string
	for _, c := range r.ap.Candidates {
		s := r.byID[c.ScenarioID]
		if s == nil || !r.held[c.ScenarioID].Holds() || len(r.m.Values(s)) < stats.DefaultMinPairs || bad[c.ScenarioID].Trials > 0 {
			continue
		}
		ids = append(ids, c.ScenarioID)
	}
	mean := func(id string) float64 { return r.m.Summary(r.byID[id]).Mean }
	slices.SortStableFunc(ids, func(a, b string) int { return cmp.Compare(mean(a), mean(b)) })
	return ids
}

// options are the run's verdict options.
func (r *rateRace) options() stats.Options {
	return stats.Options{Level: r.plan.Level, Margin: r.plan.Margin, MinPairs: stats.DefaultMinPairs}
}

// judge is the pick's paired verdict against the reference id on metric on.
func (r *rateRace) judge(against, id string, on Metric) results.AdviceVerdict {
	v := stats.Verdict{Kind: stats.KindNotTested, Text: "not tested: " + id + " has no counted trial"}
	if ref := r.byID[id]; ref != nil {
		v = Judge(ref, r.byID[r.pick], on, true, r.options())
	}
	return results.AdviceVerdict{Against: against, ScenarioID: id, Metric: on.Key, Kind: v.Kind,
		Diff: finiteOr(v.Diff, 0), Lo: finiteOr(v.Lo, 0), Hi: finiteOr(v.Hi, 0), Text: v.Text}
}

// proof judges the pick against the current settings and the defaults on
// every proof metric; cur is the verdict on the objective against the
// current settings, nil when the pick is the current settings.
func (r *rateRace) proof() (vs []results.AdviceVerdict, cur *results.AdviceVerdict) {
	ap := r.ap
	vs = []results.AdviceVerdict{}
	against := "current"
	if ap.Current == ap.Defaults {
		against = "defaults"
	}
	proof := proofMetrics(ap, r.m)
	if r.pick != ap.Current {
		for _, on := range proof {
			vs = append(vs, r.judge(against, ap.Current, on))
		}
		c := vs[0]
		cur = &c
	}
	if ap.Defaults != ap.Current && r.pick != ap.Defaults {
		for _, on := range proof {
			vs = append(vs, r.judge("defaults", ap.Defaults, on))
		}
	}
	return vs, cur
}

// runnersUp are the qualifying candidates the objective does not decide
// higher than the pick.
func (r *rateRace) runnersUp(ids []string) []results.AdviceRunnerUp {
	out := []results.AdviceRunnerUp{}
	for _, id := range ids {
		v := Judge(r.byID[r.pick], r.byID[id], r.m, true, r.options())
		if v.Kind == stats.KindHigher {
			continue
		}
		out = append(out, results.AdviceRunnerUp{ScenarioID: id, Settings: r.settings[id],
			Score: valueOf(r.m, r.byID[id], r.plan.Level), Kind: v.Kind, Text: v.Text})
	}
	return out
}

// answer says what to do, from cur (the verdict on the objective against
// the current settings) and whether the current settings held the load;
// recommend is true only when the pick is proven better.
func (r *rateRace) answer(cur *results.AdviceVerdict) (text string, recommend bool) {
	ap, m := r.ap, r.m
	current := referenceText(ap)
	refHeld := r.held[ap.Current]
	switch {
	case cur == nil:
		return fmt.Sprintf("keep %s: no candidate that held the load had a lower %s", current, m.Name), false
	case refHeld.Trials >= stats.DefaultMinPairs && refHeld.Fails() > refHeld.Trials/2:
		return fmt.Sprintf("use the pick: %s did not hold %s msg/s (%s) in %d of %d trials; the pick held it in %s",
			current, textfmt.Group(ap.RecordsPerS, 0), holdText(ap), refHeld.Fails(), refHeld.Trials, r.held[r.pick].Text()), true
	case cur.Kind == stats.KindLower:
		return fmt.Sprintf("use the pick: its %s is %s against %s", m.Name, adviceDiff(*cur), current), true
	case cur.Kind == stats.KindEquivalent:
		return fmt.Sprintf("keep %s: they are within ±%g %% of the best found on %s (%s)", current, r.plan.Margin*100, m.Name, cur.Text), false
	default:
		return fmt.Sprintf("cannot tell yet whether the pick beats %s on %s: %s", current, m.Name, cur.Text), false
	}
}

// Held counts the trials of a candidate at a fixed rate, and those that
// held the load (HoldMisses empty).
type Held struct{ Held, Trials int }

// Holds reports whether most trials held the load.
func (h Held) Holds() bool { return h.Trials > 0 && 2*h.Held > h.Trials }

// Fails counts the trials that did not hold the load.
func (h Held) Fails() int { return h.Trials - h.Held }

// Text writes it as "11 of 12 trials".
func (h Held) Text() string { return fmt.Sprintf("%d of %d trials", h.Held, h.Trials) }

// Holding tallies, per scenario, the measured trials at a fixed rate and
// how many held the load: the one count the advisor's race and its answer
// both use. A trial that produced nothing (a failed cluster, an
// interruption) is not counted.
func Holding(recs []results.Record, slo map[string]float64, keepUp float64) map[string]Held {
	out := map[string]Held{}
	for i := range recs {
		r := &recs[i]
		if r.Warmup || r.Status == results.StatusInterrupted || r.Records.Sent == 0 || r.Load == nil {
			continue
		}
		h := out[r.ScenarioID]
		h.Trials++
		if len(HoldMisses(r, slo, keepUp)) == 0 {
			h.Held++
		}
		out[r.ScenarioID] = h
	}
	return out
}

// holdText says what holding the load means: "keeping up 0.99, SLO p99 ≤ 50 ms".
func holdText(ap *results.AdvicePlan) string {
	s := fmt.Sprintf("keeping up %g", ap.KeepUp)
	if t := figures.SLOText(ap.SLO); t != "" {
		s += ", SLO " + t
	}
	return s
}

// proofMetrics are the metrics the pick is judged on against a
// reference: the objective first, then the SLO's first percentile (p99
// from the intended send time without an SLO) and CPU per MB, each once.
func proofMetrics(ap *results.AdvicePlan, objective Metric) []Metric {
	out := []Metric{objective}
	for _, k := range []string{sloPercentile(ap.SLO).Metric, "cpu.total"} {
		if m, ok := MetricByKey(k); ok && k != objective.Key {
			out = append(out, m)
		}
	}
	return out
}

// valueOf is a candidate's figure on metric m: mean and interval.
func valueOf(m Metric, s *ScenarioStats, level float64) *results.AdviceValue {
	xs := m.Values(s)
	sum := stats.Summarize(xs, level)
	return &results.AdviceValue{Metric: m.Key, Unit: m.Unit, Mean: finiteOr(sum.Mean, 0),
		Lo: finiteOr(sum.Mean-sum.Err, 0), Hi: finiteOr(sum.Mean+sum.Err, 0), Level: level, Trials: len(xs)}
}

// rateScores places every candidate with trials by its objective's mean
// and the mean of a latency percentile, the SLO's kind (see
// ratePercentile), and marks the Pareto front of the two among those that
// held the load.
func rateScores(ap *results.AdvicePlan, m Metric, byID map[string]*ScenarioStats, held map[string]Held, level float64) []results.AdviceScore {
	pct := ratePercentile(ap)
	lat, _ := MetricByKey(pct.Metric)
	out := []results.AdviceScore{}
	for _, c := range ap.Candidates {
		s := byID[c.ScenarioID]
		if s == nil || len(m.Values(s)) == 0 {
			continue
		}
		sc := results.AdviceScore{ScenarioID: c.ScenarioID, Score: valueOf(m, s, level), Percentile: pct.Key}
		if l := lat.Summary(s).Mean; !math.IsNaN(l) && held[c.ScenarioID].Holds() {
			sc.LatencyMs = l
		}
		out = append(out, sc)
	}
	lower := func(a, b results.AdviceScore) bool {
		av, bv := a.Score.Mean, b.Score.Mean
		return a.LatencyMs > 0 && av <= bv && a.LatencyMs <= b.LatencyMs && (av < bv || a.LatencyMs < b.LatencyMs)
	}
	for i := range out {
		out[i].Pareto = out[i].LatencyMs > 0 && !slices.ContainsFunc(out, func(o results.AdviceScore) bool { return lower(o, out[i]) })
	}
	return out
}

// ratePercentile is the latency percentile the candidates are set
// against: the SLO's (p99 without an SLO), or, when the objective is that
// very percentile, the other end of the same distribution (p50, or p99
// for an objective on p50), so that the chart shows a trade-off and not
// one figure against itself.
func ratePercentile(ap *results.AdvicePlan) figures.SLOPercentile {
	pct := sloPercentile(ap.SLO)
	if ap.Objective != pct.Metric {
		return pct
	}
	prefix := strings.TrimSuffix(pct.Key, pct.Quantile)
	other := "p50"
	if pct.Quantile == "p50" {
		other = "p99"
	}
	p, _ := figures.SLOByKey(prefix + other)
	return p
}

// whyAtRate sets the pick's measured figures beside the reference's, as
// means over their trials at the fixed rate: records per batch, produce
// requests per second, compression ratio, p99 from the intended send time
// and CPU per MB.
func whyAtRate(ref, pick *ScenarioStats) []string {
	if ref == nil || pick == nil {
		return nil
	}
	line := "at the fixed rate, means over each one's trials:"
	sep := " "
	for _, f := range []struct {
		key, name, format string
	}{
		{"records_per_batch", "records per batch", "%.1f → %.1f"},
		{"requests_per_s", "produce requests per second", "%.0f → %.0f"},
		{"compression", "compression ratio", "%.2f → %.2f"},
		{"p99.intended", "p99 from the intended send time", "%.1f → %.1f ms"},
		{"cpu.total", "CPU per MB (client and brokers)", "%.1f → %.1f ms/MB"},
	} {
		a, b := whyMean(ref, f.key), whyMean(pick, f.key)
		if math.IsNaN(a) || math.IsNaN(b) || (f.key == "compression" && a == 1 && b == 1) {
			continue
		}
		line += sep + f.name + " " + fmt.Sprintf(f.format, a, b)
		sep = ", "
	}
	if sep == " " {
		return nil
	}
	return []string{line}
}

// whyMean is the mean of one figure over a scenario's counted trials:
// a registry metric, or one of the two why alone reads.
func whyMean(s *ScenarioStats, key string) float64 {
	if m, ok := MetricByKey(key); ok {
		return m.Summary(s).Mean
	}
	var xs []float64
	for i := range s.counted {
		r := &s.counted[i]
		switch key {
		case "requests_per_s":
			if r.ProduceRequests > 0 && r.Throughput.RecordsPerS > 0 && r.Records.Acked > 0 {
				// requests per second = records/s ÷ records per request
				xs = append(xs, r.Throughput.RecordsPerS*float64(r.ProduceRequests)/float64(r.Records.Acked))
			}
		case "compression":
			if r.CompressionRatio > 0 {
				xs = append(xs, r.CompressionRatio)
			}
		}
	}
	if len(xs) == 0 {
		return math.NaN()
	}
	return stats.Summarize(xs, stats.DefaultConfidence).Mean
}
