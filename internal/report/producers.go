package report

import (
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// The columns of many producers and end-to-end latency: each producer's
// own throughput when a trial ran several (workload.producers), and the
// P99 from hand-off to consumed when a consumer read the topic
// (workload.consumer), beside the send→ack percentiles. Each appears only
// when some counted trial has the figure.
var producerColumns = []column{
	{head: "MSG/S PER PROD", side: "producers", md: "msg/s per producer", csv: "records_per_s_per_producer", unit: "records/s", in: inAll,
		when: func(scs []scenario) bool { return anyN(scs, perProducer) },
		text: figure(perProducer, f0), sum: perProducer},
	{head: "E2E P99 ms", side: "producers", md: "e2e p99 ms", csv: "e2e_p99_ms", unit: "ms", in: inAll,
		when: func(scs []scenario) bool { return anyN(scs, e2eP99) },
		text: e2eCell, sum: e2eP99},
}

// perProducer summarises, over the counted trials run by several
// producers, the mean of their producers' own throughputs.
func perProducer(s *scenario) stats.Summary {
	return countedSummary(s, func(r *results.Record) (float64, bool) {
		if len(r.Producers) == 0 {
			return 0, false
		}
		var sum float64
		for _, p := range r.Producers {
			sum += p.RecordsPerS
		}
		return sum / float64(len(r.Producers)), true
	})
}

// e2eP99 summarises the counted trials' end-to-end P99.
func e2eP99(s *scenario) stats.Summary {
	return countedSummary(s, func(r *results.Record) (float64, bool) {
		if r.LatencyE2EMs == nil {
			return 0, false
		}
		return r.LatencyE2EMs.P99, true
	})
}

// e2eCell is the end-to-end P99 cell, formatted as the send→ack latency
// cells (the mean of the trials' P99 with its error).
func e2eCell(s *scenario) string {
	sum := e2eP99(s)
	if s.Trials == 0 || sum.N == 0 {
		return none
	}
	return latencyCell(sum.Mean, sum)
}
