package lab

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/spec"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/testtier"
)

// findings judges a run's planned comparisons as the report does.
func findings(t *testing.T, src string, recs []results.Record) []report.Finding {
	t.Helper()
	exp, err := spec.Parse("x.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	scs, _ := exp.Scenarios()
	cmps, err := exp.Comparisons(scs)
	if err != nil {
		t.Fatal(err)
	}
	plan := results.Plan{Level: stats.DefaultConfidence, Margin: exp.Equivalence}
	for _, c := range cmps {
		plan.Comparisons = append(plan.Comparisons, results.PlannedComparison{Question: c.Question, Baseline: c.Baseline, Candidate: c.Candidate})
	}
	return report.Findings(recs, plan)
}

const aaSrc = `
name: aa
workload: {duration.s: 0.6, warmup.s: 0.2, record.size: 200, payload: random}
client: franz-go
producer: {acks: all, linger.ms: 5, compression.type: none, max.buffered.records: 20000}
trials: auto
precision: 0.08
equivalence: 0.15
budget: 100s
matrix:
  arm:
    - {label: a, linger.ms: 5}
    - {label: b, linger.ms: 5}
compare:
  - {axis: arm}
`

// TestAAEquivalent: the same settings under two labels, on a real broker,
// with rounds until precise: the verdict must be "equivalent" (an A/A pair
// is how the lab calibrates itself), every measured record carries the
// stopping rule's state, steady-state trials have timelines and CPU.
//
// A calibrated lab still calls an A/A pair faster or slower in up to 5 %
// of runs (the 95 % level): CI at 6aaabdf drew one, "faster by 10.5 %
// [+0.1 %, +22.0 %]". And the rule stops once the interval is within the
// precision, so "equivalent" needs the estimate within margin − precision
// of zero: at precision ±10 % that was 5 %, and c0aebe1's run stopped at
// +8.9 % [−1.6 %, +19.4 %], honestly inconclusive. At ±8 % it needs 7 %
// (about 1.7 standard errors). So a first run that is not "equivalent"
// gets one more independent run, and the test fails when that one is not
// either: a miscalibrated lab still fails, a calibrated one about once in
// a hundred runs or fewer.
func TestAAEquivalent(t *testing.T) {
	testtier.Quiet(t)
	for run := 1; run <= 2; run++ {
		f := aaRun(t)
		if f.Kind == stats.KindEquivalent {
			return
		}
		if run == 1 {
			t.Logf("A/A run 1 is %s, which a calibrated lab draws now and then: %s; running again", f.Kind, f.Sentence)
			continue
		}
		t.Errorf("A/A verdict %q in run %d: %s", f.Kind, run, f.Sentence)
		return
	}
}

// aaRun runs aaSrc once on the shared broker, checks what every measured
// record must carry, and returns its one finding.
func aaRun(t *testing.T) report.Finding {
	t.Helper()
	recs, err := runYAML(t, aaSrc, true)
	if err != nil {
		t.Fatal(err)
	}
	measured := 0
	for _, r := range recs {
		if r.Warmup {
			continue
		}
		measured++
		if r.Precision == nil || r.Precision.Target != 0.08 {
			t.Errorf("trial %s/%d: precision %+v, want the target recorded", r.ScenarioID, r.Trial, r.Precision)
		}
		if r.Timeline == nil || len(r.Timeline.Points) < 5 || r.Steady == nil || r.CPU == nil || r.CPU.ClientS <= 0 {
			t.Errorf("trial %s/%d: timeline %v steady %v cpu %v", r.ScenarioID, r.Trial, r.Timeline != nil, r.Steady, r.CPU)
		}
		if r.WarmupRecords == nil || r.WarmupRecords.Sent == 0 {
			t.Errorf("trial %s/%d: no in-trial warm-up counted", r.ScenarioID, r.Trial)
		}
	}
	// The last trial written carries the state the run stopped in.
	if last := recs[len(recs)-1]; last.Precision == nil || last.Precision.Reached < 0 {
		t.Errorf("last trial's precision %+v, want the final, known state", last.Precision)
	}
	if measured < 2*stats.DefaultMinPairs {
		t.Errorf("%d measured trials: the rule stopped before %d pairs", measured, stats.DefaultMinPairs)
	}
	fs := findings(t, aaSrc, recs)
	if len(fs) != 1 {
		t.Fatalf("findings %+v, want one", fs)
	}
	return fs[0]
}

// TestSureEffect: one request in flight against five at an emulated 20 ms
// round trip must come out "slower", with an interval wholly below zero —
// proof that the verdict can say slower, and says it the right way round.
func TestSureEffect(t *testing.T) {
	testtier.Quiet(t)
	src, err := os.ReadFile("testdata/effect.yaml")
	if err != nil {
		t.Fatal(err)
	}
	effectSrc := string(src)
	recs, err := runYAML(t, effectSrc, true)
	if err != nil {
		t.Fatal(err)
	}
	fs := findings(t, effectSrc, recs)
	if len(fs) != 1 {
		t.Fatalf("findings %+v, want one", fs)
	}
	f := fs[0]
	if f.Kind != stats.KindSlower || !(f.Verdict.Hi < 0) || math.IsNaN(f.Verdict.Lo) {
		t.Errorf("1 in flight vs 5 at rtt 20 ms: %q [%g, %g]: %s", f.Kind, f.Verdict.Lo, f.Verdict.Hi, f.Sentence)
	}
	if !strings.Contains(f.Sentence, "is slower than") {
		t.Errorf("sentence %q", f.Sentence)
	}
	// Each trial ends with its window: 0.5 s measured after 0.2 s of
	// warm-up, where a full default buffer (10,000 records at 800
	// records/s with 1 in flight) would take 12 s to drain.
	if over := medianOverWindow(t, recs); over > 1.5 {
		t.Errorf("trials outlast warm-up + window by %.1f s (median), want ≤ 1.5 s", over)
	}
}

// medianOverWindow is the median time a trial took beyond its warm-up,
// measured window and audit, from one trial's start to the next one's
// (topic create and delete, driver start, and any drain after the window).
func medianOverWindow(t *testing.T, recs []results.Record) float64 {
	t.Helper()
	var over []float64
	for i := 1; i < len(recs); i++ {
		a, err1 := time.Parse(time.RFC3339Nano, recs[i-1].StartedAt)
		b, err2 := time.Parse(time.RFC3339Nano, recs[i].StartedAt)
		if err1 != nil || err2 != nil {
			t.Fatalf("started_at: %v %v", err1, err2)
		}
		warm := 0.0
		if tl := recs[i-1].Timeline; tl != nil {
			warm = tl.MeasuredFromMs / 1000
		}
		over = append(over, b.Sub(a).Seconds()-warm-recs[i-1].ElapsedS-recs[i-1].AuditS)
	}
	if len(over) == 0 {
		t.Fatal("fewer than two trials")
	}
	slices.Sort(over)
	return over[len(over)/2]
}
