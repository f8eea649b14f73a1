package results

// Producer is one producer instance's share of a trial run by several
// (workload.producers): its measured records and its own throughput over
// its own measured window. A trial on a Trogdor fleet records each
// node's producers here, with the node's name.
type Producer struct {
	Records     Records `json:"records"`
	RecordsPerS float64 `json:"records_per_s"`
	ElapsedS    float64 `json:"elapsed_s"`
	// Node is the Trogdor agent that ran the producer (prodlab run
	// --trogdor), absent for a local trial.
	Node string `json:"node,omitempty"`
	// NodeCPUS is the CPU time, in seconds, of the process that ran the
	// producer on its Trogdor node (the franz-go or librdkafka worker, or
	// the agent's JVM during the trial), shared by a node's producers;
	// absent for a local trial, whose client CPU is the record's cpu.
	NodeCPUS float64 `json:"node_cpu_s,omitempty"`
}
