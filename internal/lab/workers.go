package lab

import (
	"github.com/prodlab/prodlab/internal/expfile"
)

// workerClasses names, per scenario ID, the client process its trials run
// in: one per cluster and per kind of trial (with injected faults or
// without), so that a saturated no-fault trial's Java client does not
// share its JIT profiles with the retry paths of connection-cut trials or
// with another cluster's trials, which made its CPU per MB vary by up to
// 10 % between trials (bench/RESULTS.md §27). Classes joined by a planned
// comparison merge: a comparison's two arms always run in one process, so
// a difference between two JVMs never passes for the setting's effect.
func workerClasses(scs []expfile.Scenario, cmps []expfile.Comparison) map[string]string {
	class := make(map[string]string, len(scs))
	for _, sc := range scs {
		kind := "clean"
		if sc.Exp.InjectsFaults() {
			kind = "faults"
		}
		class[sc.ID] = sc.Exp.Cluster.Key() + "|" + kind
	}
	for changed := true; changed; {
		changed = false
		for _, c := range cmps {
			a, b := class[c.Baseline], class[c.Candidate]
			if a == b || a == "" || b == "" {
				continue
			}
			keep, drop := min(a, b), max(a, b)
			for id, cl := range class {
				if cl == drop {
					class[id] = keep
				}
			}
			changed = true
		}
	}
	return class
}
