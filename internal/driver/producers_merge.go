package driver

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// mergeResults merges the results of a trial's producers (parts[i] ran
// shares[i]; nil for a producer that measured nothing) into one: counts and
// byte totals add, histograms merge, the measured window runs from the
// first producer's start to the last one's flush, timelines add point by
// point, and each producer's own figures go to Result.Producers. Effective
// settings are producer 1's (all share them); client metrics are the mean
// over the producers, except counts and totals (summedMetric), which add,
// and the per-batch figures, recomputed from totals.
func mergeResults(shares []Trial, parts []*Result) *Result {
	res := &Result{Errors: map[string]int64{}, Metrics: map[string]float64{}, PartitionRecords: map[int32]int64{}}
	res.Latency = NewLatencyHistogram()
	var logs []string
	var metricN map[string]int
	for i, p := range parts {
		res.Producers = append(res.Producers, producerOf(shares[i], p))
		if p == nil {
			continue
		}
		addCounts(res, p)
		mergeHist(&res.Latency, p.Latency)
		mergeHist(&res.LatencyIntended, p.LatencyIntended)
		mergeHist(&res.WarmupLatency, p.WarmupLatency)
		if res.Client == "" {
			res.Client, res.Effective = p.Client, p.Effective
		}
		if p.Log != "" && !slices.Contains(logs, p.Log) {
			logs = append(logs, p.Log)
		}
		metricN = addMetrics(res.Metrics, metricN, p.Metrics)
		res.Timeline = addTimeline(res.Timeline, p.Timeline)
	}
	for k, n := range metricN {
		if !summedMetric(k) {
			res.Metrics[k] /= float64(n)
		}
	}
	if res.Batches > 0 {
		res.Metrics["batch-size-avg"] = float64(res.CompressedBytes) / float64(res.Batches)
		res.Metrics["records-per-batch-avg"] = float64(res.Acked+res.WarmupAcked) / float64(res.Batches)
	}
	res.Log = strings.Join(logs, "\n")
	setWindow(res, parts)
	return res
}

// producerOf is one producer's own figures.
func producerOf(t Trial, p *Result) ProducerResult {
	pr := ProducerResult{Tag: t.Tag}
	if p != nil {
		pr.Sent, pr.Acked, pr.Failed, pr.WarmupSent = p.Sent, p.Acked, p.Failed, p.WarmupSent
		pr.Elapsed, pr.Acks = p.Elapsed, p.Acks
	}
	return pr
}

// addCounts adds p's counts and byte totals to res.
func addCounts(res, p *Result) {
	res.Sent += p.Sent
	res.Acked += p.Acked
	res.Failed += p.Failed
	res.WarmupSent += p.WarmupSent
	res.WarmupAcked += p.WarmupAcked
	res.UncompressedBytes += p.UncompressedBytes
	res.CompressedBytes += p.CompressedBytes
	res.Batches += p.Batches
	res.ProduceRequests += p.ProduceRequests
	for k, v := range p.Errors {
		res.Errors[k] += v
	}
	for k, v := range p.WarmupErrors {
		if res.WarmupErrors == nil {
			res.WarmupErrors = map[string]int64{}
		}
		res.WarmupErrors[k] += v
	}
	for k, v := range p.PartitionRecords {
		res.PartitionRecords[k] += v
	}
}

// mergeHist merges from into *into, creating it when nil.
func mergeHist(into **hdrhistogram.Histogram, from *hdrhistogram.Histogram) {
	if from == nil {
		return
	}
	if *into == nil {
		*into = NewLatencyHistogram()
	}
	(*into).Merge(from)
}

// addMetrics adds m into sum, counting how many producers reported each
// metric in n (created on first use), for a mean.
func addMetrics(sum map[string]float64, n map[string]int, m map[string]float64) map[string]int {
	if n == nil {
		n = map[string]int{}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		sum[k] += m[k]
		n[k]++
	}
	return n
}

// setWindow places the merged clock and measured window: the clock starts
// at the earliest producer's first send; the window runs from the earliest
// measured start to the latest end.
func setWindow(res *Result, parts []*Result) {
	var first, from, end time.Time
	for _, p := range parts {
		if p == nil || p.ClockStart.IsZero() {
			continue
		}
		s := p.ClockStart.Add(p.MeasuredFrom)
		if first.IsZero() || p.ClockStart.Before(first) {
			first = p.ClockStart
		}
		if from.IsZero() || s.Before(from) {
			from = s
		}
		if e := s.Add(p.Elapsed); e.After(end) {
			end = e
		}
	}
	if first.IsZero() {
		for _, p := range parts { // a client that reports no clock
			if p != nil {
				res.Elapsed = max(res.Elapsed, p.Elapsed)
			}
		}
		return
	}
	res.ClockStart, res.MeasuredFrom, res.Elapsed = first, from.Sub(first), end.Sub(from)
}

// addTimeline adds a producer's timeline into sum point by point. The
// producers start within milliseconds of each other, so point k of each
// covers the same interval to within that; a point is warm-up while any
// producer is still warming up, and in-flight and retry figures add
// (unknown, -1, if any producer does not know them).
func addTimeline(sum, tl []Interval) []Interval {
	for k, iv := range tl {
		if k >= len(sum) {
			iv.Latency = copyHist(iv.Latency)
			sum = append(sum, iv)
			continue
		}
		s := &sum[k]
		s.Length = max(s.Length, iv.Length)
		s.Warmup = s.Warmup || iv.Warmup
		s.Sent += iv.Sent
		s.Acked += iv.Acked
		s.Failed += iv.Failed
		s.AckedBytes += iv.AckedBytes
		s.Retries = addKnown(s.Retries, iv.Retries)
		s.InFlight = addKnown(s.InFlight, iv.InFlight)
		mergeHist(&s.Latency, iv.Latency)
	}
	return sum
}

// addKnown adds two figures where -1 means unknown.
func addKnown(a, b int64) int64 {
	if a < 0 || b < 0 {
		return -1
	}
	return a + b
}

// copyHist is a copy of h (nil for nil), so that merging into a sum never
// changes a producer's own histogram.
func copyHist(h *hdrhistogram.Histogram) *hdrhistogram.Histogram {
	if h == nil {
		return nil
	}
	c := NewLatencyHistogram()
	c.Merge(h)
	return c
}
