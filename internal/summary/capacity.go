package summary

import (
	"math"

	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// Prior range of a capacity search around its ceiling (the unthrottled
// probe's rate): the sustainable rate lies between a thousandth of it and
// four times it. Not once: a ceiling probe is one noisy trial, and an
// unthrottled trial can achieve less than a paced one (replication-capacity
// at RF 1: a ceiling of 139,005 msg/s, paced probes passing at 267,804;
// with twice the ceiling the interval stayed open above).
const (
	CapacityPriorLo = 1e-3
	CapacityPriorHi = 4
)

// ScenarioProbes is what a capacity search has learnt of one scenario:
// its ceiling and its pass/fail probes, in trial order.
type ScenarioProbes struct {
	ScenarioID string
	RecordSize int
	// Ceiling is the highest rate an unthrottled probe achieved, 0 before
	// one ran.
	Ceiling  float64
	Outcomes []stats.ProbeOutcome
}

// Probes groups the capacity probes of recs by scenario, in the order of
// each scenario's first probe: every trial the search judged (a probe that
// failed as a trial is a failed probe; the lab judges none that produced
// nothing). Warm-up and interrupted trials are left out.
func Probes(recs []results.Record) []ScenarioProbes {
	var out []ScenarioProbes
	idx := map[string]int{}
	for _, r := range recs {
		if r.Warmup || r.Probe == nil || r.Status == results.StatusInterrupted {
			continue
		}
		i, ok := idx[r.ScenarioID]
		if !ok {
			i = len(out)
			idx[r.ScenarioID] = i
			out = append(out, ScenarioProbes{ScenarioID: r.ScenarioID, RecordSize: r.RecordSize})
		}
		sp := &out[i]
		switch {
		case r.Probe.Ceiling:
			sp.Ceiling = math.Max(sp.Ceiling, r.Throughput.RecordsPerS)
		case r.Load != nil && r.Load.OfferedRecordsPerS > 0:
			sp.Outcomes = append(sp.Outcomes, stats.ProbeOutcome{Rate: r.Load.OfferedRecordsPerS, Pass: r.Probe.Pass})
		}
	}
	return out
}

// Prior is the range the search assumes the sustainable rate lies in:
// around the ceiling when one ran, else around the rates probed. A probe
// that passed above the ceiling shows the ceiling probe read low (a cold
// JVM's first trial: 676 msg/s where paced probes passed at 1,600), so
// the top follows the highest rate kept instead, and the interval is not
// left open at a top the producer has already passed.
func (sp ScenarioProbes) Prior(level float64) stats.ThresholdOptions {
	o := stats.ThresholdOptions{Level: level}
	if sp.Ceiling > 0 {
		o.Lo, o.Hi = sp.Ceiling*CapacityPriorLo, math.Max(sp.Ceiling, sp.Kept())*CapacityPriorHi
		return o
	}
	lo, hi := math.Inf(1), 0.0
	for _, p := range sp.Outcomes {
		lo, hi = math.Min(lo, p.Rate), math.Max(hi, p.Rate)
	}
	if hi == 0 {
		lo, hi = 1, 1e6
	}
	o.Lo, o.Hi = lo/10, hi*10
	return o
}

// Kept is the highest rate a probe passed at (0 before one passed): the
// producer sustained it, so the prior's top is never below
// CapacityPriorHi times it.
func (sp ScenarioProbes) Kept() float64 {
	kept := 0.0
	for _, o := range sp.Outcomes {
		if o.Pass {
			kept = math.Max(kept, o.Rate)
		}
	}
	return kept
}

// Threshold is the scenario's sustainable-rate estimate so far.
func (sp ScenarioProbes) Threshold(level float64) stats.Threshold {
	return stats.EstimateThreshold(sp.Outcomes, sp.Prior(level))
}

// ProbeEstimator keeps one scenario's posterior between probes: each new
// outcome is added to it rather than the posterior being rebuilt from the
// first probe (a search of n probes costs n updates, not n²/2), and it
// starts over only when the prior moves (a higher ceiling or a pass above
// it; without a ceiling, a wider range of rates). Its estimates equal Threshold's.
type ProbeEstimator struct {
	prior stats.ThresholdOptions
	post  *stats.ThresholdPosterior
	n     int // outcomes added to post
}

// Threshold is sp's estimate, sp being what the scenario's earlier calls
// saw with outcomes appended.
func (e *ProbeEstimator) Threshold(sp ScenarioProbes, level float64) stats.Threshold {
	prior := sp.Prior(level)
	if e.post == nil || prior != e.prior || e.n > len(sp.Outcomes) {
		e.prior, e.post, e.n = prior, stats.NewThresholdPosterior(prior), 0
	}
	for _, q := range sp.Outcomes[e.n:] {
		e.post.Add(q)
	}
	e.n = len(sp.Outcomes)
	return e.post.Threshold()
}

// CapacityMet is the capacity search's stopping rule for one scenario: its
// sustainable rate is bracketed (no open edge), rests on at least
// stats.DefaultMinPairs probes, and is known within precision. The lab
// stops on it and capacity.json reports it.
func CapacityMet(t stats.Threshold, precision float64) bool {
	return t.Probes >= stats.DefaultMinPairs && t.Edge == "" && t.HalfWidth() <= precision
}

// Capacity answers a capacity run: each probed scenario's sustainable
// rate with its interval at level, under plan's SLO, as capacity.json
// holds it.
func Capacity(recs []results.Record, plan results.CapacityPlan, level float64) []results.Capacity {
	var out []results.Capacity
	for _, sp := range Probes(recs) {
		t := sp.Threshold(level)
		mb := float64(sp.RecordSize) / results.MB
		hw := t.HalfWidth()
		out = append(out, results.Capacity{
			ScenarioID: sp.ScenarioID,
			Sustainable: results.Sustainable{RecordsPerS: t.Estimate, MBPerS: t.Estimate * mb,
				Lo: t.Lo, Hi: t.Hi, Level: t.Level, Edge: t.Edge},
			SLO: plan.SLO, KeepUp: plan.KeepUp,
			Probes: t.Probes, Passes: t.Passes, CeilingRecordsPerS: sp.Ceiling,
			Precision: results.Precision{Target: plan.Precision, Reached: finiteOr(hw, -1),
				Met: CapacityMet(t, plan.Precision)},
		})
	}
	return out
}

// finiteOr returns v, or alt when v is NaN or infinite (JSON has neither).
func finiteOr(v, alt float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return alt
	}
	return v
}

// KeepUpResolution is the smallest shortfall of achieved ÷ offered one
// trial's window can show, in the same units: the records one produce
// response acknowledges (ackGrain), as a share of the records the window
// was offered. Acknowledgements arrive a response at a time, so a
// producer that keeps up still sees its window's count move by one
// response's records as they fall on either side of the window's edges;
// at a slow pipe or a low rate that is several percent of a short window.
// It is the window's relative resolution (that grain ÷ acknowledged, at
// most 1: a window never shows more than twice what it acknowledged)
// scaled by what the window achieved. Until stop 61 the grain was every
// record the producer could have in flight (× max.in.flight, up to its
// buffer), which let a producer held at half a pipe's rate pass:
// librdkafka's defaults behind 48 Mbit/s probed "11,238 msg/s" where the
// pipe carries 5,700.
func KeepUpResolution(r *results.Record) float64 {
	achieved := 1.0
	if r.Load != nil {
		achieved = r.Load.Achieved
	}
	return resolution(achieved, float64(r.Records.Acked), ackGrain(r))
}

// resolution is how far a window that acknowledged acked records at
// achieved ÷ offered may lie below what the producer did, in the same
// units: achieved × grain ÷ acknowledged, the relative part at most 1
// (0 when nothing was acknowledged). KeepUpResolution and tailKeptUp
// share it.
func resolution(achieved, acked, grain float64) float64 {
	if acked <= 0 {
		return 0
	}
	return achieved * math.Min(1, grain/acked)
}

// ackGrain is how many records one produce response can acknowledge: a
// batch per partition (records per batch count 1 when the client counted
// no batches), never more than the client's buffer holds
// (max.buffered.records, librdkafka's queue.buffering.max.messages). How
// many requests are in flight does not enter: in a steady state the
// records in flight at the window's start and at its end are as many,
// and a window that ends with more in flight than it began with is a
// producer falling behind, which is what keep-up is there to see.
func ackGrain(r *results.Record) float64 {
	grain := math.Max(1, r.RecordsPerBatch)
	if p := r.Partitions; p != nil && p.Count > 1 {
		grain *= float64(p.Count)
	}
	if n, ok := kafkaconf.Effective(r.EffectiveConfig).BufferedRecords(); ok {
		grain = math.Min(grain, n)
	}
	return grain
}

// KeptUp reports whether a rate-limited trial achieved at least keepUp of
// its offered rate, within the window's resolution (KeepUpResolution): the
// one keep-up rule of capacity probes and of the report's load view.
func KeptUp(r *results.Record, keepUp float64) bool {
	return r.Load != nil && r.Load.Achieved+KeepUpResolution(r) >= keepUp
}
