package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
	"gonum.org/v1/gonum/stat/distuv"
)

// resample asks recorded rounds what a stopping target would have decided.
// For each planned comparison it draws simulated runs of rounds with
// replacement, each from one recorded run's per-round ln(b/a) (recentred on
// the mean over all the runs given, so that every run's spread is tried at
// the pooled difference), stops each as trials: auto does — stats.StopRule
// at -precision, or at -max-rounds — and judges it with
// stats.ComparePaired: the share that ends decided (equivalent, or a
// direction) and the rounds it took. It is how a study's precision and
// budget are chosen from its own runs (bench/RESULTS.md §30).
//
// It also says whether the runs agree: each run's mean ln(b/a) and its
// standard error, and Cochran's Q, the weighted spread of the runs' means
// against what their own intervals allow (chi-square with runs-1 degrees
// of freedom when they measure one difference). A small p says the
// difference itself moves from one run — one life of the brokers' and
// client's JVMs — to the next by more than a run's interval covers.
//
//	benchtool resample [-precision 0.026] [-max-rounds 60] [-sims 2000] RUN_DIR...
func resample(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("resample", flag.ContinueOnError)
	precision := fs.Float64("precision", 0.026, "the stopping rule's target (relative half-width)")
	maxRounds := fs.Int("max-rounds", 60, "rounds after which a simulated run stops undecided or not (the budget)")
	sims := fs.Int("sims", 2000, "simulated runs per comparison")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("resample: give run directories")
	}
	if *precision <= 0 || *maxRounds < stats.DefaultMinPairs || *sims < 1 {
		return fmt.Errorf("resample: -precision must be above 0, -max-rounds at least %d, -sims at least 1", stats.DefaultMinPairs)
	}
	thr, _ := summary.MetricByKey("throughput")
	byPair := map[[2]string][][]float64{}
	var order [][2]string
	for _, dir := range fs.Args() {
		recs, err := results.Read(dir)
		if err != nil {
			return fmt.Errorf("resample: %w", err)
		}
		sums, err := summary.ByScenario(recs)
		if err != nil {
			return fmt.Errorf("resample: %s: %w", dir, err)
		}
		byID := map[string]*summary.ScenarioStats{}
		var ids []string
		for i := range sums {
			byID[sums[i].ID] = &sums[i]
			ids = append(ids, sums[i].ID)
		}
		if len(ids) < 2 {
			continue // nothing to compare in this run
		}
		for _, p := range plannedPairs(filepath.Join(dir, "plan.json"), ids) {
			a, b := byID[p[0]], byID[p[1]]
			if a == nil || b == nil {
				continue
			}
			// The rounds both counted, as the lab's own verdicts pair them.
			xs, ys := summary.Paired(a, b, thr)
			if len(xs) < 2 {
				continue
			}
			lr := make([]float64, len(xs))
			for i := range xs {
				lr[i] = math.Log(ys[i] / xs[i])
			}
			if _, ok := byPair[p]; !ok {
				order = append(order, p)
			}
			byPair[p] = append(byPair[p], lr)
		}
	}
	if len(order) == 0 {
		return fmt.Errorf("resample: no planned comparison has two rounds of throughput in %s", strings.Join(fs.Args(), ", "))
	}
	rng := rand.New(rand.NewPCG(1, 30))
	for _, p := range order {
		o := resampleRule(byPair[p], stats.StopRule{Target: *precision}, *maxRounds, *sims, rng)
		fmt.Fprintf(w, "%s vs %s: %s\n", p[1], p[0], o)
	}
	return nil
}

// resampled is what resampleRule found for one comparison.
type resampled struct {
	Runs int
	// Means and SEs are each run's mean ln(b/a) and its standard error;
	// Q is Cochran's Q over them and QP its p-value.
	Means, SEs             []float64
	Q, QP                  float64
	SDLo, SDHi, Diff       float64 // the runs' SDs of ln(b/a); the pooled difference (relative)
	Decided, Equiv, Capped float64 // shares of the simulated runs
	MedianRounds           int
	Rule                   stats.StopRule
	MaxRounds              int
}

func (r resampled) String() string {
	runs := make([]string, len(r.Means))
	for i := range r.Means {
		runs[i] = fmt.Sprintf("%+.1f±%.1f", 100*math.Expm1(r.Means[i]), 100*r.SEs[i])
	}
	return fmt.Sprintf("%d runs, SD %.3f–%.3f, difference %+.1f %%; at ±%g %% and at most %d rounds: decided %.1f %% (equivalent %.1f %%), median %d rounds, %.1f %% stopped by the cap; runs' differences (%%, ±SE) %s, Cochran's Q %.1f on %d df (p %.2g)",
		r.Runs, r.SDLo, r.SDHi, 100*r.Diff, 100*r.Rule.Target, r.MaxRounds, 100*r.Decided, 100*r.Equiv, r.MedianRounds, 100*r.Capped,
		strings.Join(runs, " "), r.Q, r.Runs-1, r.QP)
}

// cochranQ is Cochran's Q of estimates with standard errors, and its
// p-value (chi-square, len-1 degrees of freedom): NaN for fewer than two
// estimates or a zero error.
func cochranQ(means, ses []float64) (q, p float64) {
	if len(means) < 2 {
		return math.NaN(), math.NaN()
	}
	var sw, swx float64
	for i, m := range means {
		if ses[i] <= 0 {
			return math.NaN(), math.NaN()
		}
		w := 1 / (ses[i] * ses[i])
		sw += w
		swx += w * m
	}
	pooled := swx / sw
	for i, m := range means {
		q += (m - pooled) * (m - pooled) / (ses[i] * ses[i])
	}
	return q, distuv.ChiSquared{K: float64(len(means) - 1)}.Survival(q)
}

// resampleRule simulates sims runs of rule over rounds drawn from runs (the
// per-round ln ratios of each recorded run), stopping at maxRounds at the
// latest.
func resampleRule(runs [][]float64, rule stats.StopRule, maxRounds, sims int, rng *rand.Rand) resampled {
	out := resampled{Runs: len(runs), SDLo: math.Inf(1), Rule: rule, MaxRounds: maxRounds}
	var pooled float64
	centred := make([][]float64, len(runs))
	for i, lr := range runs {
		m := mean(lr)
		pooled += m / float64(len(runs))
		sd := stats.Summarize(lr, stats.DefaultConfidence).SD
		out.SDLo, out.SDHi = math.Min(out.SDLo, sd), math.Max(out.SDHi, sd)
		out.Means, out.SEs = append(out.Means, m), append(out.SEs, sd/math.Sqrt(float64(len(lr))))
		for _, x := range lr {
			centred[i] = append(centred[i], x-m)
		}
	}
	out.Diff = math.Expm1(pooled)
	out.Q, out.QP = cochranQ(out.Means, out.SEs)
	ones := make([]float64, maxRounds)
	for i := range ones {
		ones[i] = 1
	}
	rounds := make([]int, sims)
	var decided, equiv, capped int
	for s := range sims {
		src := centred[rng.IntN(len(centred))]
		var b []float64
		var v stats.Verdict
		for len(b) < maxRounds {
			b = append(b, math.Exp(pooled+src[rng.IntN(len(src))]))
			if len(b) < 2 {
				continue
			}
			v = stats.ComparePaired(ones[:len(b)], b, stats.Options{})
			if rule.Precise(v) {
				break
			}
		}
		rounds[s] = len(b)
		if !rule.Precise(v) {
			capped++
		}
		switch v.Kind {
		case stats.KindEquivalent:
			equiv++
			decided++
		case stats.KindFaster, stats.KindSlower:
			decided++
		}
	}
	sort.Ints(rounds)
	out.MedianRounds = rounds[sims/2]
	out.Decided, out.Equiv, out.Capped = float64(decided)/float64(sims), float64(equiv)/float64(sims), float64(capped)/float64(sims)
	return out
}
