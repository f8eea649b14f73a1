package stats

import (
	"encoding/json"
	"math"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/prodlab/prodlab/internal/textfmt"
)

// DefaultConfidence is the confidence level of prodlab's intervals and
// tests: 95 %, the conventional level for confidence intervals.
//
// It used to be JMH's 99.9 %, but on the few trials JMH runs that level
// makes every interval useless: with 3 trials the t quantile at 0.9995 on
// 2 degrees of freedom is 31.6, so the interval is 31.6·SD/√3 wide on
// each side. prodlab instead adds rounds until the intervals it reports
// are narrow (StopRule), which controls precision directly, and 95 % then
// keeps the usual meaning: 1 interval in 20 misses the true value.
// Equivalence is shown by two one-sided tests at α = 1−Level = 0.05 each,
// that is by the 90 % interval lying within the margin (see Options).
const DefaultConfidence = 0.95

// Summary describes one metric over the trials of a scenario: how many
// trials, their mean and sample standard deviation, and Err, the half-width
// of the two-sided Student's t confidence interval of the mean, so the
// metric reads "Mean ± Err" as JMH prints "score ± error". With fewer than
// two trials SD and Err are NaN: one trial says nothing about spread, and
// String then shows the mean alone. N is 0 when nothing was measured.
type Summary struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
	Err  float64 `json:"err"`
	// Confidence is the level Err was computed at (0.95 for 95 %).
	Confidence float64 `json:"confidence"`
}

// Summarize returns the Summary of xs at the given two-sided confidence
// level (DefaultConfidence, say). The standard deviation is the sample one
// (n-1 denominator), and Err = t(1-(1-confidence)/2, n-1) · SD/√n.
func Summarize(xs []float64, confidence float64) Summary {
	s := Summary{N: len(xs), SD: math.NaN(), Err: math.NaN(), Confidence: confidence}
	if s.N == 0 {
		s.Mean = math.NaN()
		return s
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	s.Mean = sum / float64(s.N)
	if s.N < 2 {
		return s
	}
	var ss float64
	for _, x := range xs {
		d := x - s.Mean
		ss += d * d
	}
	s.SD = math.Sqrt(ss / float64(s.N-1))
	s.Err = TQuantile(1-(1-confidence)/2, float64(s.N-1)) * s.SD / math.Sqrt(float64(s.N))
	return s
}

// TQuantile returns the p quantile of Student's t distribution with df
// degrees of freedom (df may be fractional, as Welch's test needs).
//
// Quantiles at whole df up to maxCachedDF are remembered: computing one
// takes about 10 µs, and the stopping rule's simulation and the rounds
// estimate of inconclusive verdicts ask for the same few thousands of
// times.
func TQuantile(p, df float64) float64 {
	cacheable := df == math.Trunc(df) && df >= 1 && df <= maxCachedDF
	if cacheable {
		if q, ok := tQuantiles.Load(tKey{p, int(df)}); ok {
			return q.(float64)
		}
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(p)
	if cacheable {
		tQuantiles.Store(tKey{p, int(df)}, q)
	}
	return q
}

// maxCachedDF bounds the degrees of freedom TQuantile remembers, and so
// the cache: a few levels times 4096 entries.
const maxCachedDF = 4096

// tKey indexes tQuantiles.
type tKey struct {
	p  float64
	df int
}

// tQuantiles caches TQuantile at whole degrees of freedom.
var tQuantiles sync.Map

// tCDF returns P(T ≤ t) for Student's t with df degrees of freedom.
func tCDF(t, df float64) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.CDF(t)
}

// HasErr reports whether the summary carries a confidence interval (two or
// more trials).
func (s Summary) HasErr() bool { return s.N >= 2 && !math.IsNaN(s.Err) }

// String renders the summary as "52,340 ± 1,234", with precision chosen
// from the mean's magnitude; see Format.
func (s Summary) String() string { return s.Format(-1) }

// Format renders the summary as "mean ± err" with prec decimals (prec < 0
// chooses: none from 100 up, then one more per decade below, at most
// four) and thousands separators. With one trial the error is omitted and
// only the mean shows; with none the result is "-".
func (s Summary) Format(prec int) string {
	if s.N == 0 || math.IsNaN(s.Mean) {
		return "-"
	}
	if prec < 0 {
		prec = autoPrec(s.Mean)
	}
	out := textfmt.Group(s.Mean, prec)
	if s.HasErr() {
		out += " ± " + textfmt.Group(s.Err, prec)
	}
	return out
}

// autoPrec picks decimals that show about three significant digits of v.
func autoPrec(v float64) int {
	a := math.Abs(v)
	switch {
	case a == 0 || a >= 100:
		return 0
	case a >= 10:
		return 1
	case a >= 1:
		return 2
	case a >= 0.1:
		return 3
	default:
		return 4
	}
}

// MarshalJSON writes NaN figures (SD and Err of a single trial, Mean of
// none) as null, since JSON has no NaN.
func (s Summary) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		N          int      `json:"n"`
		Mean       *float64 `json:"mean"`
		SD         *float64 `json:"sd"`
		Err        *float64 `json:"err"`
		Confidence float64  `json:"confidence"`
	}{s.N, finite(s.Mean), finite(s.SD), finite(s.Err), s.Confidence})
}

// UnmarshalJSON reads what MarshalJSON writes, null becoming NaN.
func (s *Summary) UnmarshalJSON(b []byte) error {
	var v struct {
		N          int      `json:"n"`
		Mean       *float64 `json:"mean"`
		SD         *float64 `json:"sd"`
		Err        *float64 `json:"err"`
		Confidence float64  `json:"confidence"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	nan := func(p *float64) float64 {
		if p == nil {
			return math.NaN()
		}
		return *p
	}
	*s = Summary{N: v.N, Mean: nan(v.Mean), SD: nan(v.SD), Err: nan(v.Err), Confidence: v.Confidence}
	return nil
}

// finite returns &v, or nil for NaN and infinities.
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
