package expfile

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/prodlab/prodlab/internal/secret"
)

// labelKey names a map-valued matrix value in scenario IDs.
const labelKey = "label"

// runLevelKeys are settings of the whole run, not of a scenario: a matrix
// that varied them would silently use one value for every scenario.
var runLevelKeys = []string{"name", "description", "trials", "warmup", "warmup.max.s", "precision", "budget", "equivalence", "schedule", "lives"}

// runLevelError is the message for a run-level key used as a matrix axis
// or in a matrix value, or "" for any other key.
func runLevelError(key string) string {
	if c, ok := resolve(key); ok && strings.HasPrefix(c, "capacity.") {
		return fmt.Sprintf("%q is a setting of the capacity search, not a matrix axis: every scenario is searched under the same SLO (set it in capacity:)", key)
	}
	if !slices.Contains(runLevelKeys, key) {
		return ""
	}
	return fmt.Sprintf("%q is a setting of the whole run, not a matrix axis: every scenario shares it (set it at the top level)", key)
}

// matrix reads the matrix: a mapping of axis keys to lists of values, in
// file order. A scalar value sets the axis key; a map value sets each of its
// keys together and may be named by a "label" entry. An axis whose values
// are all maps may have any name.
func (p *fileParser) matrix(e *Experiment, n ast.Node) {
	entries, ok := p.mapping(n)
	if !ok {
		p.c.add(p.at(n).errorf("matrix must be a mapping of keys to lists of values"))
		return
	}
	for _, mv := range entries {
		key, kpos := p.key(mv)
		items, ok := p.sequence(mv.Value)
		if !ok {
			p.c.add(p.at(mv.Value).errorf("matrix axis %q must be a list of values", key))
			continue
		}
		if len(items) == 0 {
			p.c.add(kpos.errorf("matrix axis %q has no values", key))
			continue
		}
		if msg := runLevelError(key); msg != "" {
			p.c.add(kpos.errorf("%s", msg))
			continue
		}
		a := Axis{Key: key, pos: kpos, written: len(items)}
		a.canonical, _ = resolve(key)
		reported := false
		for i, it := range items {
			v, ok := p.matrixValue(e, &a, it, i, &reported)
			if ok {
				a.Values = append(a.Values, v)
			}
		}
		p.checkDuplicates(&a)
		e.Matrix = append(e.Matrix, a)
	}
	checkAxesOverlap(e.Matrix, p.c)
}

// matrixValue reads value number i (0-based) of axis a. reported keeps an
// unknown axis key from being reported once per value.
func (p *fileParser) matrixValue(e *Experiment, a *Axis, n ast.Node, i int, reported *bool) (Value, bool) {
	vpos := p.at(n)
	if entries, ok := p.mapping(n); ok && p.unwrap(n) != nil {
		if _, null := p.unwrap(n).(*ast.NullNode); !null {
			return p.matrixMap(e, a, entries, i, vpos)
		}
	}
	raw, ok := p.value(n, a.canonical != "" && isList(a.canonical), fmt.Sprintf("a value of matrix axis %q", a.Key))
	if !ok {
		return Value{}, false
	}
	if a.canonical == "" {
		if !*reported {
			*reported = true
			p.c.add(a.pos.errorf("unknown key %q in matrix%s", a.Key, keyHint(a.Key, tailKeys(a.Key), keyCandidates(a.Key))))
		}
		return Value{}, false
	}
	v, err := normalize(a.canonical, raw, e.dir)
	if err != nil {
		p.c.add(vpos.errorf("%v", err))
		return Value{}, false
	}
	label := raw
	if isSecret(a.canonical) {
		label = secretLabel(i)
	}
	return Value{Label: label, Set: map[string]string{a.canonical: v}, pos: vpos}, true
}

// isSecret reports whether the value of a setting is a secret
// (secret.IsKey of its property name). A secret never names a scenario:
// scenario IDs and labels reach results, reports and the terminal.
func isSecret(canonical string) bool {
	name := strings.TrimPrefix(canonical, producerPrefix)
	return secret.IsKey(strings.TrimPrefix(name, topicConfigsPrefix))
}

// secretLabel is the stable stand-in for the secret in value number i
// (0-based) of an axis: "#1", "#2", … in the order the matrix lists them.
func secretLabel(i int) string {
	return "#" + strconv.Itoa(i+1)
}

// maskSecrets returns a copy of set with every secret value hidden, for
// messages.
func maskSecrets(set map[string]string) map[string]string {
	out := make(map[string]string, len(set))
	for k, v := range set {
		if isSecret(k) {
			v = secret.Hidden
		}
		out[k] = v
	}
	return out
}

// matrixMap reads value number i of axis a when it is a map: several
// settings applied together.
func (p *fileParser) matrixMap(e *Experiment, a *Axis, entries []*ast.MappingValueNode, i int, vpos pos) (Value, bool) {
	v := Value{Set: map[string]string{}, pos: vpos, keyPos: map[string]pos{}}
	var parts []string
	ok := true
	for _, mv := range entries {
		key, kpos := p.key(mv)
		if key == labelKey {
			label, isScalar := p.scalar(mv.Value)
			if !isScalar || label == "" {
				p.c.add(p.at(mv.Value).errorf("label of a matrix value must be non-empty text"))
				ok = false
			}
			v.Label, v.labelled = label, true
			continue
		}
		if key == "faults" {
			if v.HasFaults {
				p.c.add(kpos.errorf("key %q is set twice in one matrix value", key))
				ok = false
				continue
			}
			fs, _ := p.faultList(mv.Value)
			v.Faults, v.HasFaults = fs, true
			v.keyPos["faults"] = kpos
			parts = append(parts, "faults="+faultsText(fs))
			continue
		}
		if msg := runLevelError(key); msg != "" {
			p.c.add(kpos.errorf("%s", msg))
			ok = false
			continue
		}
		canonical, known := resolve(key)
		if !known {
			p.c.add(kpos.errorf("unknown key %q in matrix value%s", key, keyHint(key, tailKeys(key), keyCandidates(key))))
			ok = false
			continue
		}
		if _, dup := v.Set[canonical]; dup {
			p.c.add(kpos.errorf("key %q is set twice in one matrix value", key))
			ok = false
			continue
		}
		raw, isValue := p.value(mv.Value, isList(canonical), key)
		if !isValue {
			ok = false
			continue
		}
		norm, err := normalize(canonical, raw, e.dir)
		if err != nil {
			p.c.add(p.at(mv.Value).errorf("%v", err))
			ok = false
			continue
		}
		v.Set[canonical] = norm
		v.keyPos[canonical] = kpos
		if isSecret(canonical) {
			raw = secretLabel(i)
		}
		parts = append(parts, shortName(canonical)+"="+raw)
	}
	if len(v.Set) == 0 && !v.HasFaults && ok {
		p.c.add(vpos.errorf("matrix value of axis %q sets no key", a.Key))
		return v, false
	}
	if v.Label == "" {
		v.Label = strings.Join(parts, ",")
	}
	return v, ok
}

// checkDuplicates reports values of one axis that share a label or apply
// exactly the same settings: they would be the same scenario twice.
func (p *fileParser) checkDuplicates(a *Axis) {
	labels := map[string]bool{}
	sets := map[string]bool{}
	for _, v := range a.Values {
		s, shown := setString(v.Set), setString(maskSecrets(v.Set))
		if v.HasFaults {
			s += ";faults=" + faultsText(v.Faults)
			shown += ";faults=" + faultsText(v.Faults)
		}
		switch {
		case labels[v.Label]:
			p.c.add(v.pos.errorf("duplicate value %q in matrix axis %q", v.Label, a.Key))
		case sets[s] && !v.labelled:
			// Labelled repeats are allowed: an A/A pair (the same settings
			// under two labels) is how the lab calibrates itself.
			p.c.add(v.pos.errorf("value %q of matrix axis %q repeats the settings of another value (%s)", v.Label, a.Key, shown))
		}
		labels[v.Label] = true
		sets[s] = true
	}
}

// setString is a canonical text form of a value's settings.
func setString(set map[string]string) string {
	keys := slices.Sorted(maps.Keys(set))
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := set[k]
		if name, ok := strings.CutPrefix(k, producerPrefix); ok {
			v = producerValue(name, v) // acks -1 and all are one setting
		}
		parts[i] = k + "=" + v
	}
	return strings.Join(parts, ",")
}

// checkAxesOverlap reports a key varied by more than one axis — as two axis
// keys, or as one axis key and a key inside another axis's map value, or
// inside map values of two axes — since the scenario would then depend on
// the order the axes are applied in.
func checkAxesOverlap(axes []Axis, c *collector) {
	owner := map[string]int{} // canonical key → index of the first axis setting it
	for i, a := range axes {
		// The keys this axis sets, each at the first place it appears.
		mine := map[string]pos{}
		if a.canonical != "" {
			mine[a.canonical] = a.pos
		}
		for _, v := range a.Values {
			for k := range v.Set {
				if _, seen := mine[k]; !seen {
					mine[k] = v.keyPosOf(k)
				}
			}
			if _, seen := mine["faults"]; v.HasFaults && !seen {
				mine["faults"] = v.keyPosOf("faults")
			}
		}
		keys := slices.Sorted(maps.Keys(mine))
		for _, k := range keys {
			j, taken := owner[k]
			if !taken {
				owner[k] = i
				continue
			}
			other := axes[j]
			switch {
			case other.canonical == k && a.canonical == k:
				c.add(a.pos.errorf("matrix axes %q and %q both vary %q", other.Key, a.Key, k))
			case other.canonical == k:
				c.add(mine[k].errorf("key %q is matrix axis %q and is also set inside a value of axis %q", k, other.Key, a.Key))
			case a.canonical == k:
				c.add(a.pos.errorf("key %q is matrix axis %q and is also set inside a value of axis %q", k, a.Key, other.Key))
			default:
				c.add(mine[k].errorf("key %q is set inside values of both matrix axes %q and %q", k, other.Key, a.Key))
			}
		}
	}
}

// keyPosOf is where a value sets key k: the key inside a map value, or the
// value itself for a scalar.
func (v Value) keyPosOf(k string) pos {
	if p, ok := v.keyPos[k]; ok {
		return p
	}
	return v.pos
}

// faultsText is a short canonical text form of a faults list, for labels
// and duplicate checks: "none" or "broker.kill@1500ms+connection.cut/40".
func faultsText(fs []Fault) string {
	if len(fs) == 0 {
		return "none"
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		t := f.Type
		if f.Broker >= 0 {
			t += fmt.Sprintf("(%d)", f.Broker)
		}
		if f.Every > 0 {
			t += fmt.Sprintf("/%d", f.Every)
		} else {
			t += "@" + strconv.FormatFloat(f.AtMs, 'f', -1, 64) + "ms"
		}
		parts[i] = t
	}
	return strings.Join(parts, "+")
}
