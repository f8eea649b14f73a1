package stats

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Kinds of verdict: Verdict.Kind. A comparison ends in exactly one of them,
// so that a reader never has to tell noise from a finding: "no significant
// difference" is not among them, since absence of evidence is not evidence
// of absence.
const (
	// KindFaster and KindSlower: B is above or below A on a HigherIsBetter
	// metric (throughput), the interval of the difference excluding 0.
	KindFaster = "faster"
	KindSlower = "slower"
	// KindLower and KindHigher replace them for LowerIsBetter metrics
	// (latency, bytes on disk).
	KindLower  = "lower"
	KindHigher = "higher"
	// KindEquivalent: two one-sided tests show the difference is within
	// ±Margin.
	KindEquivalent = "equivalent"
	// KindInconclusive: neither a difference nor equivalence is shown; the
	// interval is too wide, and Verdict.MoreRounds estimates how many more
	// rounds would decide.
	KindInconclusive = "inconclusive"
	// KindNotTested: too few trials (or values a test cannot take); the
	// verdict's text says why.
	KindNotTested = "not tested"
)

// Decides reports whether a verdict of kind answers its question: a
// difference either way or equivalence; inconclusive and not tested leave
// it open.
func Decides(kind string) bool {
	switch kind {
	case KindFaster, KindSlower, KindLower, KindHigher, KindEquivalent:
		return true
	}
	return false
}

// DefaultMargin is the equivalence margin of Options: two setups whose
// means are shown to be within ±5 % of each other are "equivalent". It
// matches DefaultPrecision, the half-width the lab's rounds aim for, so a
// difference well inside the margin can be shown equivalent once the
// interval is as narrow as the stopping rule makes it.
const DefaultMargin = 0.05

// Options configure Compare and ComparePaired. The zero value is valid:
// zero fields take their defaults.
type Options struct {
	// Level is the two-sided confidence level of the interval of the
	// difference (DefaultConfidence when 0). A difference is shown when that
	// interval excludes 0; equivalence uses two one-sided tests at
	// α = 1−Level each, that is the (1−2α) interval (90 % at 95 %).
	Level float64
	// Margin is the equivalence margin, relative to A: 0.05 means a B
	// within ±5 % of A is equivalent (DefaultMargin when 0). It must be
	// below 1.
	Margin float64
	// Dir is the direction in which the metric improves, for the wording.
	Dir Direction
	// Resolution is the relative resolution of one sample: the smallest
	// relative change the measurement can show, e.g. one record's worth of
	// a count of acknowledged records (DefaultResolution when 0). No
	// interval is narrower than it (see evidence.floored): zero observed
	// spread is not certainty.
	Resolution float64
	// MinPairs is the stopping rule's minimum of pairs (StopRule.MinPairs;
	// 0: no minimum). A verdict resting on fewer pairs (fewer trials on a
	// side, for Welch's test) says so: it becomes inconclusive, "not
	// enough rounds: 4 of the 8 the rule needs; [lo, hi]", unless
	// FixedRounds, when the verdict stands and its text adds "fewer than 8
	// pairs".
	MinPairs int
	// FixedRounds says the number of rounds was the user's choice (trials:
	// N, or a compare of finished runs), not the stopping rule's.
	FixedRounds bool
}

// DefaultResolution is the resolution of a sample whose own is unknown:
// 0.1 %, coarser than the quantum of any count prodlab measures in a
// useful window, so it only matters when the observed spread is nil.
const DefaultResolution = 0.001

// withDefaults fills zero fields with their defaults.
func (o Options) withDefaults() Options {
	if o.Level == 0 {
		o.Level = DefaultConfidence
	}
	if o.Margin == 0 {
		o.Margin = DefaultMargin
	}
	if o.Resolution == 0 {
		o.Resolution = DefaultResolution
	}
	return o
}

// invalid says what is wrong with o (after withDefaults), or "".
func (o Options) invalid() string {
	switch {
	case !(o.Level > 0 && o.Level < 1):
		return fmt.Sprintf("not tested: confidence level %g is outside the open interval (0, 1)", o.Level)
	case !(o.Margin > 0 && o.Margin < 1):
		return fmt.Sprintf("not tested: equivalence margin %g is outside the open interval (0, 1)", o.Margin)
	case !(o.Resolution > 0 && o.Resolution < 1):
		// From the data, not a flag: a trial whose count moves by 100 %
		// with one produce response (one record acknowledged, or one
		// request) cannot tell any difference.
		return fmt.Sprintf("not tested: a trial acknowledged too few records to compare (its count resolves only ±%g %%; a comparison needs a resolution finer than ±100 %%)", o.Resolution*100)
	}
	return ""
}

// outcome is the result of the decision rule, before it is worded for a
// direction.
type outcome int

const (
	inconclusive outcome = iota
	equivalent
	above // B above A: the interval lies above 0
	below // B below A
)

// evidence is what a two-sample or paired test knows about the difference
// of B from A, on the test's own scale: the relative difference (B−A)/A for
// Welch's test, the mean log ratio ln(B/A) for the paired one.
type evidence struct {
	est    float64 // point estimate
	se, df float64 // its standard error (0: no spread) and degrees of freedom
	lo, hi float64 // equivalence bounds on the same scale, lo < 0 < hi
	// seAt returns se and df after k more rounds (pairs, or trials on each
	// side), assuming the spread stays what it is; nil when that cannot be
	// estimated.
	seAt func(k int) (se, df float64)
}

// floored returns e with its standard error raised, now and after more
// rounds, so that the two-sided interval at level is at least ±floor wide
// on the test's scale: t(1−α/2, df)·se ≥ floor. floor is the samples'
// resolution on that scale. Raising se, rather than widening the interval
// afterwards, keeps T, P and the equivalence test consistent with the
// interval, so zero observed spread never gives p = 0 or a zero-width
// interval.
func (e evidence) floored(floor, level float64) evidence {
	lift := func(se, df float64) float64 {
		return math.Max(se, floor/TQuantile(1-(1-level)/2, df))
	}
	e.se = lift(e.se, e.df)
	if at := e.seAt; at != nil {
		e.seAt = func(k int) (float64, float64) {
			se, df := at(k)
			return lift(se, df), df
		}
	}
	return e
}

// decision is the outcome of evidence.decide.
type decision struct {
	out outcome
	// equivP is the p-value of the two one-sided tests: the larger of the
	// two one-sided p's.
	equivP float64
	// ciLo and ciHi bound the estimate's two-sided interval at the level.
	ciLo, ciHi float64
	// more is the estimated number of further rounds that would decide an
	// inconclusive outcome, -1 when it cannot be estimated; 0 otherwise.
	more int
}

// decide applies prodlab's four-outcome rule, the one rule behind every
// verdict, in this order:
//
//  1. equivalent, when two one-sided tests at α = 1−level both reject
//     "the difference is beyond a bound": (est−lo)/se and (hi−est)/se both
//     exceed t(1−α, df). Equivalently the (1−2α) interval lies inside
//     (lo, hi). Tried first, so a tiny difference that is significant but
//     well within the margin is reported as what matters: equivalent.
//  2. above or below, when the two-sided interval at level excludes 0
//     (for a t statistic this is exactly p < 1−level).
//  3. inconclusive otherwise, with an estimate of the rounds that would
//     decide it (moreRounds).
func (e evidence) decide(level float64) decision {
	alpha := 1 - level
	d := decision{equivP: math.Max(pAbove(e.est-e.lo, e.se, e.df), pAbove(e.hi-e.est, e.se, e.df))}
	d.ciLo, d.ciHi = e.est, e.est
	if e.se > 0 {
		q := TQuantile(1-alpha/2, e.df)
		d.ciLo, d.ciHi = e.est-q*e.se, e.est+q*e.se
	}
	switch {
	case d.equivP < alpha:
		d.out = equivalent
	case d.ciLo > 0:
		d.out = above
	case d.ciHi < 0:
		d.out = below
	default:
		d.out = inconclusive
		d.more = e.moreRounds(level)
	}
	return d
}

// pAbove is the one-sided p-value of a distance x of the estimate beyond a
// bound, P(T ≥ x/se) with df degrees of freedom; with no spread (se 0) it
// is 0 when x > 0 and 1 otherwise.
func pAbove(x, se, df float64) float64 {
	if se == 0 {
		if x > 0 {
			return 0
		}
		return 1
	}
	return tCDF(-x/se, df)
}

// maxMoreRounds bounds the search of moreRounds: beyond a million rounds
// the answer is "cannot be estimated", which is what it is in practice.
const maxMoreRounds = 1 << 20

// moreRounds estimates how many more rounds (pairs, or trials per side)
// would decide an inconclusive comparison if the spread stayed what it is
// now: the fewest that make either
//
//   - the two-sided interval's half-width t(1−α/2)·se fall below |est|, so
//     that it would exclude 0, or
//   - when the estimate lies within the bounds, the (1−2α) interval's
//     half-width t(1−α)·se fall below the distance to the nearer bound, so
//     that it would lie inside them,
//
// with t at the degrees of freedom of the larger sample (not z, which
// underestimates at few rounds). It is -1 when it cannot be estimated: no
// spread, no way to extrapolate, or more than maxMoreRounds needed. The
// estimate assumes the point estimate stays put; it is a planning figure,
// not a promise.
func (e evidence) moreRounds(level float64) int {
	if e.seAt == nil || !(e.se > 0) {
		return -1
	}
	alpha := 1 - level
	best := -1
	try := func(target, p float64) {
		if !(target > 0) {
			return
		}
		if k := e.roundsUntil(target, p); k > 0 && (best < 0 || k < best) {
			best = k
		}
	}
	try(math.Abs(e.est), 1-alpha/2)
	if e.lo < e.est && e.est < e.hi {
		try(math.Min(e.hi-e.est, e.est-e.lo), 1-alpha)
	}
	return best
}

// roundsUntil returns the fewest k ≥ 1 more rounds after which the
// half-width t(p, df)·se falls below target, or -1 beyond maxMoreRounds.
// The half-width shrinks as rounds are added, so a doubling search then a
// bisection finds it.
func (e evidence) roundsUntil(target, p float64) int {
	ok := func(k int) bool {
		se, df := e.seAt(k)
		return planningT(p, df)*se < target
	}
	hi := 1
	for !ok(hi) {
		if hi >= maxMoreRounds {
			return -1
		}
		hi *= 2
	}
	lo := hi / 2 // ok(lo) is false, or lo is 0
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// planningT is TQuantile at df rounded down to a whole number and capped
// at maxCachedDF, so that the rounds estimate reuses cached quantiles: at
// most a hair larger than the exact quantile (by 0.03 % at the cap), which
// errs towards a round too many.
func planningT(p, df float64) float64 {
	return TQuantile(p, math.Max(1, math.Min(math.Floor(df), maxCachedDF)))
}

// word is the verdict word for outcome out (above or below) of a metric
// improving in direction dir.
func word(out outcome, dir Direction) string {
	switch {
	case dir == LowerIsBetter && out == above:
		return KindHigher
	case dir == LowerIsBetter:
		return KindLower
	case out == above:
		return KindFaster
	default:
		return KindSlower
	}
}

// settle writes decision d into v: the kind, the interval of the relative
// difference (mapped back from the test's scale by toRel), the equivalence
// p-value, the rounds estimate and the text. test names the test in the
// text ("paired", "Welch") and unit what a round adds ("round", "trial per
// side").
func (v *Verdict) settle(d decision, o Options, toRel func(float64) float64, test, unit string) {
	v.Lo, v.Hi = toRel(d.ciLo), toRel(d.ciHi)
	v.EquivP = d.equivP
	tail := fmt.Sprintf(" (%s, %s)", test, Percent(o.Level))
	interval := "[" + signedPct(v.Lo) + ", " + signedPct(v.Hi) + "]"
	switch d.out {
	case equivalent:
		v.Kind = KindEquivalent
		v.Text = fmt.Sprintf("equivalent within %s: %s %s", marginText(o.Margin), signedPct(v.Diff), interval) + tail
	case above, below:
		v.Kind = word(d.out, o.Dir)
		v.Text = fmt.Sprintf("%s by %.1f %% %s", v.Kind, math.Abs(v.Diff)*100, interval) + tail
	default:
		v.Kind = KindInconclusive
		v.MoreRounds = d.more
		more := "more " + plural(unit) + " are needed"
		if d.more > 0 {
			u := unit
			if d.more > 1 {
				u = plural(unit)
			}
			more = fmt.Sprintf("about %d more %s would decide it", d.more, u)
		}
		v.Text = fmt.Sprintf("inconclusive: %s is wider than %s; %s", interval, marginText(o.Margin), more) + tail
	}
}

// markShort marks a verdict that rests on fewer pairs (trials on a side,
// for Welch's test) than o.MinPairs, the stopping rule's minimum: the
// spread of so few is too uncertain for the rule to stop on. When the
// rule chose the rounds, the verdict becomes inconclusive and keeps its
// interval, "not enough rounds: 4 of the 8 the rule needs; [lo, hi]
// (paired, 95 %)"; when the user fixed them (o.FixedRounds) it stands and
// its parenthesis adds "fewer than 8 pairs". Untested verdicts are left
// alone.
func (v *Verdict) markShort(o Options) {
	if o.MinPairs <= 0 || v.trials >= o.MinPairs || v.Kind == KindNotTested {
		return
	}
	tail := ""
	if i := strings.LastIndex(v.Text, " ("); i >= 0 {
		tail = v.Text[i:]
	}
	if o.FixedRounds {
		unit := "pairs"
		switch v.Test {
		case WelchTest:
			unit = "trials per side"
		case CapacityTest:
			unit = "probes per side"
		}
		v.Text = fmt.Sprintf("%s, fewer than %d %s)", strings.TrimSuffix(v.Text, ")"), o.MinPairs, unit)
		return
	}
	v.Kind = KindInconclusive
	if v.Test == LivesTest {
		// MoreRounds counts lives there, and one more brings pairs.
		v.MoreRounds = max(v.MoreRounds, 1)
	} else {
		v.MoreRounds = max(v.MoreRounds, o.MinPairs-v.trials)
	}
	v.Text = fmt.Sprintf("not enough rounds: %d of the %d the rule needs; [%s, %s]%s",
		v.trials, o.MinPairs, signedPct(v.Lo), signedPct(v.Hi), tail)
}

// plural returns the plural of a round unit: "round" → "rounds",
// "trial per side" → "trials per side", "life" → "lives".
func plural(unit string) string {
	if unit == "life" {
		return "lives"
	}
	if u, ok := strings.CutSuffix(unit, " per side"); ok {
		return u + "s per side"
	}
	return unit + "s"
}

// signedPct renders a relative figure as a signed percentage with one
// decimal, "+12.3 %" or "-1.2 %", with an ASCII minus and no "-0.0".
func signedPct(x float64) string {
	s := fmt.Sprintf("%+.1f %%", x*100)
	if s == "-0.0 %" {
		s = "+0.0 %"
	}
	return s
}

// marginText renders an equivalence margin as "±5 %".
func marginText(m float64) string {
	return "±" + strconv.FormatFloat(math.Round(m*1e8)/1e6, 'f', -1, 64) + " %"
}
