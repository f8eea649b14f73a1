package expfile

import (
	"github.com/goccy/go-yaml/ast"

	"github.com/prodlab/prodlab/internal/figures"

	"fmt"
	"slices"
	"strings"
)

// CompareSpec is one entry of an experiment's compare: list, as written:
// either Axis (each value of that matrix axis against its Baseline value,
// the axis' first value by default, within every combination of the other
// axes) or an explicit pair of scenario IDs (Baseline and Candidate).
type CompareSpec struct {
	Axis      string
	Baseline  string
	Candidate string
	// Published is the study's own figure, shown beside prodlab's answer.
	Published string
	// Question overrides the generated wording of the question.
	Question string
	// Metric is what to compare (figures.Metric.Key); throughput by default.
	Metric string

	pos    pos
	keyPos map[string]pos
}

// Comparison is one planned comparison between two scenarios: does
// Candidate differ from Baseline?
type Comparison struct {
	Question  string
	Baseline  string // scenario ID
	Candidate string // scenario ID
	Published string
	// Metric is the figures.Metric.Key compared.
	Metric string
}

// DefaultCompareMetric is what a compare entry judges unless it names a
// metric.
const DefaultCompareMetric = "throughput"

// compareKeys are the keys of one compare: entry.
var compareKeys = []string{"axis", "baseline", "candidate", "metric", "published", "question"}

// compare reads the compare: list.
func (p *fileParser) compare(e *Experiment, n ast.Node) {
	items, ok := p.sequence(n)
	if !ok {
		p.c.add(p.at(n).errorf("compare must be a list of {axis: KEY} or {baseline: SCENARIO, candidate: SCENARIO} entries"))
		return
	}
	for _, it := range items {
		entries, ok := p.mapping(it)
		if !ok || len(entries) == 0 {
			p.c.add(p.at(it).errorf("a compare entry must be a mapping: {axis: KEY} or {baseline: SCENARIO, candidate: SCENARIO}"))
			continue
		}
		cs := CompareSpec{pos: p.at(it), keyPos: map[string]pos{}, Metric: DefaultCompareMetric}
		for _, mv := range entries {
			key, kpos := p.key(mv)
			if !slices.Contains(compareKeys, key) {
				p.c.add(kpos.errorf("unknown key %q in compare entry%s", key, didYouMean(key, compareKeys)))
				continue
			}
			v, ok := p.value(mv.Value, false, "compare "+key)
			if !ok {
				continue
			}
			cs.keyPos[key] = p.at(mv.Value)
			switch key {
			case "axis":
				cs.Axis = v
			case "baseline":
				cs.Baseline = v
			case "candidate":
				cs.Candidate = v
			case "published":
				cs.Published = v
			case "question":
				cs.Question = v
			case "metric":
				if keys := append(figures.MetricKeys(), figures.SustainableMetric); !slices.Contains(keys, v) {
					p.c.add(p.at(mv.Value).errorf("compare metric must be one of %s, got %q%s", strings.Join(keys, ", "), v, didYouMean(v, keys)))
					continue
				}
				cs.Metric = v
			}
		}
		switch {
		case cs.Axis != "" && cs.Candidate != "":
			p.c.add(cs.pos.errorf("a compare entry names an axis or a candidate scenario, not both"))
		case cs.Axis == "" && (cs.Baseline == "" || cs.Candidate == ""):
			p.c.add(cs.pos.errorf("a compare entry needs axis: KEY, or both baseline: and candidate: scenario IDs"))
		default:
			e.Compare = append(e.Compare, cs)
		}
	}
}

// Comparisons expands the experiment's compare: entries against its
// scenarios, in order, without repeating a pair. A name that matches no
// axis, value or scenario is an error naming the closest one.
func (e *Experiment) Comparisons(scs []Scenario) ([]Comparison, error) {
	c := &collector{}
	out := e.comparisons(scs, c)
	if err := c.err(); err != nil {
		return nil, err
	}
	return out, nil
}

func (e *Experiment) comparisons(scs []Scenario, c *collector) []Comparison {
	byID := make(map[string]*Scenario, len(scs))
	for i := range scs {
		byID[scs[i].ID] = &scs[i]
	}
	var out []Comparison
	seen := map[[3]string]bool{}
	for _, cs := range e.Compare {
		var found []Comparison
		if cs.Axis == "" {
			found = cs.pair(scs, byID, c)
		} else {
			found = e.alongAxis(cs, scs, byID, c)
		}
		for _, cmp := range found {
			k := [3]string{cmp.Baseline, cmp.Candidate, cmp.Metric}
			if !seen[k] && cmp.Baseline != cmp.Candidate {
				seen[k] = true
				out = append(out, cmp)
			}
		}
	}
	return out
}

// at is where key k of the entry was written (the entry when it was not).
func (cs CompareSpec) at(k string) pos {
	if p, ok := cs.keyPos[k]; ok {
		return p
	}
	return cs.pos
}

// comparison is the planned comparison of baseline and candidate, asked
// as question (the entry's own wording when it has one).
func (cs CompareSpec) comparison(question, baseline, candidate string) Comparison {
	if cs.Question != "" {
		question = cs.Question
	}
	return Comparison{Question: question, Baseline: baseline, Candidate: candidate, Published: cs.Published, Metric: cs.Metric}
}

// pair is an explicit baseline/candidate entry, both scenario IDs.
func (cs CompareSpec) pair(scs []Scenario, byID map[string]*Scenario, c *collector) []Comparison {
	ok := true
	for _, kv := range [][2]string{{"baseline", cs.Baseline}, {"candidate", cs.Candidate}} {
		k, id := kv[0], kv[1]
		if byID[id] == nil {
			ids := make([]string, len(scs))
			for i := range scs {
				ids[i] = scs[i].ID
			}
			c.add(cs.at(k).errorf("compare %s %q is not a scenario of this experiment%s", k, id, didYouMean(id, ids)))
			ok = false
		}
	}
	if ok && cs.Baseline == cs.Candidate {
		c.add(cs.at("candidate").errorf("compare candidate %q is its baseline: a scenario compared with itself answers nothing; name two different scenarios", cs.Candidate))
		ok = false
	}
	if !ok {
		return nil
	}
	return []Comparison{cs.comparison(fmt.Sprintf("%s vs %s", cs.Candidate, cs.Baseline), cs.Baseline, cs.Candidate)}
}

// alongAxis is an axis entry: each scenario whose value on the axis is not
// the baseline value, against the scenario that differs from it on that
// axis only.
func (e *Experiment) alongAxis(cs CompareSpec, scs []Scenario, byID map[string]*Scenario, c *collector) []Comparison {
	ai := slices.IndexFunc(e.Matrix, func(a Axis) bool { return a.Key == cs.Axis })
	if ai < 0 {
		keys := make([]string, len(e.Matrix))
		for i, a := range e.Matrix {
			keys[i] = a.Key
		}
		c.add(cs.at("axis").errorf("compare axis %q is not a matrix axis%s", cs.Axis, didYouMean(cs.Axis, keys)))
		return nil
	}
	if e.Matrix[ai].written == 1 {
		c.add(cs.at("axis").errorf("compare axis %q has one value, so nothing to compare along it; give the axis two values or more, or drop the entry", cs.Axis))
		return nil
	}
	labels := make([]string, len(e.Matrix[ai].Values))
	for i, v := range e.Matrix[ai].Values {
		labels[i] = v.Label
	}
	base := labels[0]
	if cs.Baseline != "" {
		if !slices.Contains(labels, cs.Baseline) {
			c.add(cs.at("baseline").errorf("compare baseline %q is not a value of axis %q%s", cs.Baseline, cs.Axis, didYouMean(cs.Baseline, labels)))
			return nil
		}
		base = cs.Baseline
	}
	var out []Comparison
	for _, sc := range scs {
		bid := scenarioWith(sc, cs.Axis, base)
		if sc.Values[cs.Axis] == base || byID[bid] == nil {
			continue
		}
		q := fmt.Sprintf("%s=%s vs %s=%s", cs.Axis, sc.Values[cs.Axis], cs.Axis, base)
		if others := otherValues(sc, cs.Axis); others != "" {
			q += ", with " + others
		}
		out = append(out, cs.comparison(q, bid, sc.ID))
	}
	return out
}

// scenarioWith is the ID of the scenario equal to sc but with label on axis.
func scenarioWith(sc Scenario, axis, label string) string {
	parts := make([]string, len(sc.Keys))
	for i, k := range sc.Keys {
		v := sc.Values[k]
		if k == axis {
			v = label
		}
		parts[i] = k + "=" + v
	}
	return strings.Join(parts, ",")
}

// otherValues names sc's values on every axis but one.
func otherValues(sc Scenario, axis string) string {
	var parts []string
	for _, k := range sc.Keys {
		if k != axis {
			parts = append(parts, k+"="+sc.Values[k])
		}
	}
	return strings.Join(parts, ", ")
}
