package summary

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/kafkaconf"
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
			same, reported := kafkaconf.Effective(r.EffectiveConfig).Same(k, constraints[k])
			if !reported {
				continue
			}
			seen[k] = true
			if !same {
				bad = append(bad, fmt.Sprintf("trial %d ran with %s=%s where the constraint is %s", r.Trial, k, r.EffectiveConfig[k], constraints[k]))
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

// holdConstraints checks the pick's constraints (checkConstraints) and
// withdraws a recommendation the client did not run as constrained.
func holdConstraints(out *results.Advice, recs []results.Record, constraints map[string]string) {
	if out.Pick == nil {
		return
	}
	checked, differs := checkConstraints(recs, out.Pick.ScenarioID, constraints)
	if v := Violations(recs)[out.Pick.ScenarioID]; v.Audited > 0 {
		checked += "; " + v.Text()
	}
	out.Pick.Constraints = checked
	if differs != "" {
		out.Recommend = false
		out.Answer = "cannot recommend the pick: the client did not keep a constraint (" + differs + ")"
	}
}

// Violations counts, per scenario, the measured trials whose audit found
// what the experiment does not expect (status violated), with the first
// one's trial number. With audit: true, "audited clean" is a constraint:
// a candidate with a violated trial is never picked, whatever its other
// trials say.
func Violations(recs []results.Record) map[string]Violated {
	out := map[string]Violated{}
	for i := range recs {
		r := &recs[i]
		if r.Warmup || r.Audit == nil {
			continue
		}
		v := out[r.ScenarioID]
		v.Audited++
		if r.Status == results.StatusViolated {
			if v.Trials == 0 {
				v.First = r.Trial
			}
			v.Trials++
		}
		out[r.ScenarioID] = v
	}
	return out
}

// Violated is one scenario's audited trials and those whose audit was not
// clean.
type Violated struct{ Audited, Trials, First int }

// Text says it as "audited clean in 12 of 12 trials".
func (v Violated) Text() string {
	return fmt.Sprintf("audited clean in %d of %d trials", v.Audited-v.Trials, v.Audited)
}
