package summary

import (
	"fmt"
	"math"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
)

// HoldMisses lists every reason a rate-limited trial does not hold its
// load: a failed record, a producer that did not keep up (KeptUp), an
// unsteady window, an audit that found what the experiment does not expect
// (with audit: true, "audited clean" is a constraint like the SLO), an SLO
// percentile of the latency from the intended send time above its bound.
// Empty when it holds. It is the one judgement of a
// capacity probe and of an advise candidate at a fixed rate.
func HoldMisses(rec *results.Record, slo map[string]float64, keepUp float64) []string {
	var why []string
	if !rec.Counted() {
		why = append(why, "trial failed: "+firstLine(rec.Error))
	}
	if !KeptUp(rec, keepUp) {
		achieved := math.NaN()
		if rec.Load != nil {
			achieved = rec.Load.Achieved
		}
		why = append(why, fmt.Sprintf("kept up %.4f < %g (resolution ±%.4f)", achieved, keepUp, KeepUpResolution(rec)))
	}
	if st := rec.Steady; st != nil && !st.OK {
		why = append(why, "window not steady: "+st.Reason)
	}
	if rec.Status == results.StatusViolated && rec.Audit != nil {
		a := rec.Audit
		why = append(why, fmt.Sprintf("audit not clean: %d lost, %d duplicated, %d reordered, %d phantom", a.Lost, a.Duplicates, a.Reordered, a.Phantom))
	}
	return append(why, SLOMisses(rec.LatencyIntendedMs, slo)...)
}

// SLOMisses lists the SLO percentiles l does not meet (all of them when
// nothing was measured).
func SLOMisses(l *results.Latency, slo map[string]float64) []string {
	var out []string
	for _, p := range SLOPercentiles {
		bound, ok := slo[p.Key]
		if !ok {
			continue
		}
		m, _ := MetricByKey(p.Key)
		v := math.NaN()
		if l != nil {
			v = LatencyAt(*l, p.Key)
		}
		if !(v <= bound) {
			out = append(out, fmt.Sprintf("%s from the intended send time %.1f ms > %g ms", strings.TrimPrefix(m.Name, "latency "), v, bound))
		}
	}
	return out
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
