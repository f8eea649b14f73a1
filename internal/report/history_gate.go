package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/figures"
	"github.com/prodlab/prodlab/internal/stats"
)

// Gate is one --gate: a metric key (summary.Metric.Key, or a finding's
// metric) and the relative change beyond which a departure counts
// (0.05: 5 %).
type Gate struct {
	Metric    string
	Threshold float64
}

// ParseGate reads METRIC[:THRESHOLD]: a metric key of summary.Metrics
// and an optional threshold, a share (0.05) or a percentage (5%).
func ParseGate(s string) (Gate, error) {
	metric, thr, hasThr := strings.Cut(s, ":")
	if keys := figures.MetricKeys(); !slices.Contains(keys, metric) {
		return Gate{}, fmt.Errorf("unknown metric %q: use one of %s", metric, strings.Join(keys, ", "))
	}
	g := Gate{Metric: metric}
	if !hasThr {
		return g, nil
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(thr, "%")), 64)
	if strings.HasSuffix(thr, "%") {
		x /= 100
	}
	if err != nil || math.IsNaN(x) || x < 0 || x >= 10 {
		return Gate{}, fmt.Errorf("threshold %q must be a share from 0 to 10 (0.05) or a percentage (5%%)", thr)
	}
	g.Threshold = x
	return g, nil
}

// GateResult is what the gates found in a history's newest run: Failed
// lists one line per series whose newest value departed from its level
// against the user's direction beyond the threshold; Passed counts the
// series tested and not failed; Untested says why a series could not be.
type GateResult struct {
	Failed   []string `json:"failed,omitempty"`
	Passed   int      `json:"passed"`
	Untested []string `json:"untested,omitempty"`
}

// Gate tests the newest run of every series of g.Metric (scenarios'
// metrics; findings are answers, not levels, and are not gated): the
// runs before it since their last change point are its level, and the
// newest run fails the gate when it departs from that level in the
// direction that is worse (throughput down, latency, CPU or disk up) by
// more than g.Threshold, with the prediction test's p-value below alpha
// (stats.Departure).
func (h *History) Gate(g Gate, alpha float64) GateResult {
	var res GateResult
	n := len(h.Runs)
	for i := range h.Series {
		s := &h.Series[i]
		if s.Metric != g.Metric || s.Finding != "" {
			continue
		}
		what := fmt.Sprintf("%s of %s", s.Name, s.Scenario)
		if n == 0 || s.Points[n-1].Missing {
			res.Untested = append(res.Untested, what+": the newest run has no value")
			continue
		}
		level, from := s.level(n-1, h.Method)
		dir := stats.LowerIsBetter
		if s.Higher {
			dir = stats.HigherIsBetter
		}
		rel, p, ok := stats.Departure(level, s.Points[n-1].Value, dir)
		if !ok {
			res.Untested = append(res.Untested, fmt.Sprintf("%s: %d run(s) at its level before the newest, a test needs 2", what, len(level)))
			continue
		}
		worse := rel < 0
		if !s.Higher {
			worse = rel > 0
		}
		if worse && math.Abs(rel) > g.Threshold && p < alpha {
			res.Failed = append(res.Failed, fmt.Sprintf("%s %s %.1f %% in %s against the %d runs since %s (p %.3g; threshold %g %%)",
				what, moved(rel), 100*math.Abs(rel), h.Runs[n-1].Dir, len(level), h.Runs[from].Dir, p, 100*g.Threshold))
			continue
		}
		res.Passed++
	}
	return res
}

// level is the values of the runs before run last since the series' last
// change point among them, and the index of the first of those runs.
func (s *Series) level(last int, m ChangeMethod) ([]float64, int) {
	var xs []float64
	var at []int
	for i := 0; i < last; i++ {
		if !s.Points[i].Missing {
			xs = append(xs, s.Points[i].Value)
			at = append(at, i)
		}
	}
	if len(xs) == 0 {
		return nil, 0
	}
	start := 0
	cfg := stats.ChangeConfig{Alpha: m.Alpha, Permutations: m.Permutations, MinSize: m.MinRuns, Seed: s.seed()}
	if cs := stats.ChangePoints(xs, cfg); len(cs) > 0 {
		start = cs[len(cs)-1].Index
	}
	return xs[start:], at[start]
}

// moved says which way a relative change went.
func moved(rel float64) string {
	if rel < 0 {
		return "fell"
	}
	return "rose"
}
