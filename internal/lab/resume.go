package lab

import (
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
)

// trialKey names one measured trial of a scenario.
type trialKey struct {
	scenario string
	trial    int
}

// resumeFrom takes in the records an earlier, unfinished run of the same
// experiment wrote to the run directory (--resume): they count in the
// summary, the stopping rule and the report as if this run had written
// them, and their measured trials are not run again. Interrupted trials
// are run again; warm-up rounds are too, since the cluster is new.
func (r *runner) resumeFrom(prev []results.Record) {
	r.prev = prev
	r.finishedBefore = map[trialKey]bool{}
	for _, rec := range prev {
		r.sum.add(rec)
		if !rec.Warmup && rec.Status != results.StatusInterrupted {
			r.finishedBefore[trialKey{rec.ScenarioID, rec.Trial}] = true
		}
	}
}

// alreadyRun reports whether measured trial n of sc finished in the run
// being resumed (in a duet, or its partner's).
func (r *runner) alreadyRun(sc expfile.Scenario, n int) bool {
	if p, ok := r.partner[sc.ID]; ok && r.finishedBefore[trialKey{p, n}] {
		return true // a duet's round: see runner.partners
	}
	return r.finishedBefore[trialKey{sc.ID, n}]
}
