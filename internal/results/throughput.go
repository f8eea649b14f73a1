package results

import "time"

// MB is the megabyte of every MB/s figure: 2^20 bytes, as
// kafka-producer-perf-test counts it.
const MB = 1 << 20

// MBPerS is the throughput of bytes moved in elapsed, in MB (2^20 bytes)
// per second; 0 when no time passed. `run`, `perf` and the reports use it
// for Throughput.MBPerS, so their figures agree.
func MBPerS(bytes int64, elapsed time.Duration) float64 {
	s := elapsed.Seconds()
	if s <= 0 {
		return 0
	}
	return float64(bytes) / s / MB
}

// ThroughputOf is the one definition of a trial's throughput: acked
// records and their value bytes over elapsed, zero when no time passed.
// The lab (whole trial, or a steady state's sending window) and `perf`
// both use it.
func ThroughputOf(acked, bytes int64, elapsed time.Duration) Throughput {
	s := elapsed.Seconds()
	if s <= 0 {
		return Throughput{}
	}
	return Throughput{RecordsPerS: float64(acked) / s, MBPerS: MBPerS(bytes, elapsed)}
}
