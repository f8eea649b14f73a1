package report

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/golden"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// verdictOf is a finding on metric of kind with difference diff and
// interval [lo, hi] (NaN: none), its verdict's text text.
func verdictOf(metric, kind string, diff, lo, hi float64, text string) Finding {
	return Finding{Metric: metric, Kind: kind, Question: "Q " + kind + "?", Sentence: "S " + kind,
		Verdict: stats.Verdict{Kind: kind, Diff: diff, Lo: lo, Hi: hi, Margin: 0.05, Text: text}}
}

var nan = math.NaN()

func TestNewForest(t *testing.T) {
	tests := []struct {
		name           string
		fs             []Finding
		lo, hi         float64
		ticks          int
		clipped        bool
		from, to, est  float64 // the first row's positions
		clipLo, clipHi bool
	}{
		// Only the band to show: ±6 %, the band padded, in steps of 2 %.
		{"untested only", []Finding{verdictOf("", stats.KindNotTested, nan, nan, nan, "not tested: x")},
			-0.06, 0.06, 7, false, nan, nan, nan, false, false},
		// An interval far wider than the band and the estimate is clipped
		// at three times their reach (±18 %), rounded out to ±20 %.
		{"wide interval clipped", []Finding{verdictOf("", stats.KindInconclusive, 0.02, -0.30, 0.34, "inconclusive")},
			-0.2, 0.2, 5, true, 0, 1, 0.55, true, true},
		// A clear slowdown sets the scale: every end fits, none clipped.
		{"slowdown fits", []Finding{verdictOf("", stats.KindSlower, -0.4, -0.45, -0.35, "slower")},
			-0.5, 0.1, 7, false, 0.5 / 6, 1.5 / 6, 1.0 / 6, false, false},
		// The estimate always fits, however wide another interval is
		// (+950 %, clipped at 3 × 250 %, rounded out to +800 %); the axis
		// stops at -100 %, below which no difference can lie.
		{"large estimate", []Finding{
			verdictOf("", stats.KindFaster, 2.5, 2.0, 3.1, "faster"),
			verdictOf("", stats.KindInconclusive, 0, -0.9, 9.5, "inconclusive")},
			-1, 8, 6, true, 3.0 / 9, 4.1 / 9, 3.5 / 9, false, false},
	}
	// A margin that is none (a damaged plan.json's -1) draws the default
	// band, never a band of negative width.
	{
		fd := verdictOf("", stats.KindNotTested, nan, nan, nan, "not tested: x")
		fd.Verdict.Margin = 0
		r := newForest([]Finding{fd}, []string{""}, -1).Groups[0].Rows[0]
		if !(r.BandLo < r.BandHi) {
			t.Errorf("band of margin -1 at %v..%v, want the default ±5 %%", r.BandLo, r.BandHi)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newForest(tt.fs, make([]string, len(tt.fs)), 0.05)
			near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 || math.IsNaN(a) && math.IsNaN(b) }
			if !near(f.Lo, tt.lo) || !near(f.Hi, tt.hi) || len(f.Ticks) != tt.ticks || f.Clipped != tt.clipped {
				t.Errorf("axis %v..%v, %d ticks %v, clipped %v; want %v..%v, %d ticks, clipped %v",
					f.Lo, f.Hi, len(f.Ticks), f.Ticks, f.Clipped, tt.lo, tt.hi, tt.ticks, tt.clipped)
			}
			r := f.Groups[0].Rows[0]
			if !near(r.From, tt.from) || !near(r.To, tt.to) || !near(r.Est, tt.est) || r.ClipLo != tt.clipLo || r.ClipHi != tt.clipHi {
				t.Errorf("row at %v..%v, estimate %v, clipped %v %v; want %v..%v, %v, %v %v",
					r.From, r.To, r.Est, r.ClipLo, r.ClipHi, tt.from, tt.to, tt.est, tt.clipLo, tt.clipHi)
			}
			if f.Rows != len(tt.fs) {
				t.Errorf("%d rows, want one per finding (%d)", f.Rows, len(tt.fs))
			}
		})
	}
}

// mixedFindings are every state on three metrics, one interval clipped.
func mixedFindings() ([]Finding, []string) {
	fs := []Finding{
		verdictOf("throughput", stats.KindEquivalent, 0.004, -0.016, 0.024, "equivalent within ±5 %: …"),
		verdictOf("throughput", stats.KindInconclusive, 0.031, -0.75, 1.10,
			"inconclusive: [-75.0 %, +110.0 %] is wider than ±5 %; about 444 more rounds would decide it (paired, 95 %)"),
		verdictOf("p99", stats.KindHigher, 0.12, 0.08, 0.16, "higher by 12.0 %"),
		verdictOf("disk", stats.KindLower, -0.22, -0.24, -0.20, "lower by 22.0 %"),
		verdictOf("throughput", stats.KindSlower, -0.061, -0.09, -0.03, "slower by 6.1 %"),
		verdictOf("disk", stats.KindInconclusive, -0.01, -0.1, 0.06, "not enough rounds: 3 of the 8 the rule needs; [-10.0 %, +6.0 %] (paired, 95 %)"),
		verdictOf("p99", stats.KindNotTested, nan, nan, nan, "not tested: the candidate has no successful trials"),
	}
	labels := []string{"linger.ms 5 vs 0", "compression.type zstd vs none", "acks all vs 1",
		"compression.type lz4 vs none, linger.ms 50 vs 0, batch.size 1048576 vs 16384", "max.in.flight 1 vs 5",
		"batch.size 65536 vs 16384", "record.size 1024 vs 100"}
	return fs, labels
}

// TestForestGolden: the terminal's strips and report.html's SVG of one
// forest, every state and metric, an interval clipped.
func TestForestGolden(t *testing.T) {
	fs, labels := mixedFindings()
	f := newForest(fs, labels, 0.05)
	var b strings.Builder
	forestText(&b, f)
	golden.Check(t, "forest-text.golden", []byte(b.String()))
	svg := forestSVG(f)
	golden.Check(t, "forest-svg.golden", []byte(svg))
	// One row per finding, each with its tooltip; decided and open told
	// apart by the marker's fill and the line's dashes, not colour alone.
	rows := regexp.MustCompile(`<g class="forest-row (\w+)">\n<title>`).FindAllStringSubmatch(svg, -1)
	if len(rows) != len(fs) {
		t.Fatalf("%d rows with a title, want %d", len(rows), len(fs))
	}
	if n := strings.Count(svg, `fill="#fff"`); n != 3 { // two open rows and the legend's ring
		t.Errorf("%d hollow markers, want 3", n)
	}
	// +110 % runs past the axis (+75 %); -75 % ends on it.
	if n := strings.Count(svg, `<polygon class="forest-clip"`); n != 2 { // one row's upper end, the legend
		t.Errorf("%d clip arrows, want 2", n)
	}
}

// TestForestText: the strips' marks fall where the axis puts them.
func TestForestText(t *testing.T) {
	fs := []Finding{
		verdictOf("", stats.KindSlower, -0.4, -0.45, -0.35, "slower"),
		verdictOf("", stats.KindInconclusive, 0.02, -0.30, 0.34, "inconclusive"),
	}
	f := newForest(fs, []string{"a", "b"}, 0.05)
	tests := []struct {
		row  int
		want string
	}{
		// -60 %..+40 %: 2.5 % a cell; -45..-35 % at cells 6..10, the
		// estimate at 8, the band's edges at 22 and 26, 0 at 24.
		{0, "      --●--           : | :              "},
		// The estimate (+2 %, cell 25) is open; the interval runs from
		// -30 % to +34 % (cells 12..38), the band and 0 drawn over it.
		{1, "            ----------:-|○:------------  "},
	}
	for _, tt := range tests {
		if got := f.strip(f.Groups[0].Rows[tt.row]); got != tt.want {
			t.Errorf("row %d strip\n%q, want\n%q (axis %v..%v)", tt.row, got, tt.want, f.Lo, f.Hi)
		}
	}
}

// forestPlan asks questions on three metrics of idempotenceRun: decided,
// open and untested rows for the browser test.
var forestPlan = results.Plan{Level: 0.95, Margin: 0.05, Precision: 0.02, Comparisons: []results.PlannedComparison{
	idempotencePlan.Comparisons[0], idempotencePlan.Comparisons[1], idempotencePlan.Comparisons[2],
	{Question: "What does one request in flight cost in p99?", Baseline: idempotencePlan.Comparisons[1].Baseline,
		Candidate: idempotencePlan.Comparisons[1].Candidate, Metric: "p99"},
	{Question: "Does idempotence cost disk?", Baseline: idempotencePlan.Comparisons[0].Baseline,
		Candidate: idempotencePlan.Comparisons[0].Candidate, Metric: "disk"},
	idempotencePlan.Comparisons[3],
}}
