package kafkaconf

import (
	"slices"
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

// LabOwned says why prodlab keeps the producer setting name for itself
// ("" when it does not): a scenario may not set it, for any client.
func LabOwned(name string) string { return labOwned[name] }
