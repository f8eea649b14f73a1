package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/figures"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// rankcheck judges an advise run's pick against a dedicated capacity run
// of the same space (issue 24's ranking check): it lists the capacity
// run's bracketed scenarios by sustainable rate (and, unranked, those
// whose interval is open at an edge), marks the one with the pick's
// settings, and prints the verdict of the pick's sustainable rate, as the
// advise run measured it, against the capacity run's best
// (stats.CompareThresholds at 95 %, margin ±5 %). The check holds when
// that verdict is not "slower".
//
//	benchtool rankcheck ADVISE_DIR CAPACITY_DIR
func rankcheck(args []string, w io.Writer) error {
	if len(args) != 2 {
		return fmt.Errorf("rankcheck: give an advise run's directory and a capacity run's")
	}
	recs, err := results.Read(args[0])
	if err != nil {
		return err
	}
	plan, ok, err := results.ReadPlan(args[0])
	if err != nil {
		return fmt.Errorf("%s: %w", args[0], err)
	}
	if !ok || plan.Advise == nil || plan.Advise.Objective != figures.ObjectiveSustainable {
		return fmt.Errorf("%s: not a sustainable-rate advise run", args[0])
	}
	a := summary.Advice(recs, plan)
	if a.Pick == nil {
		return fmt.Errorf("%s: no pick: %s", args[0], a.Answer)
	}
	pick := summary.PickThreshold(recs, plan, a.Pick.ScenarioID)
	crecs, err := results.Read(args[1])
	if err != nil {
		return err
	}
	type scored struct {
		id string
		t  stats.Threshold
	}
	var all, open []scored
	for _, sp := range summary.Probes(crecs) {
		t := sp.Threshold(stats.DefaultConfidence)
		switch {
		case !math.IsNaN(t.Estimate) && t.Edge == "":
			all = append(all, scored{sp.ScenarioID, t})
		case !math.IsNaN(t.Estimate):
			open = append(open, scored{sp.ScenarioID, t})
		}
	}
	if len(all) == 0 {
		return fmt.Errorf("%s: no scenario's sustainable rate was bracketed", args[1])
	}
	slices.SortStableFunc(all, func(x, y scored) int { return cmp.Compare(y.t.Estimate, x.t.Estimate) })
	fmt.Fprintf(w, "advise pick %s: %s msg/s [%s, %s] (%d probes)\n", a.Pick.ScenarioID, textfmt.Group(pick.Estimate, 0),
		textfmt.Group(pick.Lo, 0), textfmt.Group(pick.Hi, 0), pick.Probes)
	for i, s := range all {
		mark := ""
		if maps.Equal(idSettings(s.id), a.Pick.Settings) {
			mark = "   <- the pick's settings"
		}
		fmt.Fprintf(w, "%2d. %-45s %s msg/s [%s, %s]%s\n", i+1, s.id, textfmt.Group(s.t.Estimate, 0), textfmt.Group(s.t.Lo, 0), textfmt.Group(s.t.Hi, 0), mark)
	}
	for _, s := range open { // not ranked: an open interval does not compare
		mark := ""
		if maps.Equal(idSettings(s.id), a.Pick.Settings) {
			mark = "   <- the pick's settings"
		}
		fmt.Fprintf(w, "    %-45s open %s: [%s, %s], not ranked%s\n", s.id, s.t.Edge, textfmt.Group(s.t.Lo, 0), textfmt.Group(s.t.Hi, 0), mark)
	}
	v := stats.CompareThresholds(all[0].t, pick.Threshold, stats.Options{Level: stats.DefaultConfidence, Margin: 0.05, Dir: stats.HigherIsBetter})
	fmt.Fprintf(w, "the pick against the capacity run's best bracketed scenario (%s): %s; check (not decided slower): %v\n", all[0].id, v.Text, v.Kind != stats.KindSlower)
	return nil
}

// idSettings reads a matrix scenario ID ("linger.ms=5,compression.type=zstd")
// as settings.
func idSettings(id string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(id, ",") {
		if k, v, ok := strings.Cut(part, "="); ok {
			out[k] = v
		}
	}
	return out
}
