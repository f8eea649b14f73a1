package lab

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
)

// TestOrder alternates A B C, C B A.
func TestOrder(t *testing.T) {
	scs := []expfile.Scenario{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	for round, want := range []string{"abc", "cba", "abc", "cba"} {
		got := ""
		for _, sc := range order(scs, round) {
			got += sc.ID
		}
		if got != want {
			t.Errorf("round %d: %s, want %s", round, got, want)
		}
	}
}

// TestUpdatePrecision judges synthetic rounds: a planned comparison is met
// once its paired interval is narrow enough and rests on enough pairs; a
// scenario in no comparison is judged by its own mean; noisy data is not
// met.
func TestUpdatePrecision(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	mk := func(id string, trial int, v float64) results.Record {
		return results.Record{Schema: results.Schema, ScenarioID: id, Trial: trial, Status: results.StatusOK,
			Throughput: results.Throughput{RecordsPerS: v}}
	}
	tests := []struct {
		name   string
		rounds int
		noise  float64 // per-trial relative noise
		want   bool
	}{
		// Tight data over 10 rounds: every interval is narrow.
		{"precise", 10, 0.005, true},
		// Too few rounds: never met, however tight.
		{"too few pairs", 3, 0.001, false},
		// 30 % noise per trial over 10 rounds: far from ±5 %.
		{"noisy", 10, 0.3, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &clusterGroup{scs: []expfile.Scenario{{ID: "a"}, {ID: "b"}, {ID: "c"}}}
			var recs []results.Record
			for i := 0; i < tt.rounds; i++ {
				drift := 1 + 0.3*rng.Float64() // moves the whole round
				for _, id := range []string{"a", "b", "c"} {
					v := 1000 * drift * (1 + tt.noise*rng.NormFloat64())
					if id == "c" {
						v = 1000 * (1 + tt.noise*rng.NormFloat64()) // no drift: judged alone
					}
					recs = append(recs, mk(id, i, v))
				}
			}
			u := newUntilPrecise(&expfile.Experiment{Precision: 0.05, Equivalence: 0.05}, g,
				[]expfile.Comparison{{Baseline: "a", Candidate: "b"}}, 3, recs)
			if u.met != tt.want || u.finished() != tt.want {
				t.Errorf("met = %v, finished = %v (widest ±%.3f), want %v; per scenario %+v", u.met, u.finished(), u.worst, tt.want, u.prec)
			}
			if want := "the planned comparison's paired interval and 1 scenario's own mean throughput (in no comparison)"; u.judged() != want {
				t.Errorf("judged %q, want %q", u.judged(), want)
			}
			for _, id := range []string{"a", "b", "c"} {
				p, ok := u.prec[id]
				if !ok || p.Target != 0.05 || (p.Met && (p.Reached < 0 || math.IsNaN(p.Reached))) {
					t.Errorf("%s: precision %+v", id, p)
				}
			}
		})
	}
}

// TestSendingWindow keeps the measured points that end before the send
// phase does; a burst keeps every measured point.
func TestSendingWindow(t *testing.T) {
	tl := &results.Timeline{MeasuredFromMs: 200, Points: []results.TimelinePoint{
		{TMs: 0, DurMs: 100, Warmup: true}, {TMs: 100, DurMs: 100, Warmup: true},
		{TMs: 200, DurMs: 100}, {TMs: 300, DurMs: 100}, {TMs: 400, DurMs: 100}, {TMs: 500, DurMs: 40},
	}}
	if got := len(sendingWindow(tl, 200_000_000)); got != 2 { // 200 ms of sending
		t.Errorf("steady-state window: %d points, want 2", got)
	}
	if got := len(sendingWindow(tl, 0)); got != 4 {
		t.Errorf("burst: %d points, want 4", got)
	}
}
