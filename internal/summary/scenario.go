package summary

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// ScenarioStats summarises one scenario over its counted trials: those
// that are not warm-ups and ran to their end (status ok or violated).
// Every numeric metric is a stats.Summary (mean ± confidence interval at
// stats.DefaultConfidence) over those trials. Latency is the exception that merges: Latency holds the
// percentiles of the merged histograms of all counted trials, exact over
// every record, while the P50…Max summaries describe the per-trial figures
// and so their spread between trials, which is what comparisons test.
type ScenarioStats struct {
	ID string `json:"id"`
	// Keys are the matrix keys in matrix order; Values their values.
	Keys   []string       `json:"keys,omitempty"`
	Values map[string]any `json:"values,omitempty"`
	Client string         `json:"client,omitempty"`
	Kafka  string         `json:"kafka,omitempty"`
	// Trials counts the counted trials; Failures lists the failed
	// non-warm-up ones; Violated the counted ones whose audit found what
	// the experiment did not expect; Interrupted counts the trials the
	// user cut short (neither counted nor failed).
	Trials      int       `json:"trials"`
	Failures    []Failure `json:"failures,omitempty"`
	Violated    []Failure `json:"violated,omitempty"`
	Interrupted int       `json:"interrupted,omitempty"`

	Sent          stats.Summary `json:"sent"`
	Acked         stats.Summary `json:"acked"`
	FailedRecords stats.Summary `json:"failed_records"`
	ElapsedS      stats.Summary `json:"elapsed_s"`
	Throughput    stats.Summary `json:"records_per_s"`
	MBPerS        stats.Summary `json:"mb_per_s"`

	// Latency is from the merged histograms (ms); when some counted trial
	// has no histogram it is the mean of the per-trial figures instead.
	Latency results.Latency         `json:"latency_ms"`
	Merged  bool                    `json:"latency_merged"`
	P50     stats.Summary           `json:"p50_ms"`
	P95     stats.Summary           `json:"p95_ms"`
	P99     stats.Summary           `json:"p99_ms"`
	P999    stats.Summary           `json:"p999_ms"`
	Max     stats.Summary           `json:"max_ms"`
	MeanLat stats.Summary           `json:"mean_ms"`
	Hist    *hdrhistogram.Histogram `json:"-"`

	DiskBytes stats.Summary `json:"disk_bytes"`
	Ratio     stats.Summary `json:"compression_ratio"`
	// Audit sums the audits of the counted trials, nil when none had one.
	Audit *results.Audit `json:"audit,omitempty"`
	// Network summarises what the netem proxies saw (results' "network"
	// keys such as max_in_flight, rtt_p50_ms, model_mb_per_s), for the keys
	// every counted trial has; nil without proxies.
	Network map[string]stats.Summary `json:"network,omitempty"`

	// counted are the counted trials, for paired comparisons.
	counted []results.Record
}

// Failure is a failed trial of a scenario.
type Failure struct {
	Trial int `json:"trial"`
	// Life is the trial's life under lives: N (results.Record.Life).
	Life  int    `json:"life,omitempty"`
	Error string `json:"error"`
	// Sent and FailedRecords are the trial's record counts.
	Sent          int64 `json:"sent"`
	FailedRecords int64 `json:"failed_records"`
}

// ByScenario groups recs by scenario in order of first appearance, leaving
// out warm-up trials (a scenario with only warm-ups does not appear), and
// summarises each at stats.DefaultConfidence. A histogram that fails to
// decode is an error naming the trial, not a silently different figure.
func ByScenario(recs []results.Record) ([]ScenarioStats, error) {
	var order []string
	groups := map[string][]results.Record{}
	seen := map[string]bool{}
	for _, r := range recs {
		// Order by first appearance, warm-ups included: the lab runs the
		// warm-up round in matrix order and later rounds interleaved.
		id := ScenarioKey(r)
		if !seen[id] {
			seen[id] = true
			order = append(order, id)
		}
		if r.Warmup {
			continue
		}
		groups[id] = append(groups[id], r)
	}
	out := make([]ScenarioStats, 0, len(order))
	for _, id := range order {
		if len(groups[id]) == 0 {
			continue // only warm-ups
		}
		s, err := summarizeScenario(id, groups[id])
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// ScenarioKey identifies r's scenario as ByScenario groups it
// (ScenarioStats.ID): its ID, or its sorted values when a record lacks one.
func ScenarioKey(r results.Record) string {
	if r.ScenarioID != "" {
		return r.ScenarioID
	}
	keys := slices.Sorted(maps.Keys(r.Scenario))
	id := ""
	for i, k := range keys {
		if i > 0 {
			id += ","
		}
		id += fmt.Sprintf("%s=%v", k, r.Scenario[k])
	}
	return id
}

// summarizeScenario builds the ScenarioStats of one scenario's trials.
func summarizeScenario(id string, trials []results.Record) (ScenarioStats, error) {
	first := trials[0]
	s := ScenarioStats{ID: id, Keys: first.ScenarioKeys, Values: first.Scenario, Client: first.Client, Kafka: first.Kafka}
	if len(s.Keys) == 0 {
		s.Keys = slices.Sorted(maps.Keys(first.Scenario))
	}
	ok := s.classify(trials)
	s.summarizeFigures(ok)
	if len(ok) == 0 {
		return s, nil
	}
	if err := s.mergeLatency(ok); err != nil {
		return s, err
	}
	s.Audit = auditTotals(ok)
	return s, nil
}

// classify sorts a scenario's trials into counted (returned, and kept for
// pairing), violated, failed and interrupted.
func (s *ScenarioStats) classify(trials []results.Record) (ok []results.Record) {
	for _, r := range trials {
		f := Failure{Trial: r.Trial, Life: r.Life, Error: r.Error, Sent: r.Records.Sent, FailedRecords: r.Records.Failed}
		switch {
		case r.Status == results.StatusInterrupted:
			s.Interrupted++
		case r.Counted():
			ok = append(ok, r)
			if r.Status == results.StatusViolated {
				s.Violated = append(s.Violated, f)
			}
		default:
			s.Failures = append(s.Failures, f)
		}
	}
	s.Trials = len(ok)
	s.counted = ok
	return ok
}

// summarizeFigures summarises each per-trial figure over the counted
// trials ok.
func (s *ScenarioStats) summarizeFigures(ok []results.Record) {
	sum := func(f func(results.Record) float64) stats.Summary {
		xs := make([]float64, len(ok))
		for i, r := range ok {
			xs[i] = f(r)
		}
		return stats.Summarize(xs, stats.DefaultConfidence)
	}
	s.Sent = sum(func(r results.Record) float64 { return float64(r.Records.Sent) })
	s.Acked = sum(func(r results.Record) float64 { return float64(r.Records.Acked) })
	s.FailedRecords = sum(func(r results.Record) float64 { return float64(r.Records.Failed) })
	s.ElapsedS = sum(func(r results.Record) float64 { return r.ElapsedS })
	s.Throughput = sum(func(r results.Record) float64 { return r.Throughput.RecordsPerS })
	s.MBPerS = sum(func(r results.Record) float64 { return r.Throughput.MBPerS })
	s.P50 = sum(func(r results.Record) float64 { return r.LatencyMs.P50 })
	s.P95 = sum(func(r results.Record) float64 { return r.LatencyMs.P95 })
	s.P99 = sum(func(r results.Record) float64 { return r.LatencyMs.P99 })
	s.P999 = sum(func(r results.Record) float64 { return r.LatencyMs.P999 })
	s.Max = sum(func(r results.Record) float64 { return r.LatencyMs.Max })
	s.MeanLat = sum(func(r results.Record) float64 { return r.LatencyMs.Mean })
	s.DiskBytes = sum(func(r results.Record) float64 { return float64(r.DiskBytes) })
	s.Ratio = sum(func(r results.Record) float64 { return r.CompressionRatio })
	s.Network = networkSummaries(ok)
}

// mergeLatency merges the counted trials' histograms into the scenario's
// latency, or, when some trial has none, takes the means of their
// percentiles (and the largest max).
func (s *ScenarioStats) mergeLatency(ok []results.Record) error {
	hs := make([]*hdrhistogram.Histogram, 0, len(ok))
	for _, r := range ok {
		if r.Histogram == "" {
			hs = nil
			break
		}
		h, err := stats.DecodeHistogram(r.Histogram)
		if err != nil {
			return fmt.Errorf("scenario %s trial %d: %w", s.ID, r.Trial, err)
		}
		hs = append(hs, h)
	}
	if hs != nil {
		s.Hist = stats.Merge(hs...)
		s.Latency = LatencyMs(s.Hist)
		s.Merged = true
	} else {
		s.Latency = results.Latency{P50: s.P50.Mean, P95: s.P95.Mean, P99: s.P99.Mean, P999: s.P999.Mean, Max: s.Max.Mean, Mean: s.MeanLat.Mean}
		for _, r := range ok {
			s.Latency.Max = max(s.Latency.Max, r.LatencyMs.Max)
		}
	}
	return nil
}

// auditTotals adds up the audits of the trials that ran one (nil: none).
func auditTotals(ok []results.Record) *results.Audit {
	var a *results.Audit
	for _, r := range ok {
		if r.Audit == nil {
			continue
		}
		if a == nil {
			a = &results.Audit{}
		}
		a.Acked += r.Audit.Acked
		a.Lost += r.Audit.Lost
		a.Duplicates += r.Audit.Duplicates
		a.Reordered += r.Audit.Reordered
		a.Phantom += r.Audit.Phantom
		a.Foreign += r.Audit.Foreign
		if t := r.Audit.Transactions; t != nil {
			if a.Transactions == nil {
				a.Transactions = &results.AuditTxn{Isolation: t.Isolation}
			}
			a.Transactions.Aborted += t.Aborted
			a.Transactions.AbortedVisible += t.AbortedVisible
			a.Transactions.AbortedInLog += t.AbortedInLog
			a.Transactions.LostInLog += t.LostInLog
			a.Transactions.Undecided += t.Undecided
			a.Transactions.UndecidedVisible += t.UndecidedVisible
		}
	}
	return a
}

// networkSummaries summarises each "network" figure present in every trial.
func networkSummaries(ok []results.Record) map[string]stats.Summary {
	out := map[string]stats.Summary{}
	for _, f := range results.NetworkFigureList() {
		if s := networkSummary(ok, f.Of); s.N > 0 {
			out[f.Key] = s
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// networkSummary summarises one network figure (picked from
// results.Network) over trials; N is 0 unless every trial measured it.
func networkSummary(trials []results.Record, of func(results.Network) float64) stats.Summary {
	xs := make([]float64, 0, len(trials))
	for _, r := range trials {
		v := of(results.NetworkFigures(r.Network))
		if math.IsNaN(v) {
			return stats.Summary{}
		}
		xs = append(xs, v)
	}
	if len(xs) == 0 {
		return stats.Summary{}
	}
	return stats.Summarize(xs, stats.DefaultConfidence)
}

// NetworkSummary summarises one network figure over the counted trials,
// picked by its field: s.NetworkSummary(func(n results.Network) float64 {
// return n.MaxInFlight }). N is 0 unless every counted trial measured it.
func (s *ScenarioStats) NetworkSummary(of func(results.Network) float64) stats.Summary {
	return networkSummary(s.counted, of)
}
