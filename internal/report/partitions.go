package report

import (
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// The partition columns show how records spread over partitions and how
// thick their batches got, so that "more partitions, thinner batches" (and
// a skewed key space's hot partition) can be read off a keyed experiment.
// They appear when some trial counted records by partition.

// partitionColumns are the registry entries of the partition figures.
var partitionColumns = []column{
	{head: "REC/BATCH", side: "partitions", md: "records/batch", csv: "records_per_batch", unit: "records", in: inAll,
		when: hasPartitions,
		text: figure(recordsPerBatch, f1), sum: recordsPerBatch},
	{head: "PART SKEW", side: "partitions", md: "partition skew", csv: "partition_skew", unit: "max/mean", in: inAll,
		when: hasPartitions,
		text: figure(partitionSkew, ratio), sum: partitionSkew},
}

// hasPartitions reports whether some counted trial has partition figures.
func hasPartitions(scs []scenario) bool {
	for i := range scs {
		for _, r := range scs[i].Counted {
			if r.Partitions != nil {
				return true
			}
		}
	}
	return false
}

// recordsPerBatch summarises the counted trials' records per batch.
func recordsPerBatch(s *scenario) stats.Summary {
	return countedSummary(s, func(r *results.Record) (float64, bool) { return r.RecordsPerBatch, r.Batches > 0 })
}

// partitionSkew summarises the counted trials' partition skew (max/mean).
func partitionSkew(s *scenario) stats.Summary {
	return countedSummary(s, func(r *results.Record) (float64, bool) {
		if r.Partitions == nil {
			return 0, false
		}
		return r.Partitions.Skew, true
	})
}

// countedSummary summarises the figure of each counted trial that has it.
func countedSummary(s *scenario, fig func(*results.Record) (float64, bool)) stats.Summary {
	var xs []float64
	for i := range s.Counted {
		if v, ok := fig(&s.Counted[i]); ok {
			xs = append(xs, v)
		}
	}
	return stats.Summarize(xs, stats.DefaultConfidence)
}
