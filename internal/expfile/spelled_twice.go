package expfile

import (
	"maps"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// checkSpelledTwice refuses one librdkafka setting written in two of its
// spellings in a scenario (producer:, a matrix value, --set): librdkafka
// keeps one of them, so a matrix over acks beside a fixed
// request.required.acks ran every scenario with the fixed value while the
// labels said otherwise.
func checkSpelledTwice(e *Experiment, report reportFunc) {
	cl, err := clients.Parse(e.Client)
	if err != nil || cl.Kind.SpelledTwice == nil {
		return
	}
	for _, group := range cl.Kind.SpelledTwice(slices.Collect(maps.Keys(e.Producer))) {
		keys := make([]string, len(group))
		for i, n := range group {
			keys[i] = producerPrefix + n
		}
		p, _ := kafkaconf.Librdkafka(group[0])
		report(keys, "%s are one %s setting (%s) written %d ways: %s keeps one of them, whatever the labels say; write it once",
			strings.Join(group, " and "), cl.Kind.Name, p.Canonical(), len(group), cl.Kind.Name)
	}
}

// checkLabOwned refuses the producer settings prodlab keeps for itself
// (kafkaconf.LabOwned): the cluster the trial reaches, code the client
// would load.
func checkLabOwned(e *Experiment, report reportFunc) {
	for _, n := range slices.Sorted(maps.Keys(e.Producer)) {
		if why := kafkaconf.LabOwned(n, e.Producer[n]); why != "" {
			report([]string{producerPrefix + n}, "producer property %s is prodlab's to set, not a scenario's: %s", n, why)
		}
	}
}

// checkClientTwice refuses a client axis that names one client twice
// (librdkafka and librdkafka@2.11.1, the release it bundles; java and
// java@X where cluster.kafka is X and no axis varies it): the same
// scenario twice under two labels, unless the values are labelled (an
// A/A pair).
func checkClientTwice(e *Experiment, c *collector) {
	kafkaVaried := slices.ContainsFunc(e.Matrix, func(a Axis) bool { return a.canonical == "cluster.kafka" })
	for _, a := range e.Matrix {
		seen := map[string]string{}
		for _, v := range a.Values {
			name, ok := v.Set["client"]
			if !ok || v.labelled {
				continue
			}
			form := clientForm(name, e.Cluster.Kafka, kafkaVaried)
			if first, dup := seen[form]; dup {
				c.add(v.pos.errorf("value %q of matrix axis %q names client %s again (as %q): one client, two spellings", v.Label, a.Key, form, first))
				continue
			}
			seen[form] = name
		}
	}
}

// clientForm is the release a client name selects, as kind@release where
// it is known before anything starts: a bundled release, or an unversioned
// java beside a fixed cluster.kafka release.
func clientForm(name, kafka string, kafkaVaried bool) string {
	cl, err := clients.Parse(name)
	if err != nil {
		return name
	}
	switch {
	case cl.Version != "":
		return cl.Kind.Name + "@" + cl.Version
	case cl.Kind.Bundled != "":
		return cl.Kind.Name + "@" + cl.Kind.Bundled
	case cl.Kind.Versioned && !kafkaVaried && versionLike(kafka):
		return cl.Kind.Name + "@" + kafka
	}
	return name
}

// versionLike reports whether a cluster.kafka value is a release (not ""
// for the pinned default, nor a distribution's path).
func versionLike(kafka string) bool {
	return kafka != "" && !strings.ContainsRune(kafka, '/')
}
