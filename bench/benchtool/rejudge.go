package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/summary"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// rejudge shows what today's probe judgement (summary.HoldMisses) makes of
// the probes a capacity or advise run recorded under an earlier rule: each
// probe whose pass or fail changes, and every scenario's sustainable rate
// as recorded and as judged again, so a rule change is measured on real
// runs before it ships.
//
//	benchtool rejudge RUN_DIR...
func rejudge(dirs []string, w io.Writer) error {
	for _, dir := range dirs {
		recs, err := results.Read(dir)
		if err != nil {
			return err
		}
		plan, ok, err := results.ReadPlan(dir)
		if err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		if !ok || plan.Capacity == nil {
			return fmt.Errorf("%s: not a capacity or advise run (no capacity plan in plan.json)", dir)
		}
		again := make([]results.Record, len(recs))
		changed := 0
		for i, r := range recs {
			again[i] = r
			if r.Probe == nil || r.Probe.Ceiling || r.Warmup {
				continue
			}
			p := *r.Probe
			why := summary.HoldMisses(&r, plan.Capacity.SLO, plan.Capacity.KeepUp)
			p.Pass, p.Why = len(why) == 0, strings.Join(why, "; ")
			if p.Pass != r.Probe.Pass {
				changed++
				fmt.Fprintf(w, "%s: %s probe %d at %s msg/s: %s → %s\n", dir, r.ScenarioID, r.Trial,
					textfmt.Group(r.Load.OfferedRecordsPerS, 0), verdictText(*r.Probe), verdictText(p))
			}
			again[i].Probe = &p
		}
		fmt.Fprintf(w, "%s: %d probes judged differently\n", dir, changed)
		before := summary.Capacity(recs, *plan.Capacity, plan.Level)
		after := summary.Capacity(again, *plan.Capacity, plan.Level)
		for i := range before {
			b, a := before[i].Sustainable, after[i].Sustainable
			fmt.Fprintf(w, "  %s: %s [%s, %s] ±%.1f %% → %s [%s, %s] ±%.1f %%\n", before[i].ScenarioID,
				textfmt.Group(b.RecordsPerS, 0), textfmt.Group(b.Lo, 0), textfmt.Group(b.Hi, 0), 100*before[i].Precision.Reached,
				textfmt.Group(a.RecordsPerS, 0), textfmt.Group(a.Lo, 0), textfmt.Group(a.Hi, 0), 100*after[i].Precision.Reached)
		}
	}
	return nil
}

// verdictText is a probe's judgement in a word, with why when it is not a pass.
func verdictText(p results.Probe) string {
	if p.Pass {
		return "pass"
	}
	return "fail (" + p.Why + ")"
}
