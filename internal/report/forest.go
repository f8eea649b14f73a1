package report

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// The findings picture (a forest plot): every finding of a run as a row,
// its estimate and interval drawn against 0 and the equivalence band, on
// one axis of relative difference shared by all rows, grouped by metric.
// report.html draws it as SVG (forestSVG), the terminal as text
// (forestText); both draw the same forest, whose scale and clipping are
// decided here once (newForest).

// forestReach bounds the axis: an interval end further from 0 than
// forestReach times the reach of the band and the estimates is clipped at
// the axis (an arrow), so that one very wide interval does not squash
// every other row.
const forestReach = 3

// forestPad widens the band's reach a little, so that the band never ends
// at the edge of the axis.
const forestPad = 1.2

// The states of a row, as the picture tells them apart: decided (a
// difference or equivalence shown), open (cannot tell yet), untested.
const (
	forestDecided  = "decided"
	forestOpen     = "open"
	forestUntested = "untested"
)

// forestState is a verdict kind's row state: decided when the verdict
// answers its question (stats.Decides), open when inconclusive, else
// untested.
func forestState(kind string) string {
	switch {
	case stats.Decides(kind):
		return forestDecided
	case kind == stats.KindInconclusive:
		return forestOpen
	}
	return forestUntested
}

// forest is the findings picture's geometry: the axis and the rows, each
// value placed as a position on the axis (0 at Lo, 1 at Hi).
type forest struct {
	// Lo and Hi bound the axis, in relative difference (0.1 is +10 %);
	// Ticks are round values from Lo to Hi, 0 among them.
	Lo, Hi float64
	Ticks  []float64
	// Margin is the widest equivalence margin of the rows, for the legend.
	Margin float64
	// Clipped says that some interval runs past the axis.
	Clipped bool
	Groups  []forestGroup
	// Rows counts the rows of all groups: one per finding.
	Rows int
}

// forestGroup is the rows of one metric, in plan order.
type forestGroup struct {
	// Heading names the metric and its unit: "throughput (msg/s)".
	Heading string
	Rows    []forestRow
}

// forestRow is one finding.
type forestRow struct {
	// N is the finding's number in the Findings list (1-based).
	N int
	// Label is the comparison in words: "linger.ms 5 vs 0".
	Label string
	// Tip is the row's tooltip: its question and sentence.
	Tip string
	// State is forestDecided, forestOpen or forestUntested.
	State string
	// Verdict is the verdict column: "faster", "equivalent",
	// "open: about 14 more rounds", "not tested".
	Verdict string
	// Figure is the estimate and its interval, "+3.1 % [-1.2, +7.4]";
	// "" when the comparison did not run.
	Figure string
	// Est, From and To are the estimate and the interval's ends as axis
	// positions; NaN when absent. An interval end past the axis is at 0 or
	// 1, with ClipLo or ClipHi set.
	Est, From, To  float64
	ClipLo, ClipHi bool
	// BandLo and BandHi are the row's equivalence band as axis positions.
	BandLo, BandHi float64
}

// pos places relative difference v on f's axis.
func (f *forest) pos(v float64) float64 { return (v - f.Lo) / (f.Hi - f.Lo) }

// newForest lays out findings fs, labelled by labels (the comparison in
// words, one per finding), on one axis; margin is the plan's equivalence
// margin, used for a finding whose verdict names none. The axis holds 0,
// every row's band and estimate, and the interval ends within forestReach
// of them; it ends on round ticks.
func newForest(fs []Finding, labels []string, margin float64) forest {
	f := forest{}
	lo, hi := 0.0, 0.0
	for _, fd := range fs {
		m := rowMargin(fd, margin)
		f.Margin = math.Max(f.Margin, m)
		lo, hi = math.Min(lo, -forestPad*m), math.Max(hi, forestPad*m)
		if d := fd.Verdict.Diff; finite(d) {
			lo, hi = math.Min(lo, d), math.Max(hi, d)
		}
	}
	if len(fs) == 0 {
		f.Margin = rowMargin(Finding{}, margin)
		lo, hi = -forestPad*f.Margin, forestPad*f.Margin
	}
	reach := forestReach * math.Max(-lo, hi)
	for _, fd := range fs {
		if v := fd.Verdict.Lo; finite(v) {
			lo = math.Min(lo, math.Max(v, -reach))
		}
		if v := fd.Verdict.Hi; finite(v) {
			hi = math.Max(hi, math.Min(v, reach))
		}
	}
	f.Lo, f.Hi, f.Ticks = roundAxis(lo, hi)
	f.group(fs, labels, margin)
	return f
}

// group places each finding as a row in the group of its metric; groups
// come in the order their metrics first appear.
func (f *forest) group(fs []Finding, labels []string, margin float64) {
	at := map[string]int{}
	for i, fd := range fs {
		m := metricByKey(fd.Metric)
		gi, ok := at[m.Key]
		if !ok {
			gi = len(f.Groups)
			at[m.Key] = gi
			f.Groups = append(f.Groups, forestGroup{Heading: m.Name + " (" + m.Unit + ")"})
		}
		r := f.row(i+1, fd, labels[i], rowMargin(fd, margin))
		f.Clipped = f.Clipped || r.ClipLo || r.ClipHi
		f.Groups[gi].Rows = append(f.Groups[gi].Rows, r)
		f.Rows++
	}
}

// row places finding fd, number n, on the axis.
func (f *forest) row(n int, fd Finding, label string, margin float64) forestRow {
	v := fd.Verdict
	state := forestState(fd.Kind)
	r := forestRow{N: n, Label: label, State: state, Verdict: verdictWord(fd, state),
		Tip: fmt.Sprintf("%d. %s: %s", n, orQuestion(fd), fd.Sentence),
		Est: math.NaN(), From: math.NaN(), To: math.NaN(),
		BandLo: f.pos(-margin), BandHi: f.pos(margin)}
	if state == forestUntested {
		return r
	}
	if finite(v.Diff) {
		r.Est = clamp01(f.pos(v.Diff))
		r.Figure = signedPercent(v.Diff)
	}
	if finite(v.Lo) && finite(v.Hi) {
		r.From, r.To = f.pos(v.Lo), f.pos(v.Hi)
		r.ClipLo, r.ClipHi = r.From < 0, r.To > 1
		r.From, r.To = clamp01(r.From), clamp01(r.To)
		r.Figure = strings.TrimSpace(r.Figure + " [" + signedPercentNum(v.Lo) + ", " + signedPercentNum(v.Hi) + "]")
	}
	return r
}

// rowMargin is finding fd's equivalence margin: its verdict's, or the
// plan's when the verdict names none, or stats' default when neither is
// a margin (between 0 and 1: a damaged plan.json may say -1).
func rowMargin(fd Finding, plan float64) float64 {
	for _, m := range []float64{fd.Verdict.Margin, plan} {
		if m > 0 && m < 1 {
			return m
		}
	}
	return stats.DefaultMargin
}

// moreRE finds the rounds estimate in an inconclusive verdict's text
// ("about 14 more rounds would decide it"), which stats words.
var moreRE = regexp.MustCompile(`about \d+ more [a-z ]+? would decide it`)

// verdictWord is the verdict column of a row: the kind when decided; for
// an open row "open" with what would decide it when the verdict says
// ("open: about 14 more rounds", "open: not enough rounds"); "not tested".
func verdictWord(fd Finding, state string) string {
	switch state {
	case forestDecided:
		return fd.Kind
	case forestOpen:
		if m := moreRE.FindString(fd.Verdict.Text); m != "" {
			return "open: " + strings.TrimSuffix(m, " would decide it")
		}
		if strings.HasPrefix(fd.Verdict.Text, "not enough rounds") {
			return "open: not enough rounds"
		}
		return "open"
	}
	return stats.KindNotTested
}

// roundAxis widens lo..hi (lo ≤ 0 ≤ hi) to round ticks, about six of
// them, 1, 2, 2.5 or 5 × 10^k apart, and returns the new ends and the
// ticks. The axis never reaches below −100 %, which no relative
// difference can: there it ends at −100 %, a tick of its own.
func roundAxis(lo, hi float64) (float64, float64, []float64) {
	if !(hi > lo) {
		lo, hi = -0.05, 0.05
	}
	raw := (hi - lo) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	first, last := math.Floor(lo/step+1e-9), math.Ceil(hi/step-1e-9)
	var ticks []float64
	for k := first; k <= last; k++ {
		if v := clean(k * step); v >= -1 {
			ticks = append(ticks, v)
		}
	}
	if clean(first*step) < -1 {
		ticks = append([]float64{-1}, ticks...)
	}
	return ticks[0], ticks[len(ticks)-1], ticks
}

// clean rounds away the binary noise of a multiple of a decimal step
// (-0.6000000000000001).
func clean(v float64) float64 { return math.Round(v*1e12) / 1e12 }

// tickLabel renders an axis value as a signed percentage with as few
// decimals as the ticks need: "-20 %", "0", "+2.5 %".
func tickLabel(v float64) string {
	p := math.Round(v*1e5) / 1e3
	if p == 0 {
		return "0"
	}
	s := strconv.FormatFloat(p, 'f', -1, 64) + " %"
	if p > 0 {
		s = "+" + s
	}
	return s
}

// signedPercent renders a relative difference as "+3.1 %".
func signedPercent(v float64) string { return signedPercentNum(v) + " %" }

// signedPercentNum renders a relative difference as "+3.1", in percent.
func signedPercentNum(v float64) string { return fmt.Sprintf("%+.1f", v*100) }

// finite reports whether v is a number (not NaN nor infinite).
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// clamp01 bounds an axis position to the axis.
func clamp01(p float64) float64 { return math.Max(0, math.Min(1, p)) }

// comparisonLabel words a comparison as the picture labels its row: the
// matrix values in which candidate b differs from baseline a, "linger.ms
// 5 vs 0", "acks all vs 1, linger.ms 5 vs 0"; their full labels when they
// differ in none or either is missing (IDs from the plan).
func comparisonLabel(fd Finding, a, b *scenario) string {
	if a == nil || b == nil {
		return fd.Candidate + " vs " + fd.Baseline
	}
	keys, ok := differingKeys(a, b)
	if !ok {
		return b.Label + " vs " + a.Label
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " " + formatValue(b.Values[k]) + " vs " + formatValue(a.Values[k])
	}
	return strings.Join(parts, ", ")
}

// forest lays out v's findings (newForest), each labelled by
// comparisonLabel.
func (v *view) forest() forest {
	byID := map[string]*scenario{}
	for i := range v.scs {
		byID[v.scs[i].ID] = &v.scs[i]
	}
	side := func(id string) *scenario {
		if s, ok := byID[id]; ok {
			return s
		}
		return idScenario(id)
	}
	labels := make([]string, len(v.findings))
	for i, f := range v.findings {
		labels[i] = comparisonLabel(f, side(f.Baseline), side(f.Candidate))
	}
	return newForest(v.findings, labels, marginOr(v.plan.Margin))
}

// forestCells is the width of the terminal picture's strip, in
// characters.
const forestCells = 41

// forestLabelMax bounds a row's label in the terminal; a longer one is
// shortened with "…" (the numbered Findings above name it in full).
const forestLabelMax = 44

// The characters of a terminal strip.
const (
	cellZero    = '|'
	cellBand    = ':'
	cellSpan    = '-'
	cellDecided = '●'
	cellOpen    = '○'
	cellClipLo  = '<'
	cellClipHi  = '>'
)

// forestText writes f as text, one line per finding under its metric's
// heading, after a key and the axis's ends:
//
//	At a glance (each candidate against its baseline: | is 0, : the ±5 % equivalence band, ● decided, ○ open):
//	                                 -45 %                   0  +10 %
//	  throughput (msg/s)
//	   1. enable.idempotence false vs true  [                    :|:   ]  +0.0 % [-0.2, +0.2]    equivalent
//	   2. max.in.flight… 1 vs 5             [ ●-                 : | : ]  -40.0 % [-40.4, -39.5]  slower
func forestText(b *strings.Builder, f forest) {
	key := fmt.Sprintf("| is 0, %c the ±%s %% equivalence band, %c decided, %c open", cellBand, trimFloat(f.Margin*100), cellDecided, cellOpen)
	if f.Clipped {
		key += fmt.Sprintf(", %c %c an interval past the axis", cellClipLo, cellClipHi)
	}
	b.WriteString("\nAt a glance (each candidate against its baseline: " + key + "):\n")
	labelW, numW, figW := 0, 0, 0
	for _, g := range f.Groups {
		for _, r := range g.Rows {
			labelW = max(labelW, runeLen(shorten(r.Label, forestLabelMax)))
			numW = max(numW, len(strconv.Itoa(r.N))+1)
			figW = max(figW, runeLen(r.Figure))
		}
	}
	indent := 2 + numW + 1 + labelW + 1 // where "[" stands
	b.WriteString(strings.Repeat(" ", indent+1) + f.axisText() + "\n")
	for _, g := range f.Groups {
		b.WriteString("  " + g.Heading + "\n")
		for _, r := range g.Rows {
			line := fmt.Sprintf("  %*s %s [%s]  %s  %s", numW, strconv.Itoa(r.N)+".", padRight(shorten(r.Label, forestLabelMax), labelW),
				f.strip(r), padRight(r.Figure, figW), r.Verdict)
			b.WriteString(strings.TrimRight(line, " ") + "\n")
		}
	}
}

// strip draws row r across forestCells characters: the band's edges, 0,
// the interval, its clipped ends and the estimate, each over the last.
func (f *forest) strip(r forestRow) string {
	cells := []rune(strings.Repeat(" ", forestCells))
	at := func(p float64) int { return int(math.Round(p * (forestCells - 1))) }
	set := func(p float64, c rune) {
		if finite(p) && p >= 0 && p <= 1 {
			cells[at(p)] = c
		}
	}
	if finite(r.From) && finite(r.To) {
		for i := at(r.From); i <= at(r.To); i++ {
			cells[i] = cellSpan
		}
	}
	set(r.BandLo, cellBand)
	set(r.BandHi, cellBand)
	set(f.pos(0), cellZero)
	if r.ClipLo {
		cells[0] = cellClipLo
	}
	if r.ClipHi {
		cells[forestCells-1] = cellClipHi
	}
	if r.State == forestDecided {
		set(r.Est, cellDecided)
	} else {
		set(r.Est, cellOpen)
	}
	return string(cells)
}

// axisText labels the strip's ends and 0, each under its place: the
// first character under the strip's first cell.
func (f *forest) axisText() string {
	lo, hi, zero := tickLabel(f.Lo), tickLabel(f.Hi), "0"
	line := []rune(strings.Repeat(" ", forestCells))
	copy(line, []rune(lo))
	copy(line[forestCells-runeLen(hi):], []rune(hi))
	z := int(math.Round(f.pos(0) * (forestCells - 1)))
	if z > runeLen(lo) && z < forestCells-runeLen(hi)-1 {
		line[z] = []rune(zero)[0]
	}
	return strings.TrimRight(string(line), " ")
}

// runeLen counts the characters of s.
func runeLen(s string) int { return len([]rune(s)) }

// padRight pads s with spaces to w characters.
func padRight(s string, w int) string { return s + strings.Repeat(" ", max(w-runeLen(s), 0)) }

// shorten cuts s to at most n characters, the last "…".
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// idScenario reads a plan's scenario ID ("k=v,k=v") as a scenario of
// those matrix values, to name a comparison whose side never ran; nil
// when the ID does not read so.
func idScenario(id string) *scenario {
	st := &summary.ScenarioStats{ID: id, Values: map[string]any{}}
	for _, kv := range strings.Split(id, ",") {
		k, val, ok := strings.Cut(kv, "=")
		if _, dup := st.Values[k]; !ok || k == "" || dup {
			return nil
		}
		st.Keys = append(st.Keys, k)
		st.Values[k] = val
	}
	return &scenario{ScenarioStats: st, Label: id}
}
