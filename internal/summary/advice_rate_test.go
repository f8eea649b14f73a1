package summary

import (
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
)

// atRate are n trials of scenario id at 1,000 records/s with p99 (from the
// intended send time) around p99 ms and CPU around cpu ms/MB, each within
// ±2 % by round; held says whether they keep up.
func atRate(id string, p99, cpu float64, n int, held bool) []results.Record {
	var recs []results.Record
	achieved := 1.0
	if !held {
		achieved = 0.8
	}
	for i := range n {
		f := 1 + 0.02*float64(i%3-1)
		recs = append(recs, results.Record{ScenarioID: id, Trial: i, Status: results.StatusOK, RecordSize: 1000,
			Records: results.Records{Sent: 3000, Acked: 3000}, ProduceRequests: 300, RecordsPerBatch: 10,
			Throughput:        results.Throughput{RecordsPerS: 1000 * achieved},
			LatencyIntendedMs: &results.Latency{P50: p99 * f / 2, P99: p99 * f},
			CPU:               &results.CPU{ClientMsPerMB: cpu * f / 2, BrokersMsPerMB: cpu * f / 2},
			Load:              &results.Load{OfferedRecordsPerS: 1000, Achieved: achieved}})
	}
	return recs
}

// TestRateAdvice: on a rate objective the pick is the lowest mean among
// the candidates that held the load in most trials; it is recommended
// only when decided lower than the current settings (or when they did
// not hold the load); the verdicts name the objective first, then the SLO
// percentile and CPU; a candidate that did not hold is never picked.
func TestRateAdvice(t *testing.T) {
	ids := []string{"candidate=current", "candidate=defaults", "candidate=a", "candidate=b"}
	tests := []struct {
		name      string
		p99       []float64 // current, defaults, a, b
		held      []bool
		n         int
		pick      string
		recommend bool
		answer    string
	}{
		{"a clear winner", []float64{100, 40, 20, 30}, []bool{true, true, true, true}, 10, "candidate=a", true, "use the pick: its latency p99 from the intended send time is -80.0 %"},
		{"the best does not hold", []float64{100, 40, 20, 30}, []bool{true, true, false, true}, 10, "candidate=b", true, "use the pick: its latency p99 from the intended send time is -70.0 %"},
		{"current is the best", []float64{20, 40, 30, 35}, []bool{true, true, true, true}, 10, "candidate=current", false, "keep your current settings: no candidate that held the load"},
		{"within the margin", []float64{20, 40, 19.8, 35}, []bool{true, true, true, true}, 10, "candidate=a", false, "keep your current settings: they are within ±5 %"},
		{"current does not hold", []float64{20, 40, 30, 35}, []bool{false, true, true, true}, 10, "candidate=a", true, "use the pick: your current settings did not hold 1,000 msg/s"},
		{"too few trials", []float64{100, 40, 20, 30}, []bool{true, true, true, true}, 5, "", false, "cannot tell yet: no candidate held 1,000 msg/s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var recs []results.Record
			for i, id := range ids {
				recs = append(recs, atRate(id, tt.p99[i], 100, tt.n, tt.held[i])...)
			}
			plan := advicePlan("candidate=current", ids...)
			plan.Advise.Objective, plan.Advise.RecordsPerS, plan.Advise.KeepUp = "p99.intended", 1000, 0.99
			plan.Advise.SLO = map[string]float64{"p99": 500}
			a := Advice(recs, plan)
			got := ""
			if a.Pick != nil {
				got = a.Pick.ScenarioID
			}
			if got != tt.pick || a.Recommend != tt.recommend || !strings.HasPrefix(a.Answer, tt.answer) {
				t.Fatalf("pick %q recommend %v answer %q; want %q %v %q…", got, a.Recommend, a.Answer, tt.pick, tt.recommend, tt.answer)
			}
			if a.Pick == nil || a.Pick.ScenarioID == "candidate=current" {
				return
			}
			var metrics []string
			for _, v := range a.Verdicts {
				if v.Against == "current" {
					metrics = append(metrics, v.Metric)
				}
			}
			if strings.Join(metrics, " ") != "p99.intended cpu.total" {
				t.Errorf("verdicts against current on %v, want the objective then CPU (the SLO's percentile is the objective)", metrics)
			}
			if a.Pick.Score == nil || a.Pick.Score.Metric != "p99.intended" || a.Pick.Sustainable != nil || a.Pick.Held == "" {
				t.Errorf("pick %+v: want a p99.intended score, no sustainable rate, and how often it held", a.Pick)
			}
		})
	}
}

// TestAdviceConstraints: the constraints are checked on the pick's own
// trials as the client reported its settings; a pick the client ran with
// another value is not recommended, acks -1 counts as all, and a
// transactional.id keeps its constraint with the per-trial suffix prodlab
// gives it.
func TestAdviceConstraints(t *testing.T) {
	ids := []string{"candidate=current", "candidate=defaults", "candidate=a", "candidate=b"}
	for _, tt := range []struct {
		name, acks string
		txnID      string // the pick's reported transactional.id; "" without
		recommend  bool
		answer     string
	}{
		{"kept", "-1", "", true, "use the pick"},
		{"not kept", "1", "", false, "cannot recommend the pick: the client did not keep a constraint (trial 0 ran with acks=1 where the constraint is all"},
		{"transactional id with its suffix", "all", "app-topic-s2-r0", true, "use the pick"},
		{"another transactional id", "all", "application-s2-r0", false,
			"cannot recommend the pick: the client did not keep a constraint (trial 0 ran with transactional.id=application-s2-r0 where the constraint is app"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var recs []results.Record
			for i, id := range ids {
				rs := atRate(id, []float64{100, 40, 20, 30}[i], 100, 10, true)
				for j := range rs {
					rs[j].EffectiveConfig = map[string]string{"acks": "-1"}
					if tt.txnID != "" {
						rs[j].EffectiveConfig["transactional.id"] = "app-topic-s0-r0"
					}
					if id == "candidate=a" {
						rs[j].EffectiveConfig["acks"] = tt.acks
						if tt.txnID != "" {
							rs[j].EffectiveConfig["transactional.id"] = tt.txnID
						}
					}
				}
				recs = append(recs, rs...)
			}
			plan := advicePlan("candidate=current", ids...)
			plan.Advise.Objective, plan.Advise.RecordsPerS, plan.Advise.KeepUp = "p99.intended", 1000, 0.99
			wantChecked := "acks=all as the client reported them in its 10 trials"
			if tt.txnID != "" {
				plan.Advise.Constraints = map[string]string{"acks": "all", "transactional.id": "app"}
				wantChecked = "acks=all, transactional.id=app as the client reported them in its 10 trials"
			}
			a := Advice(recs, plan)
			if a.Recommend != tt.recommend || !strings.HasPrefix(a.Answer, tt.answer) {
				t.Errorf("recommend %v answer %q; want %v %q…", a.Recommend, a.Answer, tt.recommend, tt.answer)
			}
			switch {
			case a.Pick == nil:
				t.Errorf("no pick: %s", a.Answer)
			case a.Pick.Constraints != wantChecked:
				t.Errorf("constraints checked %q", a.Pick.Constraints)
			}
		})
	}
}

// TestAdviceAudited: with audit on, a candidate with one violated trial is
// never picked, on either objective, and the pick says how many of its
// audited trials were clean.
func TestAdviceAudited(t *testing.T) {
	ids := []string{"candidate=current", "candidate=defaults", "candidate=a", "candidate=b"}
	var recs []results.Record
	for i, id := range ids {
		rs := atRate(id, []float64{100, 40, 20, 30}[i], 100, 10, true)
		for j := range rs {
			rs[j].Audit = &results.Audit{Acked: 3000}
			if id == "candidate=a" && j == 4 {
				rs[j].Status, rs[j].Audit.Lost = results.StatusViolated, 3
			}
		}
		recs = append(recs, rs...)
	}
	plan := advicePlan("candidate=current", ids...)
	plan.Advise.Objective, plan.Advise.RecordsPerS, plan.Advise.KeepUp = "p99.intended", 1000, 0.99
	a := Advice(recs, plan)
	if a.Pick == nil || a.Pick.ScenarioID != "candidate=b" || !strings.Contains(a.Pick.Constraints, "audited clean in 10 of 10 trials") {
		t.Fatalf("pick %+v: want candidate=b (a lost records once), audited clean in 10 of 10", a.Pick)
	}
	if v := Violations(recs)["candidate=a"]; v.Trials != 1 || v.First != 4 || v.Audited != 10 {
		t.Errorf("violations of a = %+v, want 1 of 10, first trial 4", v)
	}
}

// TestWhyPipeModel: behind an emulated round trip, why sets the requests in
// flight and the pipe model beside what each one achieved.
func TestWhyPipeModel(t *testing.T) {
	probe := func(id string, rate, inFlight, model, mb float64) results.Record {
		return results.Record{ScenarioID: id, Status: results.StatusOK, Load: &results.Load{OfferedRecordsPerS: rate, Achieved: 1},
			Probe: &results.Probe{Pass: true}, RecordsPerBatch: 16, Throughput: results.Throughput{MBPerS: mb},
			Network: map[string]float64{"mean_in_flight": inFlight, "model_mb_per_s": model}}
	}
	recs := []results.Record{probe("candidate=current", 1200, 1, 1.25, 1.2), probe("candidate=a", 6000, 4.9, 6.1, 5.9)}
	ap := &results.AdvicePlan{Space: []results.AdviceAxis{{Key: "max.in.flight.requests.per.connection"}},
		Candidates: []results.AdviceCandidate{
			{ScenarioID: "candidate=current", Settings: map[string]string{"max.in.flight.requests.per.connection": "1"}},
			{ScenarioID: "candidate=a", Settings: map[string]string{"max.in.flight.requests.per.connection": "5"}}}}
	got := strings.Join(why(recs, ap, "candidate=a", "candidate=current"), "\n")
	if !strings.Contains(got, "requests in flight 1.0 → 4.9, pipe model (in flight × request bytes ÷ round trip) 1.25 → 6.10 MB/s against 1.20 → 5.90 MB/s achieved") {
		t.Errorf("why = %q: want the pipe model beside what was achieved", got)
	}
}

// TestRatePercentile: the candidates are set against the SLO's percentile
// (p99 without one), and against the other end of the distribution when
// the objective is that very percentile.
func TestRatePercentile(t *testing.T) {
	for _, tt := range []struct {
		objective string
		slo       map[string]float64
		want      string
	}{
		{"cpu.total", nil, "p99"},
		{"cpu.total", map[string]float64{"p95": 50}, "p95"},
		{"p99.intended", nil, "p50"},
		{"p99.intended", map[string]float64{"p95": 50}, "p95"},
		{"p95.intended", map[string]float64{"p95": 50}, "p50"},
		{"p50.intended", map[string]float64{"p50": 5}, "p99"},
		// An end-to-end SLO: the other end of the end-to-end latency.
		{"throughput", map[string]float64{"e2e.p99": 250}, "e2e.p99"},
		{"p99.e2e", map[string]float64{"e2e.p99": 250}, "e2e.p50"},
		{"p50.e2e", map[string]float64{"e2e.p50": 250}, "e2e.p99"},
	} {
		ap := &results.AdvicePlan{Objective: tt.objective, SLO: tt.slo}
		if got := ratePercentile(ap).Key; got != tt.want {
			t.Errorf("%s with SLO %v: %s, want %s", tt.objective, tt.slo, got, tt.want)
		}
	}
}
