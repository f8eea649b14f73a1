package stats

import (
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// Change points: where the level of a series of runs' figures moved. The
// method is E-divisive means (Matteson and James, "A Nonparametric
// Approach for Multiple Change Point Analysis of Multivariate Data",
// JASA 2014), as Apache Otava (formerly Hunter, arXiv 2301.03034) and
// MongoDB's performance CI use it: hierarchical bisection by the split
// that maximises the energy-distance statistic Q̂ (exponent 1), each new
// change point kept only when a permutation test finds it significant.

// ChangeConfig tunes ChangePoints; zero fields take the defaults.
type ChangeConfig struct {
	// Alpha is the permutation test's significance level (default
	// DefaultChangeAlpha).
	Alpha float64
	// Permutations is how many random orders the test draws (default
	// DefaultChangePermutations); the smallest p-value it can give is
	// 1/(Permutations+1).
	Permutations int
	// MinSize is the fewest points a level may hold (default
	// DefaultChangeMinSize).
	MinSize int
	// Seed seeds the permutations, so the same series gives the same
	// answer every time.
	Seed uint64
}

// Defaults of ChangeConfig.
const (
	DefaultChangeAlpha        = 0.05
	DefaultChangePermutations = 999
	DefaultChangeMinSize      = 2
)

func (c ChangeConfig) withDefaults() ChangeConfig {
	if c.Alpha <= 0 {
		c.Alpha = DefaultChangeAlpha
	}
	if c.Permutations <= 0 {
		c.Permutations = DefaultChangePermutations
	}
	if c.MinSize <= 0 {
		c.MinSize = DefaultChangeMinSize
	}
	return c
}

// ChangePoint is where a series' level changed: Index is the first point
// of the new level; PValue the permutation test's; Before and After the
// means of the levels either side (up to the neighbouring change points).
type ChangePoint struct {
	Index  int     `json:"index"`
	PValue float64 `json:"p_value"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
}

// Relative is the change of level, After against Before (0.1: 10 % up).
func (c ChangePoint) Relative() float64 { return c.After/c.Before - 1 }

// ChangePoints finds the change points of xs (NaN-free), in index order.
// A series shorter than two levels of MinSize has none.
func ChangePoints(xs []float64, cfg ChangeConfig) []ChangePoint {
	cfg = cfg.withDefaults()
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15))
	cuts := []int{0, len(xs)} // segment bounds, sorted
	pvalue := map[int]float64{}
	for {
		best, bestQ := -1, math.Inf(-1)
		for i := 0; i+1 < len(cuts); i++ {
			if tau, q := bestSplit(xs[cuts[i]:cuts[i+1]], cfg.MinSize); tau > 0 && q > bestQ {
				best, bestQ = cuts[i]+tau, q
			}
		}
		if best < 0 {
			break
		}
		p := permutationP(xs, cuts, bestQ, cfg, rng)
		if p >= cfg.Alpha {
			break
		}
		pvalue[best] = p
		cuts = append(cuts, best)
		sort.Ints(cuts)
	}
	var out []ChangePoint
	for i := 1; i+1 < len(cuts); i++ {
		out = append(out, ChangePoint{Index: cuts[i], PValue: pvalue[cuts[i]],
			Before: mean(xs[cuts[i-1]:cuts[i]]), After: mean(xs[cuts[i]:cuts[i+1]])})
	}
	return out
}

// bestSplit returns the split tau of z (X = z[:tau], Y = z[tau:], each at
// least minSize long) with the largest Q̂ and that Q̂; tau 0 when z cannot
// be split. Moving one point from Y to X updates the three distance sums
// in O(n), so a scan costs O(n²).
func bestSplit(z []float64, minSize int) (int, float64) {
	n := len(z)
	if n < 2*minSize {
		return 0, 0
	}
	var between, withinX, withinY float64
	for i := 1; i < n; i++ { // X = {z0}
		between += math.Abs(z[0] - z[i])
		for j := i + 1; j < n; j++ {
			withinY += math.Abs(z[i] - z[j])
		}
	}
	best, bestQ := 0, math.Inf(-1)
	for tau := 1; tau <= n-minSize; tau++ {
		if tau >= minSize {
			if q := energyQ(between, withinX, withinY, tau, n-tau); q > bestQ {
				best, bestQ = tau, q
			}
		}
		if tau == n-minSize {
			break
		}
		e := z[tau] // moves from Y to X
		var toX, toY float64
		for i := 0; i < tau; i++ {
			toX += math.Abs(e - z[i])
		}
		for j := tau + 1; j < n; j++ {
			toY += math.Abs(e - z[j])
		}
		withinX += toX
		withinY -= toY
		between += toY - toX
	}
	return best, bestQ
}

// energyQ is Matteson and James's Q̂ for sides of m and k points with the
// given sums of pairwise distances (exponent 1): (mk/(m+k)) times the
// mean distance between the sides, twice, less the mean distances within
// each (0 for a side of one point).
func energyQ(between, withinX, withinY float64, m, k int) float64 {
	e := 2 * between / float64(m*k)
	if m > 1 {
		e -= withinX / float64(m*(m-1)/2)
	}
	if k > 1 {
		e -= withinY / float64(k*(k-1)/2)
	}
	return float64(m*k) / float64(m+k) * e
}

// permutationP is the share of random orders whose best split is at
// least as strong as q, counting the observed order itself: the
// significance of the strongest split of xs's segments (bounded by cuts).
// As Matteson and James's test, each order shuffles every segment within
// itself and takes the best split over all of them, so a second change
// point is judged against every place it could have been found.
func permutationP(xs []float64, cuts []int, q float64, cfg ChangeConfig, rng *rand.Rand) float64 {
	perm := append([]float64(nil), xs...)
	atLeast := 0
	for r := 0; r < cfg.Permutations; r++ {
		best := math.Inf(-1)
		for i := 0; i+1 < len(cuts); i++ {
			seg := perm[cuts[i]:cuts[i+1]]
			rng.Shuffle(len(seg), func(a, b int) { seg[a], seg[b] = seg[b], seg[a] })
			if tau, pq := bestSplit(seg, cfg.MinSize); tau > 0 && pq > best {
				best = pq
			}
		}
		if best >= q*(1-1e-12) {
			atLeast++
		}
	}
	return float64(atLeast+1) / float64(cfg.Permutations+1)
}

// Departure tests whether newest departs from the level of prev (the
// runs since the last change point): a one-sided prediction test in the
// direction dir calls worse, t = (newest − mean)/(sd·√(1+1/k)) with k−1
// degrees of freedom (k = len(prev), at least 2). It returns the relative
// change of newest against prev's mean and the p-value; ok is false when
// prev is too short to test.
func Departure(prev []float64, newest float64, dir Direction) (rel, p float64, ok bool) {
	k := len(prev)
	if k < 2 {
		return 0, 1, false
	}
	s := Summarize(prev, DefaultConfidence)
	rel = newest/s.Mean - 1
	worse := newest - s.Mean // how far in the direction that is worse
	if dir == HigherIsBetter {
		worse = -worse
	}
	if s.SD == 0 {
		if worse > 0 {
			return rel, 0, true
		}
		return rel, 1, true
	}
	t := worse / (s.SD * math.Sqrt(1+1/float64(k)))
	return rel, 1 - distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(k - 1)}.CDF(t), true
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
