package summary

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// TestKeepUpResolution: a window resolves achieved ÷ offered to the
// records one response acknowledges (a batch per partition, at most the
// client's buffer) out of those offered, and KeptUp allows exactly that;
// how many requests may be in flight does not widen it.
func TestKeepUpResolution(t *testing.T) {
	rec := func(acked int64, perBatch float64, partitions int, inFlight string, achieved float64) *results.Record {
		return &results.Record{Records: results.Records{Acked: acked}, RecordsPerBatch: perBatch,
			Partitions:      &results.Partitions{Count: partitions},
			EffectiveConfig: map[string]string{"max.in.flight.requests.per.connection": inFlight},
			Load:            &results.Load{OfferedRecordsPerS: 1000, Achieved: achieved}}
	}
	tests := []struct {
		name    string
		r       *results.Record
		want    float64
		keptUp  bool
		comment string
	}{
		{"one batch of 15 in 1,000", rec(1000, 15, 1, "1", 0.98), 0.015 * 0.98, true, "0.98 × (1 + 0.015) reaches 0.99"},
		{"beyond it", rec(1000, 15, 1, "1", 0.97), 0.015 * 0.97, false, "0.97 × (1 + 0.015) does not"},
		{"3 partitions", rec(4500, 30, 3, "5", 0.98), 30 * 3 / 4500.0 * 0.98, true, "0.98 × 1.02 reaches 0.99"},
		{"5 in flight do not widen it", rec(4500, 30, 3, "5", 0.97), 30 * 3 / 4500.0 * 0.97, false, "0.97 × 1.02 < 0.99"},
		{"no batches counted", rec(1000, 0, 1, "", 0.5), 0.001 * 0.5, false, "one record"},
		{"nothing acked", rec(0, 15, 1, "1", 0), 0, false, "no resolution, and far behind"},
		// A window too short to resolve anything shows at most twice
		// what it acknowledged: never a rate it did not achieve.
		{"never more than twice", rec(10, 50, 1, "5", 0.2), 0.2, false, "a window of 10 records at a fifth of its rate"},
		{"twice reaches it", rec(10, 50, 1, "5", 0.5), 0.5, true, "a window of 10 records at half its rate"},
		// librdkafka's defaults allow a million requests in flight: a
		// probe at 0.4 % of its rate once passed on a resolution of 1,
		// and one at half its rate behind a 48 Mbit/s pipe on a
		// resolution of in flight (capped by the buffer) ÷ acknowledged.
		{"a million in flight", rec(45000, 15, 1, "1000000", 0.0044), 15 / 45000.0 * 0.0044, false, "far behind its rate"},
		{"half a pipe's rate", bufferedRec(rec(2800, 16, 1, "1000000", 0.52), "100000"), 16 / 2800.0 * 0.52, false, "0.52 × 1.006 < 0.99"},
		// The client's buffer bounds the grain.
		{"the buffer bounds it", bufferedRec(rec(1000, 50, 4, "1", 0.89), "100"), 0.1 * 0.89, false, "0.89 × 1.1 < 0.99"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := KeepUpResolution(tt.r); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("resolution %g, want %g", got, tt.want)
			}
			if got := KeptUp(tt.r, 0.99); got != tt.keptUp {
				t.Errorf("kept up %v, want %v (%s)", got, tt.keptUp, tt.comment)
			}
		})
	}
	if KeptUp(&results.Record{}, 0.5) {
		t.Error("a trial without a load kept up")
	}
}

// bufferedRec sets librdkafka's buffer bound in records on r.
func bufferedRec(r *results.Record, records string) *results.Record {
	r.EffectiveConfig["queue.buffering.max.messages"] = records
	return r
}

// TestStartLag: the window's start lag is the records acknowledged beyond
// those offered (less the resolution) at the offered rate; a trial further
// behind than the tightest SLO bound does not hold its load, one within it
// does.
func TestStartLag(t *testing.T) {
	probe := func(achieved float64) results.Record {
		return results.Record{ScenarioID: "s", Status: results.StatusOK, RecordsPerBatch: 10,
			Records: results.Records{Sent: 30000, Acked: 30000}, Load: &results.Load{OfferedRecordsPerS: 10000, Achieved: achieved},
			LatencyIntendedMs: &results.Latency{P50: 5, P99: 50}}
	}
	slo := map[string]float64{"p99": 100, "p50": 20}
	for _, tt := range []struct {
		achieved float64
		lagMs    int64
		behind   bool
	}{
		{0.9, 0, false},
		{1, 0, false},
		{1.0003, 0, false}, // within the resolution (10 of 30,000)
		{1.005, 13, false}, // (0.005 − 0.00033) × 30,000 ÷ 10,000/s: 13.99 ms, truncated
		{1.01, 28, true},   // (0.01 − 0.00034) × 3 s, beyond the tightest bound, p50's 20 ms
		{1.06, 178, true},  // (0.06 − 0.00035) × 3 s
	} {
		r := probe(tt.achieved)
		if got := StartLag(&r).Milliseconds(); got != tt.lagMs {
			t.Errorf("achieved %g: lag %d ms, want %d", tt.achieved, got, tt.lagMs)
		}
		if got := StartBehind(&r, slo) != ""; got != tt.behind {
			t.Errorf("achieved %g: behind %v, want %v", tt.achieved, got, tt.behind)
		}
		if StartBehind(&r, nil) != "" {
			t.Errorf("achieved %g: behind without an SLO", tt.achieved)
		}
		if got := len(HoldMisses(&r, slo, 0.99)) > 0; got != tt.behind && tt.achieved >= 1 {
			t.Errorf("achieved %g: misses %v, want %v", tt.achieved, HoldMisses(&r, slo, 0.99), tt.behind)
		}
	}
}

// TestProbeEstimatorMatchesScratch: the estimator kept between probes
// gives, after every probe, exactly what estimating from all of them does
// — also when the prior moves under it (a higher ceiling; without one, a
// rate beyond those probed so far).
func TestProbeEstimatorMatchesScratch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	outcomes := func(n int) []stats.ProbeOutcome {
		var out []stats.ProbeOutcome
		for range n {
			r := 1000 * math.Exp(rng.NormFloat64())
			out = append(out, stats.ProbeOutcome{Rate: r, Pass: r < 1000*math.Exp(0.1*rng.NormFloat64())})
		}
		return out
	}
	cases := []struct {
		name     string
		ceilings []float64 // the ceiling before each probe
		outs     []stats.ProbeOutcome
	}{
		{"a fixed ceiling", slices.Repeat([]float64{2000}, 30), outcomes(30)},
		{"the ceiling rises after probe 10", append(slices.Repeat([]float64{2000}, 10), slices.Repeat([]float64{3000}, 20)...), outcomes(30)},
		{"no ceiling: the rates probed set the prior", make([]float64, 30), outcomes(30)},
		{"a low ceiling: passes above it raise the top", slices.Repeat([]float64{300}, 30), outcomes(30)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var e ProbeEstimator
			for n := 1; n <= len(tc.outs); n++ {
				sp := ScenarioProbes{Ceiling: tc.ceilings[n-1], Outcomes: tc.outs[:n]}
				got, want := e.Threshold(sp, 0.95), stats.EstimateThreshold(sp.Outcomes, sp.Prior(0.95))
				if !sameThreshold(got, want) {
					t.Fatalf("after %d probes: kept %+v, from scratch %+v", n, got, want)
				}
			}
		})
	}
}

// TestPriorFollowsKept: the prior's top is four times the ceiling, or the
// highest rate a probe passed at when that is higher (a ceiling probe that
// read low); a cold ceiling then no longer leaves a sustainable rate the
// producer passed open above.
func TestPriorFollowsKept(t *testing.T) {
	probe := func(rate float64, pass bool) results.Record {
		r := results.Record{ScenarioID: "s", Status: results.StatusOK, Probe: &results.Probe{Ceiling: rate == 0, Pass: pass}}
		if rate == 0 {
			r.Throughput.RecordsPerS = 676
		} else {
			r.Load = &results.Load{OfferedRecordsPerS: rate}
		}
		return r
	}
	for _, tc := range []struct {
		name      string
		rates     []float64
		passes    []bool
		wantKept  float64
		wantHi    float64
		wantEdge  string
		wantRange [2]float64 // the estimate lies within
	}{
		{"ceiling only", nil, nil, 0, 4 * 676, "", [2]float64{0, math.Inf(1)}},
		{"passes below the ceiling", []float64{338, 500}, []bool{true, true}, 500, 4 * 676, "", [2]float64{0, math.Inf(1)}},
		{"a cold ceiling, passes to 2,400", []float64{338, 1000, 1600, 2000, 2400, 2600, 2500, 2450, 2550, 2480},
			[]bool{true, true, true, true, true, false, false, true, false, false}, 2450, 4 * 2450, "", [2]float64{2400, 2600}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs := []results.Record{probe(0, false)}
			for i, r := range tc.rates {
				recs = append(recs, probe(r, tc.passes[i]))
			}
			sp := Probes(recs)[0]
			if sp.Ceiling != 676 || sp.Kept() != tc.wantKept {
				t.Fatalf("ceiling %g kept %g, want 676 and %g", sp.Ceiling, sp.Kept(), tc.wantKept)
			}
			if p := sp.Prior(0.95); p.Hi != tc.wantHi || p.Lo != 676*CapacityPriorLo {
				t.Errorf("prior [%g, %g], want [%g, %g]", p.Lo, p.Hi, 676*CapacityPriorLo, tc.wantHi)
			}
			if len(tc.rates) < 5 {
				return
			}
			th := sp.Threshold(0.95)
			if th.Edge != tc.wantEdge || th.Estimate < tc.wantRange[0] || th.Estimate > tc.wantRange[1] {
				t.Errorf("estimate %.0f [%.0f, %.0f] edge %q, want within %v, edge %q", th.Estimate, th.Lo, th.Hi, th.Edge, tc.wantRange, tc.wantEdge)
			}
			// The checker can fail: under the ceiling's own top the same
			// probes leave the rate open above.
			old := stats.EstimateThreshold(sp.Outcomes, stats.ThresholdOptions{Level: 0.95, Lo: 676 * CapacityPriorLo, Hi: 676 * CapacityPriorHi})
			if old.Edge == "" {
				t.Errorf("under a top of %d the estimate %+v is bounded too: the case does not show the change", 676*CapacityPriorHi, old)
			}
		})
	}
}

// sameThreshold compares two estimates field by field, NaN equal to NaN.
func sameThreshold(a, b stats.Threshold) bool {
	eq := func(x, y float64) bool { return x == y || (math.IsNaN(x) && math.IsNaN(y)) }
	return eq(a.Estimate, b.Estimate) && eq(a.Lo, b.Lo) && eq(a.Hi, b.Hi) && eq(a.LogMean, b.LogMean) &&
		eq(a.LogSD, b.LogSD) && eq(a.Spread, b.Spread) && eq(a.SpreadHi, b.SpreadHi) &&
		a.Probes == b.Probes && a.Passes == b.Passes && a.Edge == b.Edge
}
