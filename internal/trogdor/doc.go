// Package trogdor runs a local Trogdor fleet (Apache Kafka's distributed
// workload engine) for prodlab: one coordinator and N agents on 127.0.0.1,
// each a JVM with the trogdor release's jars (from Maven Central through
// internal/maven, cached) and prodlab's Java worker jar on its class path, so
// that the agents can run dev.prodlab.worker.trogdor.ProduceTaskSpec tasks.
//
// The JVMs are started through internal/proc, so they die with prodlab,
// unless Config.Detached asks for a fleet that outlives the command
// (`prodlab trogdor up`); such a fleet is found again through a state file
// (SaveState, LoadState, under a lock: LockState) and stopped with StopState,
// as `prodlab cluster up` does for brokers.
//
// Client speaks the coordinator's REST API (status, tasks, task creation).
package trogdor
