package expfile

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"

	"github.com/prodlab/prodlab/internal/keys"
)

// Defaults of workload.keys: keyless records, as before keys existed. The
// other defaults only matter once a distribution is chosen: 1,000 keys of
// 8 bytes, and a Zipf exponent of 1.2 (a skewed but not degenerate space).
const (
	DefaultKeyCount    = 1000
	DefaultKeySize     = 8
	DefaultKeyExponent = 1.2
)

// keySpaceFields are the settings of workload.keys (see package keys).
var keySpaceFields = []field{
	stringField("workload.keys.distribution", checkKeyDistribution, func(e *Experiment) *string { return &e.Workload.Keys.Distribution }),
	withHint(int64Field("workload.keys.count", 1, keys.MaxCount, func(e *Experiment) *int64 { return &e.Workload.Keys.Count }),
		"for keyless records write workload.keys.distribution: none"),
	intField("workload.keys.size", 1, keys.MaxSize, func(e *Experiment) *int { return &e.Workload.Keys.Size }),
	withHint(floatField("workload.keys.zipf.exponent", 0, math.Inf(1), true, func(e *Experiment) *float64 { return &e.Workload.Keys.Exponent }),
		"prodlab's Zipf sampler takes any finite exponent > 0 (1.2 is a common skew; 0.99 is YCSB's)"),
}

// defaultKeySpace is workload.keys when the file says nothing: keyless.
func defaultKeySpace() keys.Space {
	return keys.Space{Distribution: keys.None, Count: DefaultKeyCount, Size: DefaultKeySize, Exponent: DefaultKeyExponent}
}

// withHint appends a suggestion to the errors of f's normalize.
func withHint(f field, hint string) field {
	norm := f.normalize
	f.normalize = func(raw, dir string) (string, error) {
		v, err := norm(raw, dir)
		if err != nil {
			return "", fmt.Errorf("%w; %s", err, hint)
		}
		return v, nil
	}
	return f
}

// checkKeyDistribution accepts the distributions of package keys.
func checkKeyDistribution(raw, _ string) (string, error) {
	v := strings.ToLower(strings.TrimSpace(raw))
	if slices.Contains(keys.Distributions, v) {
		return v, nil
	}
	return "", fmt.Errorf("workload.keys.distribution must be one of %s, got %q%s",
		strings.Join(keys.Distributions, ", "), raw, didYouMean(v, keys.Distributions))
}

// checkKeys reports a keyed space whose settings contradict each other in
// one scenario: a key size too short to tell its keys apart.
func checkKeys(e *Experiment, report func(keys []string, format string, args ...any)) {
	ks := e.Workload.Keys
	checkUnusedKeySettings(ks, report)
	if !ks.Keyed() {
		return
	}
	if d := keys.Digits(ks.Count - 1); ks.Size < d {
		report([]string{"workload.keys.size", "workload.keys.count"},
			"workload.keys.size %d is too short for %d keys: keys are the key index in decimal, padded to the size, so it must be at least %d",
			ks.Size, ks.Count, d)
	}
}

// checkUnusedKeySettings refuses key settings the space's distribution
// does not use, written with other than their defaults: count and size of
// keyless records, and zipf.exponent of any distribution but zipf. They
// were accepted and then ignored.
func checkUnusedKeySettings(ks keys.Space, report reportFunc) {
	def := defaultKeySpace()
	unused := []struct {
		key   string
		moved bool
		keyed bool // used by every keyed distribution
	}{
		{"count", ks.Count != def.Count, true},
		{"size", ks.Size != def.Size, true},
		{"zipf.exponent", ks.Exponent != def.Exponent, false},
	}
	for _, u := range unused {
		if !u.moved || (u.keyed && ks.Keyed()) || (!u.keyed && ks.Distribution == keys.Zipf) {
			continue
		}
		uses := "a keyed distribution (" + strings.Join(keys.Distributions[1:], ", ") + ")"
		if !u.keyed {
			uses = "distribution " + keys.Zipf
		}
		report([]string{"workload.keys." + u.key, "workload.keys.distribution"},
			"workload.keys.%s applies to %s, but workload.keys.distribution is %s: it would be ignored (set the distribution, or drop %s)",
			u.key, uses, ks.Distribution, u.key)
	}
}

// keysYAML is workload.keys as YAML() writes it: nothing for the default
// (keyless) space, so that files without keys read as before, and every
// setting otherwise.
func keysYAML(ks keys.Space) yaml.MapSlice {
	if ks == defaultKeySpace() {
		return nil
	}
	return yaml.MapSlice{{Key: "keys", Value: yaml.MapSlice{
		{Key: "distribution", Value: ks.Distribution},
		{Key: "count", Value: ks.Count},
		{Key: "size", Value: ks.Size},
		{Key: "zipf.exponent", Value: number(ks.Exponent)},
	}}}
}

// distributionSuffix ends the key a setting's short form stands for: in a
// file "keys: uniform" is keys.distribution: uniform.
const distributionSuffix = ".distribution"

// resolveShort is resolve, also taking the short form of a key with a
// distribution ("workload.keys" for workload.keys.distribution), so that
// --set accepts what a file accepts.
func resolveShort(key string) (string, bool) {
	if c, ok := resolve(key); ok {
		return c, true
	}
	if strings.HasSuffix(key, distributionSuffix) {
		return "", false
	}
	return resolve(key + distributionSuffix)
}

// nestedEntry reads a section entry whose value is a mapping of the
// section's dotted leaves under leaf ("keys: {count: 1000}" for
// keys.count), recursively, or a scalar naming a distribution ("keys:
// none") for a leaf that has one. It returns false when leaf heads no
// setting, for the caller to report as unknown; a value of another shape
// under a leaf that does head settings is reported here, saying what it
// takes.
func (p *fileParser) nestedEntry(e *Experiment, sec, leaf string, n ast.Node, valid []string) bool {
	if !slices.ContainsFunc(valid, func(v string) bool { return strings.HasPrefix(v, leaf+".") }) {
		return false
	}
	var under []string
	for _, v := range valid {
		if rest, ok := strings.CutPrefix(v, leaf+"."); ok {
			under = append(under, rest)
		}
	}
	entries, ok := p.mapping(n)
	if !ok {
		// "keys: none" (or "keys: zipf") is short for keys.distribution.
		short := slices.Contains(valid, leaf+distributionSuffix)
		if _, scalar := p.scalar(n); scalar && short {
			p.setScalar(e, sec+"."+leaf+distributionSuffix, p.at(n), n)
			return true
		}
		if short { // a list: neither form
			p.c.add(p.at(n).errorf("%s.%s must be a distribution name (%s.%s: uniform) or a mapping of %s",
				sec, leaf, sec, leaf, strings.Join(under, ", ")))
			return true
		}
		// A heading of one setting ("network: {rtt: 20}"): the user
		// meant that setting, and "did you mean rtt.ms?" says so.
		if len(under) == 1 {
			return false
		}
		// A heading of several with a scalar or list: say what it takes,
		// not that the key is unknown ("capacity: {slo: 100}").
		p.c.add(p.at(n).errorf("%s.%s must be a mapping of %s, e.g. %s: {%s: {%s: …}}",
			sec, leaf, strings.Join(under, ", "), sec, leaf, under[0]))
		return true
	}
	for _, mv := range entries {
		key, kpos := p.key(mv)
		sub := leaf + "." + key
		switch {
		case slices.Contains(valid, sub):
			p.setScalar(e, sec+"."+sub, kpos, mv.Value)
		case p.nestedEntry(e, sec, sub, mv.Value, valid):
		default:
			p.c.add(kpos.errorf("unknown key %q in %s.%s%s", key, sec, leaf, keyHint(key, under, under)))
		}
	}
	return true
}
