// Package expfile turns an experiment file (YAML) into a validated Experiment and
// expands its matrix into Scenarios.
//
// An experiment names every setting by a dotted canonical key
// (cluster.brokers, topic.configs.min.insync.replicas, producer.linger.ms, …).
// The same keys, or their unambiguous shorthands, are used by matrix axes and
// by --set overrides, so that one resolver and one set of value checks serve
// all three. Validation is complete before anything runs: every problem is
// collected into an Errors value whose entries point at file:line:col.
//
// The package knows nothing about clusters or drivers; it only describes what
// should be run.
package expfile
