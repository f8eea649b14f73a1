package kafkaconf

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// LibrdkafkaSpelledTwice groups the names among names that are one
// librdkafka setting in two spellings (its aliases: acks and
// request.required.acks, linger.ms and queue.buffering.max.ms, …), each
// group sorted, the groups by their first name; nil when every setting is
// written once. librdkafka keeps one of them, whichever it was given last,
// so a scenario that writes both runs with a value its label does not say.
func LibrdkafkaSpelledTwice(names []string) [][]string {
	by := map[string][]string{}
	for _, n := range names {
		if p, ok := Librdkafka(n); ok {
			by[p.Canonical()] = append(by[p.Canonical()], n)
		}
	}
	var out [][]string
	for _, group := range by {
		if len(group) > 1 {
			slices.Sort(group)
			out = append(out, group)
		}
	}
	slices.SortFunc(out, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	return out
}

// labOwned are the producer settings prodlab keeps for itself, in any
// client's words, with the reason: the cluster a trial reaches, and code or
// files a client would load or write outside the run.
var labOwned = map[string]string{
	"bootstrap.servers":    "the cluster comes from cluster: (prodlab starts it) or --bootstrap",
	"metadata.broker.list": "the cluster comes from cluster: (prodlab starts it) or --bootstrap",
	"plugin.library.paths": "it loads a shared library into the client: prodlab runs only the client's own code",
	"interceptor.classes":  "it loads classes into the client: prodlab runs only the client's own code",
	"metric.reporters":     "it loads classes into the client: prodlab runs only the client's own code",
	"log_cb":               "prodlab's librdkafka worker keeps the client's log",
	"log.queue":            "prodlab's librdkafka worker keeps the client's log",
	"stats_cb":             "prodlab's librdkafka worker reads the client's statistics itself",
}

// loadsCode are the lab-owned settings that name code to load: empty, they
// load none (metric.reporters empty turns the JMX reporter off).
var loadsCode = map[string]bool{"plugin.library.paths": true, "interceptor.classes": true, "metric.reporters": true}

// LabOwned says why prodlab keeps the producer setting name for itself
// ("" when it does not, or when value, empty, loads no code): a scenario
// may not set it, for any client.
func LabOwned(name, value string) string {
	if loadsCode[name] && strings.TrimSpace(value) == "" {
		return ""
	}
	return labOwned[name]
}

// octalLike is an integer written with a leading zero, which librdkafka
// (strtol, base 0) reads in octal and prodlab would read in decimal.
var octalLike = regexp.MustCompile(`^[-+]?0[0-9]`)

// librdkafkaRange is a numeric range column: "1 .. 1000000".
var librdkafkaRange = regexp.MustCompile(`^(-?[0-9.e+]+) \.\. (-?[0-9.e+]+)$`)

// CheckValue refuses a value of a numeric property outside librdkafka's own
// range, or not a number, quoting it as written: librdkafka converts
// before it checks, so 2^32 + 1000 records per batch ran as 1000 and a
// 2^40-KiB buffer was refused as "0". Values of other types are
// librdkafka's to judge (the worker's check).
func (p LibrdkafkaProp) CheckValue(v string) error {
	m := librdkafkaRange.FindStringSubmatch(p.Range)
	switch p.Type {
	case "integer":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || octalLike.MatchString(v) { // librdkafka's strtol reads 010 as 8
			return fmt.Errorf("%s must be an integer%s, got %q", p.Name, rangeWords(m), v)
		}
		if m != nil {
			lo, _ := strconv.ParseInt(m[1], 10, 64)
			hi, _ := strconv.ParseInt(m[2], 10, 64)
			if n < lo || n > hi {
				return fmt.Errorf("%s must be an integer%s, got %q", p.Name, rangeWords(m), v)
			}
		}
	case "float":
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%s must be a number%s, got %q", p.Name, rangeWords(m), v)
		}
		if m != nil {
			lo, _ := strconv.ParseFloat(m[1], 64)
			hi, _ := strconv.ParseFloat(m[2], 64)
			if f < lo || f > hi {
				return fmt.Errorf("%s must be a number%s, got %q", p.Name, rangeWords(m), v)
			}
		}
	}
	return nil
}

// rangeWords is " in LO..HI" for a range column's match, "" for none.
func rangeWords(m []string) string {
	if m == nil {
		return ""
	}
	return " in " + m[1] + ".." + m[2]
}
