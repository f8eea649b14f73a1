package lab

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/summary"
)

// rateTrials are n trials of scenario id at 1,000 records/s whose p99 from
// the intended send time is p99 ms, spread by ±spread by trial; held says
// whether they keep up.
func rateTrials(id string, p99, spread float64, n int, held bool) []results.Record {
	achieved := 1.0
	if !held {
		achieved = 0.5
	}
	var out []results.Record
	for i := range n {
		f := 1 + spread*float64(i%3-1)
		out = append(out, results.Record{ScenarioID: id, Trial: i, Status: results.StatusOK, RecordSize: 1000,
			Records: results.Records{Sent: 3000, Acked: 3000}, Throughput: results.Throughput{RecordsPerS: 1000 * achieved},
			LatencyIntendedMs: &results.Latency{P50: p99 * f / 2, P99: p99 * f},
			Load:              &results.Load{OfferedRecordsPerS: 1000, Achieved: achieved}})
	}
	return out
}

// rateRaceExperiment is a rate-objective advise run on p99 from the
// intended send time at ±2 %.
func rateRaceExperiment() *expfile.Experiment {
	e := &expfile.Experiment{Precision: 0.02, BudgetS: 600, Equivalence: 0.05, TrialsAuto: true}
	e.Advise.On, e.Advise.Objective = true, "p99.intended"
	e.Capacity.KeepUp = 0.99
	return e
}

// TestRateAdvisorResumed: a resumed rate race leaves out the candidate it
// had halved (fewer trials than the others) and the one that did not hold
// the load, and its stopping rule, judged again after those take-outs,
// finds the run already done. Before the rule was judged again, the
// take-outs' wide intervals kept a resumed run that was done from
// finishing.
func TestRateAdvisorResumed(t *testing.T) {
	e := rateRaceExperiment()
	scs := []expfile.Scenario{{ID: "candidate=defaults"}, {ID: "candidate=a"}, {ID: "candidate=halved"}, {ID: "candidate=behind"}}
	var prev []results.Record
	prev = append(prev, rateTrials("candidate=defaults", 20, 0.001, 12, true)...)
	prev = append(prev, rateTrials("candidate=a", 10, 0.001, 12, true)...)
	prev = append(prev, rateTrials("candidate=halved", 30, 0.5, 4, true)...)
	prev = append(prev, rateTrials("candidate=behind", 5, 0.5, 12, false)...)
	g := &clusterGroup{scs: scs}
	u := newUntilPrecise(e, g, adviseComparisons(e, scs), len(scs), prev)
	if u.met {
		t.Fatal("with every candidate judged the rule is met already; the test would prove nothing")
	}
	a := newRateAdvisor(e, u)
	for id, want := range map[string]string{
		"candidate=halved": "left the race before the run was resumed (4 trials, against 12)",
		"candidate=behind": "did not hold the load in 12 of 12 trials",
		"candidate=a":      "",
	} {
		if got := a.race.out[id]; (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("%s: out %q, want %q", id, got, want)
		}
	}
	if !a.finished() {
		t.Errorf("finished() = false after the take-outs; widest %s", a.widest())
	}
	if a.resumed != 40 {
		t.Errorf("resumed = %d, want the 40 earlier trials", a.resumed)
	}
}

// TestRaceDropsStale: only a resumed run's candidates more than one trial
// behind the most leave; the protected ones never do; a fresh run loses
// none.
func TestRaceDropsStale(t *testing.T) {
	tests := []struct {
		name   string
		counts map[string]int
		out    []string
	}{
		{"fresh run", map[string]int{}, nil},
		{"a round cut short", map[string]int{"candidate=current": 10, "candidate=defaults": 10, "candidate=best": 9, "candidate=close": 10, "candidate=slow": 9, "candidate=slower": 10}, nil},
		{"halved before", map[string]int{"candidate=current": 10, "candidate=defaults": 10, "candidate=best": 10, "candidate=close": 4, "candidate=slow": 8},
			[]string{"candidate=close", "candidate=slow", "candidate=slower"}},
		{"protected behind", map[string]int{"candidate=current": 2, "candidate=defaults": 0, "candidate=best": 10, "candidate=close": 10, "candidate=slow": 10, "candidate=slower": 9}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			scs, _ := raceWorlds()
			r := newRace(&clusterGroup{scs: scs}, map[string]string{}, func(string, ...any) {})
			recs := map[string][]results.Record{}
			for id, n := range tt.counts {
				recs[id] = make([]results.Record, n)
			}
			r.dropStale(recs)
			if len(r.out) != len(tt.out) {
				t.Errorf("out %v, want %v", r.out, tt.out)
			}
			for _, id := range tt.out {
				if !strings.Contains(r.out[id], "before the run was resumed") {
					t.Errorf("%s: out %q", id, r.out[id])
				}
			}
		})
	}
}

// TestRateAdvisorRanksHolders: halving ranks a candidate that did not hold
// the load in most trials after every one that did, however low its mean
// objective (a producer that falls behind can show a lower CPU per MB).
func TestRateAdvisorRanksHolders(t *testing.T) {
	e := rateRaceExperiment()
	scs := []expfile.Scenario{{ID: "candidate=defaults"}, {ID: "candidate=held"}, {ID: "candidate=behind"}, {ID: "candidate=new"}}
	var prev []results.Record
	prev = append(prev, rateTrials("candidate=held", 20, 0.01, 4, true)...)
	prev = append(prev, rateTrials("candidate=behind", 5, 0.01, 4, false)...)
	u := newUntilPrecise(e, &clusterGroup{scs: scs}, nil, len(scs), prev)
	a := &rateAdvisor{untilPrecise: u, metric: mustMetric(t, "p99.intended")}
	held := a.holding()
	if got := a.score("candidate=held", held); math.Abs(got-20) > 0.5 {
		t.Errorf("held: score %g, want its mean 20", got)
	}
	for _, id := range []string{"candidate=behind", "candidate=new"} {
		if got := a.score(id, held); !math.IsInf(got, 1) {
			t.Errorf("%s: score %g, want +Inf (ranked last)", id, got)
		}
	}
}

func mustMetric(t *testing.T, key string) summary.Metric {
	t.Helper()
	m, ok := summary.MetricByKey(key)
	if !ok {
		t.Fatalf("no metric %s", key)
	}
	return m
}

// TestSpentSoFar: the pace halving uses counts the running round's time,
// and only once after the round stops.
func TestSpentSoFar(t *testing.T) {
	c := roundClock{spent: 10 * time.Second}
	if got := c.spentSoFar(); got != 10*time.Second {
		t.Errorf("between rounds: %v, want 10s", got)
	}
	c.startRound()
	c.roundStart = c.roundStart.Add(-3 * time.Second) // a round 3 s in
	if got := c.spentSoFar(); got < 13*time.Second || got > 14*time.Second {
		t.Errorf("3 s into a round: %v, want about 13s", got)
	}
	c.stopRound()
	if got := c.spentSoFar(); got != c.spent || got < 13*time.Second {
		t.Errorf("after the round: %v, spent %v", got, c.spent)
	}
}
