// Package cluster runs embedded KRaft Kafka clusters on 127.0.0.1 for
// prodlab's experiments, and connects to external clusters (--bootstrap).
//
// An embedded cluster has one to three nodes, each both broker and
// controller, on free loopback ports. The Kafka jars come from Maven Central
// (through internal/maven, cached) or from a local Kafka distribution. Every
// node writes its configuration and data under Config.Dir and its log to
// Config.Dir/broker-<id>.log, never to the terminal.
//
// The JVMs are started through internal/proc, so they die with prodlab,
// unless Config.Detached asks for a cluster that outlives the command
// (`prodlab cluster up`); such a cluster is found again through a state
// file (SaveState, LoadState) and stopped with StopState.
package cluster
