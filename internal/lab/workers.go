package lab

import (
	"github.com/prodlab/prodlab/internal/spec"
)

// workerClasses names, per scenario ID, the client process its trials run
// in: one per cluster and per kind of trial (with injected faults or
// without), so that a saturated no-fault trial's Java client does not
// share its JIT profiles with the retry paths of connection-cut trials or
// with another cluster's trials, which made its CPU per MB vary by up to
// 10 % between trials (bench/RESULTS.md §27). Classes joined by a planned
// comparison merge: a comparison's two arms always run in one process, so
// a difference between two JVMs never passes for the setting's effect.
func workerClasses(scs []spec.Scenario, cmps []spec.Comparison) map[string]string {
	class := make(map[string]string, len(scs))
	for _, sc := range scs {
		kind := "clean"
		if hasFaults(sc.Exp) {
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

// byClass orders scs so that within a round the scenarios of one worker
// class run one after another: classes in order of first appearance, each
// class's scenarios in their own order. In idempotence, no-fault trials
// that ran right after a connection-cut trial on their cluster spread
// wider than those after a no-fault one (3 brokers: SD 0.082 against
// 0.062 of ln rate; bench/RESULTS.md §28), and a comparison's two arms,
// being of one class, now run next to each other.
func byClass(scs []spec.Scenario, class map[string]string) []spec.Scenario {
	var order []string
	of := map[string][]spec.Scenario{}
	for _, sc := range scs {
		c := class[sc.ID]
		if _, seen := of[c]; !seen {
			order = append(order, c)
		}
		of[c] = append(of[c], sc)
	}
	out := make([]spec.Scenario, 0, len(scs))
	for _, c := range order {
		out = append(out, of[c]...)
	}
	return out
}
