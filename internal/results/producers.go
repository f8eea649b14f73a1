package results

// Producer is one producer instance's share of a trial run by several
// (workload.producers): its measured records and its own throughput over
// its own measured window.
type Producer struct {
	Records     Records `json:"records"`
	RecordsPerS float64 `json:"records_per_s"`
	ElapsedS    float64 `json:"elapsed_s"`
}
