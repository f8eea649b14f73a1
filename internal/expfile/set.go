package expfile

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/prodlab/prodlab/internal/secret"
)

// applySets applies --set overrides, in order, after the file is read.
//
// "key=value" sets any key (canonical, shorthand or bare producer property).
// When the key is a matrix axis the axis is narrowed to that single value,
// keeping the scenario ID informative; when the key names a free-form axis of
// map values, the value selects one of them by label. Relative paths in
// values resolve against the working directory.
func applySets(e *Experiment, sets []string, c *collector) {
	var aliases []aliasAt
	defer func() {
		// Judged after every --set, so that --set advise.objective may
		// come after them.
		if e.Mode().Advises() {
			return
		}
		for _, a := range aliases {
			c.add(a.at.errorf("%s: the experiment has no advise section (capacity.%s sets a capacity search's)", a.key, strings.TrimPrefix(a.key, "advise.")))
		}
	}()
	// The file's own trials: auto and warmup: auto, before any --set.
	fileTrialsAuto, fileWarmupAuto := e.TrialsAuto, e.WarmupAuto
	defer func() { e.dropAutoSettings(fileTrialsAuto, fileWarmupAuto) }()
	for _, s := range sets {
		key, raw, ok := strings.Cut(s, "=")
		key = strings.TrimSpace(key)
		at := pos{File: "--set " + clipText(s)}
		if ok && (isSecret(key) || isSecret(suggest(key, append(tailKeys(key), producerNames()...)))) {
			// Errors reach the terminal; a misspelled secret key
			// (ssl.keystore.pasword) holds a secret as much as the key.
			at.File = "--set " + key + "=" + secret.Hidden
		}
		if !utf8.ValidString(s) {
			at.File = "--set " + strings.ToValidUTF8(at.File[len("--set "):], "\uFFFD")
			c.add(at.errorf("invalid UTF-8; keys and values must be UTF-8"))
			continue
		}
		if !ok || key == "" {
			c.add(at.errorf("expected key=value"))
			continue
		}
		if i := axisByName(e.Matrix, key); i >= 0 && e.Matrix[i].canonical == "" {
			selectAxisValue(&e.Matrix[i], raw, at, c)
			continue
		}
		canonical, ok := resolveShort(key)
		if alias, isAlias := adviseAlias(key); isAlias {
			aliases = append(aliases, aliasAt{key, at})
			canonical, ok = alias, true
		}
		if !ok {
			_, err := Canonical(key)
			c.add(at.errorf("%v", err))
			continue
		}
		v, err := normalize(canonical, raw, "")
		if err != nil {
			c.add(at.errorf("%s", renameKey(err, canonical, written(key, canonical))))
			continue
		}
		if overrideAxis(e, canonical, raw, v, at, c) {
			continue
		}
		assign(e, canonical, v)
		e.pos[canonical] = at
	}
}

// written is the key a --set's message names: an advise key as the user
// wrote it (advise.precision, which sets capacity.precision), else the
// canonical key, as before.
func written(key, canonical string) string {
	if _, isAlias := adviseAlias(key); isAlias {
		return key
	}
	return canonical
}

// aliasAt is an advise key given by --set (adviseAlias), and where.
type aliasAt struct {
	key string
	at  pos
}

// axisByName returns the index of the axis written as name, or -1.
func axisByName(axes []Axis, name string) int {
	for i, a := range axes {
		if a.Key == name {
			return i
		}
	}
	return -1
}

// selectAxisValue narrows a free-form axis to the value labelled label.
func selectAxisValue(a *Axis, label string, at pos, c *collector) {
	labels := make([]string, len(a.Values))
	for i, v := range a.Values {
		if v.Label == label {
			a.Values = []Value{v}
			return
		}
		labels[i] = v.Label
	}
	c.add(at.errorf("matrix axis %q has no value labelled %q%s", a.Key, label, didYouMean(label, labels)))
}

// overrideAxis handles a --set of a key that the matrix varies. It reports
// whether the key was a matrix key (handled or reported).
func overrideAxis(e *Experiment, canonical, raw, v string, at pos, c *collector) bool {
	for i := range e.Matrix {
		a := &e.Matrix[i]
		if a.canonical == canonical {
			a.Values = []Value{{Label: setLabel(a, canonical, raw, v), Set: map[string]string{canonical: v}, pos: at}}
			return true
		}
	}
	for _, a := range e.Matrix {
		for _, val := range a.Values {
			if _, ok := val.Set[canonical]; ok {
				c.add(at.errorf("%q is set by values of matrix axis %q; choose one with --set %s=LABEL", canonical, a.Key, a.Key))
				return true
			}
		}
	}
	return false
}

// setLabel names the value a --set gives axis a: the value as written, or
// for a secret the label of the listed value it equals ("#2"), else "#set",
// so that the secret never names the scenario.
func setLabel(a *Axis, canonical, raw, v string) string {
	if !isSecret(canonical) {
		return raw
	}
	for _, val := range a.Values {
		if len(val.Set) == 1 && val.Set[canonical] == v {
			return val.Label
		}
	}
	return "#set"
}

// dropAutoSettings: a --set trials=N (fixed rounds) over a file written
// with trials: auto replaces its rounds-until-precise, so the settings
// that only apply to auto — the file's precision and budget — are dropped
// (not refused); likewise --set warmup=N over warmup: auto drops the
// file's warmup.max.s. Notes says what was dropped, in one line each. A
// setting given by --set itself is kept, and refused as before.
func (e *Experiment) dropAutoSettings(fileTrialsAuto, fileWarmupAuto bool) {
	if e.Mode().Searches() && e.setByFlag("trials") {
		e.ignoreTrialsFlag()
	}
	if fileTrialsAuto && !e.TrialsAuto && !e.LivesAuto && e.setByFlag("trials") { // a search's --set trials is gone
		if dropped := e.dropFileKeys("precision", "budget"); len(dropped) > 0 {
			e.Precision, e.BudgetS = DefaultPrecision, DefaultBudgetS
			verb := "applies to trials: auto only, is dropped"
			if len(dropped) > 1 {
				verb = "apply to trials: auto only, are dropped"
			}
			e.Notes = append(e.Notes, fmt.Sprintf("--set trials=%d replaces the file's trials: auto: its %s, which %s", e.Trials, strings.Join(dropped, " and "), verb))
		}
	}
	if fileWarmupAuto && !e.WarmupAuto && e.setByFlag("warmup") {
		if dropped := e.dropFileKeys("warmup.max.s"); len(dropped) > 0 {
			e.WarmupMaxS = DefaultWarmupMaxS
			e.Notes = append(e.Notes, fmt.Sprintf("--set warmup=%d replaces the file's warmup: auto: its warmup.max.s, which applies to warmup: auto only, is dropped", e.Warmup))
		}
	}
}

// ignoreTrialsFlag forgets a --set trials=N given to a capacity search or
// an advisor, which decide their own probes, with a note saying so: the
// README's --set trials=5 then runs every built-in study (issue 46). In
// the file itself trials stays refused there (checkCapacity).
func (e *Experiment) ignoreTrialsFlag() {
	n := e.Trials
	delete(e.pos, "trials")
	e.Trials, e.TrialsAuto = DefaultTrials, false
	name, stop := e.searchName(), "capacity.precision or capacity.budget"
	if e.Mode().Advises() {
		stop = "advise.precision or advise.budget"
	}
	if n == 0 {
		e.Notes = append(e.Notes, fmt.Sprintf("--set trials=auto is ignored: %s decides its own probes and stops at %s", name, stop))
		return
	}
	e.Notes = append(e.Notes, fmt.Sprintf("--set trials=%d is ignored: %s decides its own probes and stops at %s", n, name, stop))
}

// setByFlag says whether key's value came from --set.
func (e *Experiment) setByFlag(key string) bool {
	p, ok := e.pos[key]
	return ok && strings.HasPrefix(p.File, "--set ")
}

// dropFileKeys forgets the keys the file (not --set) wrote, returning them.
func (e *Experiment) dropFileKeys(keys ...string) []string {
	var dropped []string
	for _, k := range keys {
		if _, ok := e.pos[k]; ok && !e.setByFlag(k) {
			delete(e.pos, k)
			dropped = append(dropped, k)
		}
	}
	return dropped
}
