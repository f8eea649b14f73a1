package lab

import (
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/spec"
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
	r.finishedBefore = map[trialKey]bool{}
	for _, rec := range prev {
		r.count(rec)
		r.recs = append(r.recs, rec)
		if !rec.Warmup && rec.Status != results.StatusInterrupted {
			r.finishedBefore[trialKey{rec.ScenarioID, rec.Trial}] = true
		}
	}
}

// alreadyRun reports whether measured trial n of sc finished in the run
// being resumed.
func (r *runner) alreadyRun(sc spec.Scenario, n int) bool {
	return r.finishedBefore[trialKey{sc.ID, n}]
}

// groupDone reports whether the run being resumed already finished every
// measured trial of g (trials: N) or reached the target precision for it
// (trials: auto), so its cluster need not start again.
func (r *runner) groupDone(g *clusterGroup) bool {
	if len(r.finishedBefore) == 0 {
		return false
	}
	if r.exp.TrialsAuto {
		met, _ := r.updatePrecision(g)
		return met
	}
	for _, sc := range g.scs {
		for n := range r.exp.Trials {
			if !r.alreadyRun(sc, n) {
				return false
			}
		}
	}
	return true
}
