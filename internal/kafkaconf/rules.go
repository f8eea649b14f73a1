package kafkaconf

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Rules are the value rules of one namespace of Kafka properties
// (producer or topic) beyond their ConfigDef type: Kafka's validators
// (ConfigDef.Range, ValidString, ValidList and their kin) written as data,
// so that a value Kafka would refuse is refused before anything starts.
type Rules struct {
	// Ints are the ranges of integer settings where they are not simply
	// "at least 0".
	Ints map[string][2]int64
	// IntAlso is one value accepted outside an integer's range, as
	// compression.gzip.level accepts -1 (the codec's default) besides 1..9.
	IntAlso map[string]int64
	// Doubles are the ranges of floating-point settings.
	Doubles map[string][2]float64
	// Enums are the accepted values of enumerated settings; for a list
	// setting, of each of its elements.
	Enums map[string][]string
	// FoldEnums are the enumerated settings Kafka reads in any case
	// (ConfigDef.CaseInsensitiveValidString).
	FoldEnums map[string]bool
	// Patterns are the accepted forms of free-text settings.
	Patterns map[string]Pattern
}

// Pattern is the accepted form of a setting's value (of each element, for a
// list), and how messages describe it.
type Pattern struct {
	RE   *regexp.Regexp
	Want string
}

// Check checks a Kafka configuration value against its ConfigDef type and
// the rules of its namespace.
func (r Rules) Check(name, v string, t Type) error {
	if t == TypeList {
		return r.checkList(name, v)
	}
	if allowed, ok := r.Enums[name]; ok && !slices.ContainsFunc(allowed, func(a string) bool { return a == v || r.FoldEnums[name] && strings.EqualFold(a, v) }) {
		anyCase := ""
		if r.FoldEnums[name] {
			anyCase = " (in any case)"
		}
		return fmt.Errorf("%s must be one of %s%s, got %q", name, strings.Join(allowed, ", "), anyCase, v)
	}
	if p, ok := r.Patterns[name]; ok && !p.RE.MatchString(v) {
		return fmt.Errorf("%s must be %s, got %q", name, p.Want, v)
	}
	switch t {
	case TypeInt, TypeLong, TypeShort:
		return r.checkInt(name, v, t)
	case TypeDouble:
		return r.checkDouble(name, v)
	case TypeBool:
		if !strings.EqualFold(v, "true") && !strings.EqualFold(v, "false") {
			return fmt.Errorf("%s must be true or false, got %q", name, v)
		}
	}
	return nil
}

// checkList checks each element of a comma-separated list value, as Kafka's
// ValidList does; an empty list has no element to refuse.
func (r Rules) checkList(name, v string) error {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	allowed, isEnum := r.Enums[name]
	p, hasPattern := r.Patterns[name]
	for _, el := range strings.Split(v, ",") {
		el = strings.TrimSpace(el)
		if isEnum && !slices.Contains(allowed, el) {
			return fmt.Errorf("%s must be a list of %s, got %q", name, strings.Join(allowed, ", "), el)
		}
		if hasPattern && !p.RE.MatchString(el) {
			return fmt.Errorf("%s must be %s, got %q", name, p.Want, v)
		}
	}
	return nil
}

// checkInt checks an integer setting against its range (r.Ints, else at
// least 0) and its one extra value (r.IntAlso).
func (r Rules) checkInt(name, v string, t Type) error {
	bits := map[Type]int{TypeInt: 32, TypeLong: 64, TypeShort: 16}[t]
	n, err := strconv.ParseInt(v, 10, bits)
	rg, ok := r.Ints[name]
	if !ok {
		rg = [2]int64{0, 1<<(bits-1) - 1}
	}
	want := RangeText(rg[0], rg[1])
	also, hasAlso := r.IntAlso[name]
	if hasAlso {
		want += fmt.Sprintf(" or %d", also)
	}
	if err != nil || (n < rg[0] || n > rg[1]) && (!hasAlso || n != also) {
		return fmt.Errorf("%s must be an integer %s, got %q", name, want, v)
	}
	return nil
}

// checkDouble checks a floating-point setting against its range, if any.
func (r Rules) checkDouble(name, v string) error {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return fmt.Errorf("%s must be a number, got %q", name, v)
	}
	if rg, ok := r.Doubles[name]; ok && (math.IsNaN(f) || f < rg[0] || f > rg[1]) {
		return fmt.Errorf("%s must be a number in %g..%g, got %q", name, rg[0], rg[1], v)
	}
	return nil
}

// RangeText writes an integer range for messages: "in 1..3", or "≥ 0" when
// the upper bound is the type's maximum.
func RangeText(lo, hi int64) string {
	if hi == math.MaxInt16 || hi == math.MaxInt32 || hi == math.MaxInt64 {
		return fmt.Sprintf("≥ %d", lo)
	}
	return fmt.Sprintf("in %d..%d", lo, hi)
}
