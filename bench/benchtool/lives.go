package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/app"
	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// lives asks repeated runs of one experiment how far one run, or a few
// pooled, can be trusted: for every k up to -k and every k-subset of the
// runs given (at most -subsets of them), the Findings of those runs alone
// (report.Findings, over lives when k ≥ 2), checked against the centre of
// the runs left out — the mean of their runs' mean log ratios, data the
// subset never saw. It prints, per planned comparison and k, the share of
// each verdict, the share of intervals that hold the others' centre, and
// the median half-width. A single run whose interval misses the other
// runs' centre far more often than 5 % of the time measures only its own
// cluster life (bench/RESULTS.md §31).
//
//	benchtool lives [-k 3] [-subsets 500] RUN_DIR...
func lives(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("lives", flag.ContinueOnError)
	maxK := fs.Int("k", 3, "the largest subset of runs pooled")
	maxSubsets := fs.Int("subsets", 500, "subsets tried per size (the first in lexical order)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dirs := fs.Args()
	if *maxK < 1 || *maxSubsets < 1 {
		return errors.New("lives: -k and -subsets must be at least 1")
	}
	if len(dirs) < *maxK+1 {
		return fmt.Errorf("lives: give at least %d run directories for -k %d (one must be left out)", *maxK+1, *maxK)
	}
	// The lab's own check that the runs asked the same questions.
	if _, err := app.ReadRuns(dirs, io.Discard); err != nil {
		return fmt.Errorf("lives: %w", err)
	}
	runs := make([][]results.Record, len(dirs))
	var plan results.Plan
	for i, dir := range dirs {
		recs, err := results.Read(dir)
		if err != nil {
			return fmt.Errorf("lives: %w", err)
		}
		p, ok, err := results.ReadPlan(dir)
		if err != nil {
			return fmt.Errorf("lives: %s: %w", dir, err)
		}
		if !ok {
			return fmt.Errorf("lives: %s has no plan.json", dir)
		}
		if i == 0 {
			plan = p
		}
		runs[i] = recs
	}
	all := pooled(runs, allOf(len(runs)))
	fmt.Fprintf(w, "%d runs; every finding over all of them, then per subset size k: verdicts, share whose interval holds the centre of the runs left out, median half-width\n", len(runs))
	for i, f := range report.Findings(all, plan) {
		fmt.Fprintf(w, "\n%s\n  all %d runs: %s\n", f.Title, len(runs), f.Verdict.Text)
		for k := 1; k <= *maxK; k++ {
			fmt.Fprintf(w, "  k=%d: %s\n", k, tallySubsets(runs, plan, i, k, *maxSubsets))
		}
	}
	return nil
}

// tallySubsets judges comparison i of plan on up to limit k-subsets of
// runs against the centre of the runs each leaves out.
func tallySubsets(runs [][]results.Record, plan results.Plan, i, k, limit int) string {
	kinds := map[string]int{}
	held, n := 0, 0
	var halves []float64
	for _, in := range subsets(len(runs), k, limit) {
		f := report.Findings(pooled(runs, in), plan)[i].Verdict
		rest := report.Findings(pooled(runs, complement(len(runs), in)), plan)[i].Verdict
		if f.Kind == stats.KindNotTested || rest.Kind == stats.KindNotTested {
			continue
		}
		n++
		kinds[f.Kind]++
		if f.Lo <= rest.Diff && rest.Diff <= f.Hi {
			held++
		}
		halves = append(halves, f.HalfWidth())
	}
	if n == 0 {
		return "nothing to judge"
	}
	slices.Sort(halves)
	var parts []string
	for _, kind := range []string{stats.KindEquivalent, stats.KindFaster, stats.KindSlower, stats.KindLower, stats.KindHigher, stats.KindInconclusive} {
		if kinds[kind] > 0 {
			parts = append(parts, fmt.Sprintf("%s %.0f %%", kind, 100*float64(kinds[kind])/float64(n)))
		}
	}
	return fmt.Sprintf("%d subsets: %s; holds the others' centre %.0f %%; median ±%.1f %%",
		n, strings.Join(parts, ", "), 100*float64(held)/float64(n), 100*halves[len(halves)/2])
}

// pooled is the records of the runs numbered in, pooled as a report of
// those runs pools them (app.PoolLives).
func pooled(runs [][]results.Record, in []int) []results.Record {
	sel := make([][]results.Record, len(in))
	for i, r := range in {
		sel[i] = runs[r]
	}
	return app.PoolLives(sel...)
}

// subsets lists up to limit k-subsets of 0..n-1 in lexical order.
func subsets(n, k, limit int) [][]int {
	var out [][]int
	cur := make([]int, 0, k)
	var rec func(from int)
	rec = func(from int) {
		if len(out) >= limit {
			return
		}
		if len(cur) == k {
			out = append(out, slices.Clone(cur))
			return
		}
		for i := from; i <= n-(k-len(cur)); i++ {
			cur = append(cur, i)
			rec(i + 1)
			cur = cur[:len(cur)-1]
		}
	}
	rec(0)
	return out
}

// complement is 0..n-1 without in.
func complement(n int, in []int) []int {
	var out []int
	for i := range n {
		if !slices.Contains(in, i) {
			out = append(out, i)
		}
	}
	return out
}

// allOf is 0..n-1.
func allOf(n int) []int { return complement(n, nil) }
