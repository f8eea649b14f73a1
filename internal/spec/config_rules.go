package spec

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// configRules are the value rules of one namespace of Kafka properties
// (producer or topic) beyond their ConfigDef type: Kafka's validators
// (ConfigDef.Range, ValidString, ValidList and their kin) written as data,
// so that a value Kafka would refuse is refused before anything starts.
type configRules struct {
	// ints are the ranges of integer settings where they are not simply
	// "at least 0".
	ints map[string][2]int64
	// intAlso is one value accepted outside an integer's range, as
	// compression.gzip.level accepts -1 (the codec's default) besides 1..9.
	intAlso map[string]int64
	// doubles are the ranges of floating-point settings.
	doubles map[string][2]float64
	// enums are the accepted values of enumerated settings; for a list
	// setting, of each of its elements.
	enums map[string][]string
	// patterns are the accepted forms of free-text settings.
	patterns map[string]pattern
}

// pattern is the accepted form of a setting's value (of each element, for a
// list), and how messages describe it.
type pattern struct {
	re   *regexp.Regexp
	want string
}

// producerRules are the value rules of producer settings.
var producerRules = configRules{ints: producerIntRanges, intAlso: producerIntAlso, enums: producerEnums}

// checkConfig checks a Kafka configuration value against its ConfigDef type
// and the rules of its namespace.
func checkConfig(name, v string, t configType, r configRules) error {
	if t == typeList {
		return r.checkList(name, v)
	}
	if allowed, ok := r.enums[name]; ok && !slices.Contains(allowed, v) {
		return fmt.Errorf("%s must be one of %s, got %q", name, strings.Join(allowed, ", "), v)
	}
	if p, ok := r.patterns[name]; ok && !p.re.MatchString(v) {
		return fmt.Errorf("%s must be %s, got %q", name, p.want, v)
	}
	switch t {
	case typeInt, typeLong, typeShort:
		return r.checkInt(name, v, t)
	case typeDouble:
		return r.checkDouble(name, v)
	case typeBool:
		if !strings.EqualFold(v, "true") && !strings.EqualFold(v, "false") {
			return fmt.Errorf("%s must be true or false, got %q", name, v)
		}
	}
	return nil
}

// checkList checks each element of a comma-separated list value, as Kafka's
// ValidList does; an empty list has no element to refuse.
func (r configRules) checkList(name, v string) error {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	allowed, isEnum := r.enums[name]
	p, hasPattern := r.patterns[name]
	for _, el := range strings.Split(v, ",") {
		el = strings.TrimSpace(el)
		if isEnum && !slices.Contains(allowed, el) {
			return fmt.Errorf("%s must be a list of %s, got %q", name, strings.Join(allowed, ", "), el)
		}
		if hasPattern && !p.re.MatchString(el) {
			return fmt.Errorf("%s must be %s, got %q", name, p.want, v)
		}
	}
	return nil
}

// checkInt checks an integer setting against its range (r.ints, else at
// least 0) and its one extra value (r.intAlso).
func (r configRules) checkInt(name, v string, t configType) error {
	bits := map[configType]int{typeInt: 32, typeLong: 64, typeShort: 16}[t]
	n, err := strconv.ParseInt(v, 10, bits)
	rg, ok := r.ints[name]
	if !ok {
		rg = [2]int64{0, 1<<(bits-1) - 1}
	}
	want := rangeText(rg[0], rg[1])
	also, hasAlso := r.intAlso[name]
	if hasAlso {
		want += fmt.Sprintf(" or %d", also)
	}
	if err != nil || (n < rg[0] || n > rg[1]) && (!hasAlso || n != also) {
		return fmt.Errorf("%s must be an integer %s, got %q", name, want, v)
	}
	return nil
}

// checkDouble checks a floating-point setting against its range, if any.
func (r configRules) checkDouble(name, v string) error {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return fmt.Errorf("%s must be a number, got %q", name, v)
	}
	if rg, ok := r.doubles[name]; ok && (math.IsNaN(f) || f < rg[0] || f > rg[1]) {
		return fmt.Errorf("%s must be a number in %g..%g, got %q", name, rg[0], rg[1], v)
	}
	return nil
}
