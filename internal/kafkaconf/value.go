package kafkaconf

import (
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// SettingError is a producer setting's value refused: Key is the setting
// as written (its own name or a librdkafka alias), so that a caller can
// point at it; Msg names the setting and the value.
type SettingError struct {
	Key, Msg string
}

func (e *SettingError) Error() string { return e.Msg }

// SettingErrors are the settings an error of Read or Parse refuses, one
// per key; nil for nil. An error of another kind is none of them.
func SettingErrors(err error) []*SettingError {
	var out []*SettingError
	var walk func(error)
	walk = func(err error) {
		var se *SettingError
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
		} else if errors.As(err, &se) {
			out = append(out, se)
		}
	}
	if err != nil {
		walk(err)
	}
	return out
}

// Value is one producer setting's value, checked against its type and
// Kafka's validators (CheckProducer) and read once by its type: an
// integer (Int, and Duration for a setting of milliseconds), a number
// (Float), a boolean (Bool) or text (Text, always, trimmed of spaces).
type Value struct {
	text string
	n    int64
	f    float64
	b    bool
}

// ReadValue reads v as a value of the producer setting name. A librdkafka
// setting, or a name prodlab does not know, reads as text.
func ReadValue(name, v string) (Value, error) {
	v = strings.TrimSpace(v)
	if err := CheckProducer(name, v); err != nil {
		return Value{}, &SettingError{Key: name, Msg: err.Error()}
	}
	out := Value{text: v}
	t, _ := ProducerType(name)
	switch t {
	case TypeInt, TypeLong, TypeShort:
		out.n, _ = strconv.ParseInt(v, 10, 64) // CheckProducer read it
	case TypeDouble:
		out.f, _ = strconv.ParseFloat(v, 64)
	case TypeBool:
		out.b = strings.EqualFold(v, "true")
	}
	return out, nil
}

// MustValue is ReadValue for a value written in code, which must read.
func MustValue(name, v string) Value {
	out, err := ReadValue(name, v)
	if err != nil {
		panic(err)
	}
	return out
}

// Text is the value as written, trimmed of spaces.
func (v Value) Text() string { return v.text }

// Int is an integer setting's value.
func (v Value) Int() int64 { return v.n }

// Duration is the value of an integer setting of milliseconds.
func (v Value) Duration() time.Duration { return time.Duration(v.n) * time.Millisecond }

// Float is a number setting's value.
func (v Value) Float() float64 { return v.f }

// Bool is a boolean setting's value.
func (v Value) Bool() bool { return v.b }

// Settings are a producer's settings read once: the typed view of the
// settings prodlab interprets (Producer) and every setting's Value.
type Settings struct {
	Producer
	values map[string]Value
}

// Read reads every setting of props: each value by its type
// (ReadValue), and the interpreted ones into Producer (Parse). A refused
// value is a *SettingError (errors.Join of one per key, in key order); the
// settings that read are there even then, and a refused one is not.
func Read(props map[string]string) (Settings, error) {
	s := Settings{values: make(map[string]Value, len(props))}
	var errs []error
	failed := map[string]bool{}
	for _, k := range slices.Sorted(maps.Keys(props)) {
		v, err := ReadValue(k, props[k])
		if err != nil {
			errs = append(errs, err)
			failed[k] = true
			continue
		}
		s.values[k] = v
	}
	p, err := Parse(props)
	s.Producer = p
	for _, se := range SettingErrors(err) {
		delete(s.values, se.Key)
		if !failed[se.Key] { // one message per key: the type's first
			errs = append(errs, se)
			failed[se.Key] = true
		}
	}
	return s, errors.Join(errs...)
}

// Value is the value of the setting name, and whether it was set and read.
func (s Settings) Value(name string) (Value, bool) {
	v, ok := s.values[name]
	return v, ok
}

// Names are the settings that read, sorted.
func (s Settings) Names() []string { return slices.Sorted(maps.Keys(s.values)) }

// TextValue is a value that reads as text only: what is shown in place of
// a setting's own value (a secret's).
func TextValue(text string) Value { return Value{text: text} }
