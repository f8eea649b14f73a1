package summary

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
)

// checkConstraints checks every constraint on the pick's own trials, as
// the client reported the settings it ran with (a record's
// effective_config), rather than assuming the client honoured them. It
// returns what was checked ("acks=all, enable.idempotence=true in 14 of 14
// trials; not reported by the client: …") and, when some trial ran with
// another value, what differed; "" when nothing did.
func checkConstraints(recs []results.Record, pick string, constraints map[string]string) (checked, differs string) {
	if len(constraints) == 0 {
		return "", ""
	}
	trials := 0
	seen := map[string]bool{}
	var bad []string
	for i := range recs {
		r := &recs[i]
		if r.ScenarioID != pick || r.Warmup || r.EffectiveConfig == nil {
			continue
		}
		trials++
		for _, k := range slices.Sorted(maps.Keys(constraints)) {
			got, ok := r.EffectiveConfig[k]
			if !ok {
				continue
			}
			seen[k] = true
			if !sameSetting(k, got, constraints[k]) {
				bad = append(bad, fmt.Sprintf("trial %d ran with %s=%s where the constraint is %s", r.Trial, k, got, constraints[k]))
			}
		}
	}
	if trials == 0 {
		return "the client reported no settings for the pick's trials: its constraints are not checked", ""
	}
	var ok, unreported []string
	for _, k := range slices.Sorted(maps.Keys(constraints)) {
		if seen[k] {
			ok = append(ok, k+"="+constraints[k])
		} else {
			unreported = append(unreported, k)
		}
	}
	checked = fmt.Sprintf("%s as the client reported them in its %d trials", strings.Join(ok, ", "), trials)
	if len(ok) == 0 {
		checked = fmt.Sprintf("none as the client reported them in its %d trials", trials)
	}
	if len(unreported) > 0 {
		checked += "; not reported by the client: " + strings.Join(unreported, ", ")
	}
	if len(bad) > 0 {
		differs = bad[0]
		if len(bad) > 1 {
			differs += fmt.Sprintf(" (and %d more)", len(bad)-1)
		}
	}
	return checked, differs
}

// sameSetting compares a reported setting with a constraint: acks -1 is
// all.
func sameSetting(key, got, want string) bool {
	if key == "acks" {
		norm := func(v string) string {
			if v == "-1" {
				return "all"
			}
			return v
		}
		return norm(got) == norm(want)
	}
	return strings.TrimSpace(got) == strings.TrimSpace(want)
}

// holdConstraints checks the pick's constraints (checkConstraints) and
// withdraws a recommendation the client did not run as constrained.
func holdConstraints(out *results.Advice, recs []results.Record, constraints map[string]string) {
	if out.Pick == nil {
		return
	}
	checked, differs := checkConstraints(recs, out.Pick.ScenarioID, constraints)
	out.Pick.Constraints = checked
	if differs != "" {
		out.Recommend = false
		out.Answer = "cannot recommend the pick: the client did not keep a constraint (" + differs + ")"
	}
}
