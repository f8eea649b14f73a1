package results

// Partitions is how a trial's measured records spread over its topic's
// partitions, counted from the acknowledgements (each names its
// partition). With keys the partitioner hashes them, so a skewed key space
// makes some partitions — and their batches — thicker than others.
type Partitions struct {
	// Count is the number of partitions of the topic.
	Count int `json:"count"`
	// Min and Max are the fewest and most records a partition got.
	Min int64 `json:"min"`
	Max int64 `json:"max"`
	// Skew is Max over the mean records per partition: 1 is an even
	// spread, Count means one partition got every record.
	Skew float64 `json:"skew"`
}

// PartitionSpread summarizes counts (records by partition; partitions that
// got none may be absent) over a topic of partitions partitions, or over
// as many as counts names when that is more. It returns nil when no record
// was counted.
func PartitionSpread(counts map[int32]int64, partitions int) *Partitions {
	var total int64
	n := partitions
	for p, c := range counts {
		total += c
		n = max(n, int(p)+1)
	}
	if total == 0 || n == 0 {
		return nil
	}
	s := &Partitions{Count: n, Max: 0, Min: -1}
	for p := range int32(n) {
		c := counts[p]
		s.Max = max(s.Max, c)
		if s.Min < 0 || c < s.Min {
			s.Min = c
		}
	}
	s.Skew = float64(s.Max) * float64(n) / float64(total)
	return s
}
