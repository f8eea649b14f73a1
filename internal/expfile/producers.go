package expfile

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/prodlab/prodlab/internal/figures"
)

// MaxProducers bounds workload.producers. Every producer instance is its
// own client with its own buffer (32 MB by default in Java) and
// connections, all in prodlab's process or one worker JVM on a shared
// 2-core machine: beyond a few dozen the figures measure the host's
// scheduler, not Kafka.
const MaxProducers = 64

// producersFields are the settings of many producers and end-to-end
// latency: workload.producers instances share the trial's records and
// rate; workload.consumer reads the topic while it is written.
var producersFields = []field{
	withHint(intField("workload.producers", 1, MaxProducers, func(e *Experiment) *int { return &e.Workload.Producers }),
		"the limit is there because each producer is its own client, buffer and connections on this one host"),
	boolField("workload.consumer", func(e *Experiment) *bool { return &e.Workload.Consumer }),
	stringField("workload.isolation.level", checkIsolation, func(e *Experiment) *string { return &e.Workload.IsolationLevel }),
}

// The values of workload.isolation.level (Kafka's isolation.level).
const (
	ReadUncommitted = "read_uncommitted"
	ReadCommitted   = "read_committed"
)

// checkIsolation accepts Kafka's isolation.level values.
func checkIsolation(raw, _ string) (string, error) {
	switch raw {
	case ReadUncommitted, ReadCommitted:
		return raw, nil
	}
	return "", fmt.Errorf("workload.isolation.level must be read_uncommitted or read_committed (Kafka's isolation.level), got %q", raw)
}

// checkProducers refuses a burst with fewer records than producers, and
// a steady-state window in which a producer's share of workload.rate
// offers less than one record: some producer would have nothing to send.
func checkProducers(e *Experiment, report func(keys []string, format string, args ...any)) {
	w := e.Workload
	if w.Producers > 1 && w.DurationS <= 0 && w.Records < int64(w.Producers) {
		report([]string{"workload.records", "workload.producers"},
			"workload.records %d is fewer than workload.producers %d: every producer needs at least one record", w.Records, w.Producers)
	}
	if w.IsolationLevel != "" && !w.Consumer {
		report([]string{"workload.isolation.level", "workload.consumer"},
			"workload.isolation.level is the end-to-end consumer's: set workload.consumer: true (or remove workload.isolation.level)")
	}
	if !w.Consumer {
		var e2e []string
		for _, q := range figures.SLOPercentiles {
			if _, ok := e.Capacity.SLO[q.Key]; ok && q.E2E {
				e2e = append(e2e, "capacity.slo."+q.Name+".ms")
			}
		}
		if len(e2e) > 0 {
			report(append(e2e, "workload.consumer"), "%s bounds the end-to-end latency, which only a consumer reading the topic measures: set workload.consumer: true (or bound a percentile from the intended send time, such as %s)",
				e.sloName(e2e[0]), e.sloName(strings.Replace(e2e[0], "e2e.", "", 1)))
		}
	}
	n := float64(max(1, w.Producers))
	if w.Rate <= 0 || w.DurationS <= 0 || w.Rate/n*w.DurationS >= 1 {
		return
	}
	keys := []string{"workload.rate", "workload.producers", "workload.duration.s"}
	if n == 1 {
		report(keys, "workload.rate %g records/s offers %.3g records in the %g s window (workload.duration.s): the producer would send nothing measured; raise the rate to at least %.3g, or the window to at least %.3g s",
			w.Rate, w.Rate*w.DurationS, w.DurationS, 1/w.DurationS, 1/w.Rate)
		return
	}
	report(keys, "workload.rate %g records/s over workload.producers %d is %.3g records/s each, %.3g records in the %g s window (workload.duration.s): producers would send nothing measured; raise the rate to at least %.3g, the window to at least %.3g s, or use fewer producers",
		w.Rate, w.Producers, w.Rate/n, w.Rate/n*w.DurationS, w.DurationS, n/w.DurationS, n/w.Rate)
}

// producersYAML is workload.producers and workload.consumer as YAML()
// writes them: nothing for the defaults (one producer, no consumer), so
// that files without them read as before.
func producersYAML(w Workload) yaml.MapSlice {
	var out yaml.MapSlice
	if w.Producers > 1 {
		out = append(out, yaml.MapItem{Key: "producers", Value: w.Producers})
	}
	if w.Consumer {
		out = append(out, yaml.MapItem{Key: "consumer", Value: true})
	}
	if w.IsolationLevel != "" {
		out = append(out, yaml.MapItem{Key: "isolation.level", Value: w.IsolationLevel})
	}
	return out
}
