package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
)

// The fixtures of the load and capacity views: synthetic records shaped
// as the lab writes them, with a producer whose capacity is known, so that
// the hockey stick and the pass/fail boundary fall where the tests expect.

// loadRec is a successful rate-limited trial of scenario sc (keys in
// order) offered rate records/s against a producer that sustains
// capacity: below it the producer keeps up and the latency from the
// intended send time grows as 1/(1−ρ); above it the producer achieves
// only its capacity and the latency is the queue that builds over a 10 s
// window. The hand-off latency stays flat: the queue is before the
// hand-off.
func loadRec(experiment string, keys []string, vals []any, trial int, rate, capacity float64) results.Record {
	sc := map[string]any{}
	var id []string
	for i, k := range keys {
		sc[k] = vals[i]
		id = append(id, k+"="+formatValue(vals[i]))
	}
	rho := rate / capacity
	achieved := math.Min(1, 0.9995/rho)
	p99 := 4 + 2/math.Max(1-rho, 0.004)
	if rho >= 1 {
		p99 = 150 + 10000*(rho-1)
	}
	tp := rate * achieved
	return results.Record{
		Schema: results.Schema, Run: "20250102-030405-" + experiment, Experiment: experiment,
		Scenario: sc, ScenarioKeys: keys, ScenarioID: strings.Join(id, ","), Trial: trial,
		Status: results.StatusOK, Client: "franz-go v1.22.2", Kafka: "4.3.0", RecordSize: 1024,
		Records:           results.Records{Sent: int64(tp * 10), Acked: int64(tp * 10)},
		ElapsedS:          10,
		Throughput:        results.Throughput{RecordsPerS: tp, MBPerS: tp * 1024 / results.MB},
		LatencyMs:         results.Latency{P50: 2 + rho, P95: 4 + 2*rho, P99: 5 + 3*math.Min(rho, 1.2), P999: 9 + 4*math.Min(rho, 1.2), Max: 40, Mean: 2.5 + rho},
		LatencyIntendedMs: &results.Latency{P50: p99 / 4, P95: p99 * 0.7, P99: p99, P999: p99 * 1.3, Max: p99 * 1.6, Mean: p99 / 3.5},
		CPU:               &results.CPU{ClientS: 1, ClientMsPerMB: 12 + 2*math.Min(rho, 1), BrokersS: 2, BrokersMsPerMB: 20 + 4*math.Min(rho, 1)},
		Load:              &results.Load{OfferedRecordsPerS: rate, Achieved: achieved},
		DiskBytes:         int64(tp * 10 * 1024), CompressionRatio: 1, StartedAt: "2025-01-02T03:04:05Z",
	}
}

// capacityProbeRates are the rates the search tries, as a bisection
// narrowing on 20,000 records/s would: far out first, then closer.
var capacityProbeRates = []float64{30000, 10000, 20000, 15000, 25000, 17500, 22500, 19000, 21000, 20000, 19500, 20500}

// capacityRun is a capacity search of two scenarios (idempotence off and
// on), interleaved as the lab runs them: each an unthrottled ceiling probe,
// then twelve probes at chosen rates, judged against p99 ≤ 100 ms from the
// intended send time and keeping up at 0.99. Idempotence off sustains
// about 20,000 records/s, on about 15,000 (its rates scaled by ¾); the
// producer's capacity wobbles by a few percent from trial to trial, so
// probes near the knee pass and fail mixed; two probes far above the knee
// close each interval. One probe of the second scenario failed as a trial
// (its broker went away).
func capacityRun() []results.Record {
	keys := []string{"enable.idempotence"}
	var recs []results.Record
	scenarios := []struct {
		val      string
		capacity float64
		scale    float64
	}{{"false", 20800, 1}, {"true", 15600, 0.75}}
	for _, sc := range scenarios {
		// The ceiling: unthrottled, no Load, about 2.9 × the knee.
		c := loadRec("capacity", keys, []any{sc.val}, 0, 1, 1)
		c.Load, c.LatencyIntendedMs = nil, nil
		tp := sc.capacity * 2.9
		c.Throughput = results.Throughput{RecordsPerS: tp, MBPerS: tp * 1024 / results.MB}
		c.Records = results.Records{Sent: int64(tp * 10), Acked: int64(tp * 10)}
		c.Probe = &results.Probe{Ceiling: true}
		recs = append(recs, c)
	}
	probe := func(val string, n int, rate, capacity float64) results.Record {
		wobble := 1 + 0.04*math.Sin(float64(n)*1.7)
		r := loadRec("capacity", keys, []any{val}, n+1, rate, capacity*wobble)
		r.Probe = judge(r, 0.99, 100)
		return r
	}
	for n, rate := range capacityProbeRates {
		for _, sc := range scenarios {
			recs = append(recs, probe(sc.val, n, rate*sc.scale, sc.capacity))
		}
	}
	for k, rate := range []float64{40000, 35000} {
		for _, sc := range scenarios {
			recs = append(recs, probe(sc.val, len(capacityProbeRates)+k, rate*sc.scale, sc.capacity))
		}
	}
	// A probe that failed as a trial: the search counts it as failed.
	bad := loadRec("capacity", keys, []any{"true"}, len(capacityProbeRates)+3, 14000, 15600)
	bad.Status, bad.Error = results.StatusFailed, "broker 2 went away\nhint: see cluster-1/broker-2.log"
	bad.Probe = judge(bad, 0.99, 100)
	return append(recs, bad)
}

// judge is the capacity search's judgement of r under keep-up share
// keepUp and an SLO on p99 from the intended send time, in the lab's
// words (lab.judgeProbe).
func judge(r results.Record, keepUp, p99 float64) *results.Probe {
	var why []string
	if !r.Counted() {
		why = append(why, "trial failed: "+strings.SplitN(r.Error, "\n", 2)[0])
	}
	if r.Load.Achieved < keepUp {
		why = append(why, fmt.Sprintf("kept up %.3f < %g", r.Load.Achieved, keepUp))
	}
	if v := r.LatencyIntendedMs.P99; v > p99 {
		why = append(why, fmt.Sprintf("p99 from the intended send time %.1f ms > %g ms", v, p99))
	}
	return &results.Probe{Pass: len(why) == 0, Why: strings.Join(why, "; ")}
}

// capacityPlan is the capacity run's plan: the SLO, and whether
// idempotence costs sustainable rate, plus a comparison naming a
// scenario that was never probed.
var capacityPlan = results.Plan{Level: 0.95, Margin: 0.05,
	Capacity: &results.CapacityPlan{SLO: map[string]float64{"p99": 100}, KeepUp: 0.99, Precision: 0.05, BudgetS: 600},
	Comparisons: []results.PlannedComparison{
		{Question: "Does idempotence cost sustainable rate?", Baseline: "enable.idempotence=false",
			Candidate: "enable.idempotence=true", Metric: "sustainable"},
		{Question: "A scenario never probed", Baseline: "enable.idempotence=false",
			Candidate: "enable.idempotence=maybe", Metric: "sustainable"},
	}}

// rateMatrixRun is a plain run of enable.idempotence × rate (5,000,
// 10,000, 20,000 records/s), two trials each: idempotence off sustains
// 24,000 records/s, on 19,000, so on falls behind at 20,000.
func rateMatrixRun() []results.Record {
	keys := []string{"enable.idempotence", "rate"}
	caps := map[string]float64{"false": 24000, "true": 19000}
	var recs []results.Record
	for trial := 0; trial < 2; trial++ {
		for _, e := range []string{"false", "true"} {
			for _, rate := range []float64{5000, 10000, 20000} {
				recs = append(recs, loadRec("rate", keys, []any{e, rate}, trial, rate, caps[e]*(1+0.02*float64(trial))))
			}
		}
	}
	return recs
}
