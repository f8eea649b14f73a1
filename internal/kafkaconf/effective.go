package kafkaconf

import (
	"strconv"
	"strings"
)

// Effective is a client's own report of the settings it ran with, in
// Java's names, defaults included (driver.Result.Effective, a result's
// EffectiveConfig). Its values are the client's text; these readers are
// the one place prodlab interprets them.
type Effective map[string]string

// AcksAll reports whether the client waited for the in-sync replicas:
// acks all, or its number form -1.
func (e Effective) AcksAll() bool {
	a := strings.TrimSpace(e[Acks])
	return a == "all" || a == "-1"
}

// InFlight is the requests in flight per connection the client reported,
// and whether it reported a positive whole number.
func (e Effective) InFlight() (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(e[MaxInFlight]))
	return n, err == nil && n >= 1
}

// BufferedRecords is the fewest records the client's buffer holds by the
// limits it reported (BufferedRecordsLimits), and whether it reported any
// as a positive number.
func (e Effective) BufferedRecords() (float64, bool) {
	least, ok := 0.0, false
	for _, k := range BufferedRecordsLimits {
		if n, err := strconv.ParseFloat(strings.TrimSpace(e[k]), 64); err == nil && n > 0 && (!ok || n < least) {
			least, ok = n, true
		}
	}
	return least, ok
}

// Transactional reports whether the client ran with a transactional.id.
func (e Effective) Transactional() bool { return e[TransactionalID] != "" }

// Same reports whether the client ran setting key as want, and whether it
// reported key at all: acks -1 is all, a transactional.id runs with
// prodlab's suffixes (RunsAsTransactionalID), and spaces around a value do
// not count.
func (e Effective) Same(key, want string) (same, reported bool) {
	got, ok := e[key]
	if !ok {
		return false, false
	}
	got, want = strings.TrimSpace(got), strings.TrimSpace(want)
	switch key {
	case TransactionalID:
		return RunsAsTransactionalID(got, want), true
	case Acks:
		return normalAcks(got) == normalAcks(want), true
	}
	return got == want, true
}

// normalAcks is acks in its word form: -1 is all.
func normalAcks(v string) string {
	if v == "-1" {
		return "all"
	}
	return v
}
