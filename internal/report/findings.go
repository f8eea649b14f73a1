package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// Finding answers one planned comparison of a run (results.Plan). It is
// also the machine-readable answer: an element of findings.json and of the
// json format's "findings"; Verdict holds the difference, its interval
// (diff_lo, diff_hi), the test and the pairs.
type Finding struct {
	Question string `json:"question"`
	// Title is the question, or one made of the scenarios when the plan
	// asks none, as the table heads the finding.
	Title string `json:"title"`
	// Metric is the key of the metric judged (summary.Metric.Key).
	Metric string `json:"metric"`
	// Sentence is the answer in one sentence: the candidate, the verdict
	// and its interval, the test, and the baseline.
	Sentence string `json:"sentence"`
	// Kind is the verdict's kind (stats.KindFaster, …, stats.KindNotTested).
	Kind string `json:"kind"`
	// Baseline and Candidate are the scenario IDs compared.
	Baseline  string `json:"baseline"`
	Candidate string `json:"candidate"`
	// BaselineTrials and CandidateTrials count each side's counted trials.
	BaselineTrials  int `json:"baseline_trials"`
	CandidateTrials int `json:"candidate_trials"`
	// Published is the study's published figure, when the plan gives one.
	Published string        `json:"published,omitempty"`
	Verdict   stats.Verdict `json:"verdict"`
}

// metricOf is the metric a planned comparison judges: its Metric key (the
// sustainable rate's included), or throughput (records/s) for plans that
// name none.
func metricOf(c results.PlannedComparison) summary.Metric { return metricByKey(c.Metric) }

// metricByKey is the metric of key: the sustainable rate, one of
// summary.Metrics, or throughput (records/s) for an empty or unknown key.
func metricByKey(key string) summary.Metric {
	if key == sustainableMetric.Key {
		return sustainableMetric
	}
	if m, ok := summary.MetricByKey(key); ok {
		return m
	}
	return summary.Metrics[0]
}

// Findings answers each comparison of p on throughput (records/s): a
// paired verdict on the rounds both scenarios counted (summary.Paired and
// stats.ComparePaired at p's Level and Margin), or Welch's test when fewer
// than two trials pair up. A comparison naming a scenario without counted
// trials is "not tested". A verdict on fewer pairs than the stopping
// rule's minimum (stats.DefaultMinPairs) is "not enough rounds" when the
// rule chose the rounds (the plan has a Precision: trials: auto), and
// stands, saying "fewer than 8 pairs", when the user fixed them.
func Findings(recs []results.Record, p results.Plan) []Finding {
	scs, err := summarize(recs)
	if err != nil {
		// A histogram that does not decode: every answer says so.
		out := make([]Finding, len(p.Comparisons))
		for i, c := range p.Comparisons {
			out[i] = notTestedFinding(c, nil, nil, "results unreadable: "+err.Error())
		}
		return out
	}
	return findings(recs, scs, p)
}

// findings is Findings over summarised scenarios; a comparison of
// sustainable rates is judged on the probes of recs (sustainableFinding).
func findings(recs []results.Record, scs []scenario, p results.Plan) []Finding {
	byID := map[string]*scenario{}
	for i := range scs {
		byID[scs[i].ID] = &scs[i]
	}
	var probes map[string]summary.ScenarioProbes
	out := make([]Finding, 0, len(p.Comparisons))
	for _, c := range p.Comparisons {
		m := metricOf(c)
		if m.Key == sustainableMetric.Key {
			if probes == nil {
				probes = probesByID(recs)
			}
			out = append(out, sustainableFinding(c, byID[c.Baseline], byID[c.Candidate], probes, p))
			continue
		}
		o := stats.Options{Level: p.Level, Margin: p.Margin, Dir: m.Dir,
			MinPairs: stats.DefaultMinPairs, FixedRounds: p.Precision == 0}
		a, b := byID[c.Baseline], byID[c.Candidate]
		switch {
		case a == nil || a.Trials == 0:
			out = append(out, notTestedFinding(c, a, b, "the baseline has no successful trials"))
			continue
		case b == nil || b.Trials == 0:
			out = append(out, notTestedFinding(c, a, b, "the candidate has no successful trials"))
			continue
		}
		v := summary.Judge(a.ScenarioStats, b.ScenarioStats, m, true, o)
		f := Finding{Question: c.Question, Metric: m.Key, Kind: v.Kind, Baseline: c.Baseline, Candidate: c.Candidate,
			BaselineTrials: a.Trials, CandidateTrials: b.Trials, Published: c.Published, Verdict: v}
		f.Title = orQuestion(f)
		f.Sentence = metricSentence(m, sentence(a, b, v, trialCount(v, a, b)))
		out = append(out, f)
	}
	return out
}

// metricSentence names the metric judged before a finding's sentence,
// unless it is throughput, which the Findings' title names.
func metricSentence(m summary.Metric, s string) string {
	if m.Key == summary.Metrics[0].Key {
		return s
	}
	return m.Name + " (" + m.Unit + "): " + s
}

// notTestedFinding is the answer to a comparison that could not run.
func notTestedFinding(c results.PlannedComparison, a, b *scenario, why string) Finding {
	bl, cl := c.Baseline, c.Candidate
	if a != nil && b != nil {
		bl, cl = differing(a, b)
	}
	f := Finding{Question: c.Question, Metric: metricOf(c).Key, Kind: stats.KindNotTested, Baseline: c.Baseline, Candidate: c.Candidate,
		Published: c.Published, Verdict: notTested(why),
		Sentence: fmt.Sprintf("%s against %s was not tested: %s; baseline %s", cl, bl, why, c.Baseline)}
	if a != nil {
		f.BaselineTrials = a.Trials
	}
	if b != nil {
		f.CandidateTrials = b.Trials
	}
	f.Title = orQuestion(f)
	return f
}

// notTested is the verdict of a comparison that could not run: its
// figures are NaN (null in JSON), not a difference of zero.
func notTested(why string) stats.Verdict {
	nan := math.NaN()
	return stats.Verdict{Kind: stats.KindNotTested, Text: "not tested: " + why,
		Diff: nan, DiffErr: nan, Lo: nan, Hi: nan, T: nan, DF: nan, P: nan, EquivP: nan}
}

// sentence words verdict v of candidate b against baseline a:
//
//	linger.ms=5 is faster than linger.ms=0 by 12.3 % [+8.1 %, +16.4 %] (paired, 95 %, 12 rounds); baseline linger.ms=0,acks=all
//	x=1 is equivalent within ±5 % to x=0: +0.4 % [-1.2 %, +2.0 %] (paired, 95 %, 12 rounds); baseline x=0
//	x=1 against x=0 is inconclusive: [-9.8 %, +12.1 %] is wider than ±5 %; about 14 more rounds would decide it (paired, 95 %, 3 rounds); baseline x=0
//
// The scenarios are named by the matrix values in which they differ; the
// baseline's full ID ends the sentence; n is what the verdict rests on
// ("12 rounds", see trialCount).
func sentence(a, b *scenario, v stats.Verdict, n string) string {
	bl, cl := differing(a, b)
	text := withTrials(v, n)
	var s string
	switch v.Kind {
	case stats.KindFaster, stats.KindSlower, stats.KindLower, stats.KindHigher:
		// "faster by …" → "faster than <baseline> by …"
		s = cl + " is " + strings.Replace(text, v.Kind+" ", v.Kind+" than "+bl+" ", 1)
	case stats.KindEquivalent:
		// "equivalent within ±5 %: …" → "equivalent within ±5 % to <baseline>: …"
		s = cl + " is " + strings.Replace(text, ":", " to "+bl+":", 1)
	case stats.KindInconclusive:
		s = cl + " against " + bl + " is " + text
		if !strings.HasPrefix(text, stats.KindInconclusive) {
			// "not enough rounds: …"
			s = cl + " against " + bl + " is inconclusive, " + text
		}
	default:
		s = cl + " against " + bl + " was " + text
	}
	return s + "; baseline " + a.ID
}

// trialCount is how many rounds (paired, over all lives) or trials (Welch)
// verdict v of b against a rests on: "12 rounds", "3 and 5 trials".
func trialCount(v stats.Verdict, a, b *scenario) string {
	if v.Paired() {
		return fmt.Sprintf("%d rounds", v.Pairs)
	}
	return fmt.Sprintf("%d and %d trials", a.Trials, b.Trials)
}

// withTrials adds n, what the verdict rests on (trialCount), inside its
// closing parenthesis: "(paired, 95 %)" becomes "(paired, 95 %, 12
// rounds)".
func withTrials(v stats.Verdict, n string) string {
	t := v.Text
	if v.Kind == stats.KindNotTested || !strings.HasSuffix(t, ")") {
		return t
	}
	return t[:len(t)-1] + ", " + n + ")"
}

// differing names a and b by the matrix values in which they differ
// ("enable.idempotence=false"), or by their full labels when they differ
// in none (or in keys only one has).
func differing(a, b *scenario) (al, bl string) {
	keys, ok := differingKeys(a, b)
	if !ok {
		return a.Label, b.Label
	}
	as, bs := make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		as[i] = k + "=" + formatValue(a.Values[k])
		bs[i] = k + "=" + formatValue(b.Values[k])
	}
	return strings.Join(as, " "), strings.Join(bs, " ")
}

// differingKeys are the matrix keys, in a's order, whose values differ
// between a and b; ok is false when they differ in none or do not share
// their keys, so that only their full labels tell them apart.
func differingKeys(a, b *scenario) (keys []string, ok bool) {
	for _, k := range a.Keys {
		av, aok := a.Values[k]
		bv, bok := b.Values[k]
		if !aok || !bok {
			return nil, false
		}
		if formatValue(av) != formatValue(bv) {
			keys = append(keys, k)
		}
	}
	return keys, len(keys) > 0 && len(a.Keys) == len(b.Keys)
}

// findingsTitle heads the Findings section: what the verdicts rest on.
func (v *view) findingsTitle() string {
	return fmt.Sprintf("Findings (throughput, records/s, unless a finding names its metric; %s confidence, equivalence margin ±%s %%)",
		stats.Percent(levelOr(v.plan.Level)), trimFloat(marginOr(v.plan.Margin)*100))
}

// levelOr and marginOr fill a plan's zero level and margin as stats does.
func levelOr(l float64) float64 {
	if l == 0 {
		return stats.DefaultConfidence
	}
	return l
}

func marginOr(m float64) float64 {
	if m == 0 {
		return stats.DefaultMargin
	}
	return m
}

// trimFloat renders v without trailing zeros, at most 2 decimals.
func trimFloat(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// hasFindings reports whether v shows a Findings section: a run with a
// plan, except an advise run that planned no comparison (its answer is
// the advice).
func (v *view) hasFindings() bool {
	return v.plan != nil && (v.plan.Advise == nil || len(v.findings) > 0)
}

// findingsText appends the table's Findings section, when v has a plan:
// each answer in words, then all of them at a glance (forestText), then
// the hints.
func (v *view) findingsText(b *strings.Builder) {
	if !v.hasFindings() {
		return
	}
	b.WriteString("\n" + v.findingsTitle() + ":\n")
	if len(v.findings) == 0 {
		b.WriteString("  (the plan has no comparisons)\n")
	}
	for i, f := range v.findings {
		fmt.Fprintf(b, "%d. %s\n", i+1, orQuestion(f))
		fmt.Fprintf(b, "   %s\n", f.Sentence)
		if f.Published != "" {
			fmt.Fprintf(b, "   published: %s\n", f.Published)
		}
	}
	if len(v.findings) > 0 {
		forestText(b, v.forest())
	}
	for _, hint := range v.hints() {
		b.WriteString(hint + "\n")
	}
}

// hints are the lines under the Findings that say how an undecided
// finding could be decided.
func (v *view) hints() []string {
	var hs []string
	for _, h := range []string{v.openHint(), v.duetHint(), v.precisionHint()} {
		if h != "" {
			hs = append(hs, h)
		}
	}
	return hs
}

// openHint says in one line how many answers stay open and why: their
// intervals were still wider than the margin when the run stopped, and
// how many more rounds the nearest and the farthest would need at the
// spread seen. "" when every finding is decided.
func (v *view) openHint() string {
	open, lo, hi := 0, -1, -1
	for _, f := range v.findings {
		if f.Kind != stats.KindInconclusive {
			continue
		}
		open++
		if n := f.Verdict.MoreRounds; n > 0 {
			lo, hi = minPositive(lo, n), max(hi, n)
		}
	}
	if open == 0 {
		return ""
	}
	rounds := func(n int) string {
		if n == 1 {
			return "1 more round"
		}
		return fmt.Sprintf("%d more rounds", n)
	}
	it, are, its, is := "them", "are", "their intervals", "are"
	if open == 1 {
		it, are, its, is = "it", "is", "its interval", "is"
	}
	need := "how many more rounds would decide " + it + " cannot be estimated"
	switch {
	case lo > 0 && lo == hi:
		need = fmt.Sprintf("about %s would decide %s at the spread seen", rounds(lo), it)
	case lo > 0:
		need = fmt.Sprintf("at the spread seen the nearest needs about %s, the farthest about %s", rounds(lo), rounds(hi))
	}
	return fmt.Sprintf("Open: %d of %d answers %s inconclusive (%s %s still wider than the equivalence margin when the run stopped); %s.", open, len(v.findings), are, its, is, need)
}

// minPositive is the smaller of a and b, where a < 0 means none yet.
func minPositive(a, b int) int {
	if a < 0 || b < a {
		return b
	}
	return a
}

// duetHint suggests schedule: duet when the run could have used it
// (results.Plan.DuetWouldRun) and a finding is still inconclusive: at
// saturation, sequential rounds narrow slowest. "" otherwise.
func (v *view) duetHint() string {
	if v.plan == nil || !v.plan.DuetWouldRun {
		return ""
	}
	for _, f := range v.findings {
		if f.Kind == stats.KindInconclusive {
			return "Undecided: --set schedule=duet runs each comparison's two arms at the same time, each on its own half of the CPUs, so what the machine does in a round falls on both; at saturation it narrows an interval several times faster than rounds one after another (docs/answers.md). Its figures are each arm's on half the machine."
		}
	}
	return ""
}

// findingsMarkdown appends the Markdown Findings section, when v has a
// plan.
func (v *view) findingsMarkdown(b *strings.Builder) {
	if !v.hasFindings() {
		return
	}
	b.WriteString("\n### " + mdEscape(v.findingsTitle()) + "\n\n")
	if len(v.findings) == 0 {
		b.WriteString("The plan has no comparisons.\n")
	}
	for i, f := range v.findings {
		fmt.Fprintf(b, "%d. **%s**  \n   %s", i+1, mdEscape(orQuestion(f)), mdEscape(f.Sentence))
		if f.Published != "" {
			fmt.Fprintf(b, "  \n   Published: %s", mdEscape(f.Published))
		}
		b.WriteString("\n")
	}
	for _, hint := range v.hints() {
		b.WriteString("\n" + mdEscape(hint) + "\n")
	}
}

// orQuestion is the finding's question, or one made of its scenarios.
func orQuestion(f Finding) string {
	if f.Question != "" {
		return f.Question
	}
	return f.Candidate + " against " + f.Baseline + "?"
}

// precisionHint explains a paired finding that is precise and still
// inconclusive, which only a precision wider than stats.DecisivePrecision
// allows: its interval lies across both 0 and the reach of the
// equivalence margin. "" when no finding is so. A verdict over lives is
// left out on purpose: its width is the spread between lives, which a
// narrower precision for each life's rounds does not shrink.
func (v *view) precisionHint() string {
	if v.plan == nil {
		return ""
	}
	for _, f := range v.findings {
		if f.Kind == stats.KindInconclusive && f.Verdict.Test == stats.PairedTest && f.Verdict.RuleHalfWidth() <= v.plan.Precision {
			return fmt.Sprintf("Undecided though precise: an interval within ±%s %% can lie across both 0 and the reach of the ±%s %% equivalence margin; precision: %s or narrower decides every paired comparison at this margin, at the price of more rounds (docs/answers.md).",
				trimFloat(v.plan.Precision*100), trimFloat(v.plan.Margin*100), strconv.FormatFloat(math.Floor(stats.DecisivePrecision(v.plan.Level, v.plan.Margin)*1000)/1000, 'f', -1, 64))
		}
	}
	return ""
}
