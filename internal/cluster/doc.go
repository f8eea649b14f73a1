// Package cluster runs embedded KRaft Kafka clusters on 127.0.0.1 for
// prodlab's experiments, and connects to external clusters (--bootstrap).
//
// An embedded cluster has one to MaxBrokers brokers, each also a KRaft
// controller unless Config.Controllers asks for separate controller nodes,
// on free loopback ports; every node's heap is sized from the machine's
// memory (memory.go). Broker properties (Config.ExtraProps) can be checked
// beforehand against the broker's own definitions (BrokerConfigDef). The Kafka jars come from Maven Central
// (through internal/maven, cached) or from a local Kafka distribution. Every
// node writes its configuration and data under Config.Dir and its log to
// Config.Dir/broker-<id>.log, never to the terminal.
//
// The JVMs are started through internal/proc, so they die with prodlab,
// unless Config.Detached asks for a cluster that outlives the command
// (`prodlab cluster up`); such a cluster is found again through a state
// file (SaveState, LoadState) and stopped with StopState.
package cluster
