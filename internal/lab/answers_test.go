package lab

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/testtier"
)

// findings judges a run's planned comparisons as the report does.
func findings(t *testing.T, src string, recs []results.Record) []report.Finding {
	t.Helper()
	exp, err := expfile.Parse("x.yaml", []byte(src), nil)
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
budget: 150s
matrix:
  arm:
    - {label: a, linger.ms: 5}
    - {label: b, linger.ms: 5}
compare:
  - {axis: arm}
`

// TestAARun: the same settings under two labels, on a real broker, with
// rounds until precise. It asserts what the lab promises of any such run,
// not which verdict the machine's noise draws: the stopping rule ran its
// minimum of pairs, every measured record carries the rule's state, a
// timeline and CPU, and the one finding is an answer whose kind agrees
// with its own interval and margin.
//
// Whether an A/A pair comes out "equivalent" is a figure the machine
// decides (a calibrated lab still says faster or slower in up to 5 % of
// runs, and a loaded one says inconclusive more often): the stopping
// rule's coverage is TestStopRuleCoverage's (simulated rounds) and
// bench/aa-coverage.sh's (real runs, bench/RESULTS.md), never a re-drawn
// test.
func TestAARun(t *testing.T) {
	testtier.Quiet(t)
	f := aaRun(t)
	t.Logf("A/A finding: %s", f.Sentence)
	checkFindingAgrees(t, f)
}

// checkFindingAgrees fails t when a finding's kind contradicts its own
// interval: faster needs the interval above zero, slower below it,
// equivalent an estimate within the margin (the two one-sided tests judge
// a narrower interval than the one reported), inconclusive an interval
// that holds zero.
func checkFindingAgrees(t *testing.T, f report.Finding) {
	t.Helper()
	v := f.Verdict
	if math.IsNaN(v.Lo) || math.IsNaN(v.Hi) || v.Lo > v.Diff || v.Diff > v.Hi {
		t.Fatalf("finding %q: interval [%g, %g] around %g is not an interval: %s", f.Kind, v.Lo, v.Hi, v.Diff, f.Sentence)
	}
	var agrees bool
	switch f.Kind {
	case stats.KindFaster:
		agrees = v.Lo > 0 && strings.Contains(f.Sentence, "is faster than")
	case stats.KindSlower:
		agrees = v.Hi < 0 && strings.Contains(f.Sentence, "is slower than")
	case stats.KindEquivalent:
		agrees = v.Margin > 0 && math.Abs(v.Diff) < v.Margin
	case stats.KindInconclusive:
		agrees = v.Lo <= 0 && v.Hi >= 0
	}
	if !agrees {
		t.Errorf("finding %q disagrees with its interval [%+.3f, %+.3f] at margin ±%.3f: %s", f.Kind, v.Lo, v.Hi, v.Margin, f.Sentence)
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
	checkFindingAgrees(t, f)
	// Each trial ends with its window: 0.5 s measured after 0.2 s of
	// warm-up, where a full default buffer (10,000 records at 800
	// records/s with 1 in flight) would take 12 s to drain. What else
	// lies between two trials (a topic made and deleted, a driver
	// started) took under 1 s quiet and grows with the machine's load,
	// so the bound is half the drain: 6 s.
	if over := medianOverWindow(t, recs); over > 6 {
		t.Errorf("trials outlast warm-up + window by %.1f s (median), want ≤ 6 s (a drain is 12 s)", over)
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
