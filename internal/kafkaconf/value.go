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
// per key, found through joins and wrapping alike; nil for nil or an
// error of another kind.
func SettingErrors(err error) []*SettingError {
	var out []*SettingError
	var walk func(error)
	walk = func(err error) {
		switch e := err.(type) { //nolint:errorlint // walks the wrapping itself, to reach every joined error
		case *SettingError:
			out = append(out, e)
		case interface{ Unwrap() []error }:
			for _, one := range e.Unwrap() {
				walk(one)
			}
		case interface{ Unwrap() error }:
			walk(e.Unwrap())
		}
	}
	walk(err)
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
// settings prodlab interprets (Producer), every setting's Value, and the
// text of every key as it was given (Raw), a refused one's too, which is
// what travels to a client (the Java worker, librdkafka) that reads its own
// words and judges its own values. A Settings is never changed: its
// methods return new ones, so copies may share it.
type Settings struct {
	Producer
	values map[string]Value
	raw    map[string]string
	err    error
}

// Read reads every setting of props (Decode) and returns its refusals
// (Err) beside it.
func Read(props map[string]string) (Settings, error) {
	s := Decode(props)
	return s, s.err
}

// Decode reads every setting of props: each value by its type
// (ReadValue), then those that read into Producer (Parse). A refused value
// is a *SettingError, one per key, kept in Err (errors.Join: the types'
// refusals in key order, then the typed view's); the settings that read
// are there even then, in Value and Producer alike, a refused one in
// neither, and every key's text in Raw. No props is the zero Settings.
func Decode(props map[string]string) Settings {
	if len(props) == 0 {
		return Settings{}
	}
	s := Settings{values: make(map[string]Value, len(props)), raw: maps.Clone(props)}
	var errs []error
	read := make(map[string]string, len(props))
	for _, k := range slices.Sorted(maps.Keys(props)) {
		v, err := ReadValue(k, props[k])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s.values[k] = v
		read[k] = props[k]
	}
	p, err := Parse(read)
	for _, se := range SettingErrors(err) {
		delete(s.values, se.Key)
		errs = append(errs, se)
	}
	s.Producer = p
	s.err = errors.Join(errs...)
	return s
}

// Err is what Decode refused: *SettingError values, joined; nil when every
// setting read.
func (s Settings) Err() error { return s.err }

// Raw is every setting's text as it was given, refused ones included: the
// form a client's own configuration takes. It is a fresh map, never nil.
func (s Settings) Raw() map[string]string {
	out := make(map[string]string, len(s.raw))
	maps.Copy(out, s.raw)
	return out
}

// Keys are every setting given, refused ones included, sorted.
func (s Settings) Keys() []string { return slices.Sorted(maps.Keys(s.raw)) }

// With is s with extra's settings added, extra's winning over s's; s
// itself when extra is empty.
func (s Settings) With(extra map[string]string) Settings {
	if len(extra) == 0 {
		return s
	}
	m := s.Raw()
	maps.Copy(m, extra)
	return Decode(m)
}

// WithSuffixedTransactionalID is s with its transactional.id suffixed as
// WithSuffixedTransactionalID does a map's; s itself without an id.
func (s Settings) WithSuffixedTransactionalID(suffix string) Settings {
	if s.raw[TransactionalID] == "" {
		return s
	}
	return Decode(WithSuffixedTransactionalID(s.raw, suffix))
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
