package lab

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
)

// ids lists a round's trials as "a0 b0 c0".
func ids(round []trialSpec) string {
	var out []string
	for _, t := range round {
		out = append(out, t.sc.ID+string(rune('0'+t.n)))
	}
	return strings.Join(out, " ")
}

// TestFixedRounds hands out N rounds in alternating order, leaves out what
// a resumed run finished, and is finished only when nothing is left.
func TestFixedRounds(t *testing.T) {
	scs := []expfile.Scenario{{ID: "a"}, {ID: "b"}}
	ranBefore := func(done ...string) func(expfile.Scenario, int) bool {
		return func(sc expfile.Scenario, n int) bool {
			for _, d := range done {
				if d == sc.ID+string(rune('0'+n)) {
					return true
				}
			}
			return false
		}
	}
	tests := []struct {
		name     string
		rounds   int
		skip     func(expfile.Scenario, int) bool
		want     []string
		finished bool
	}{
		// A fresh run: every trial, order reversed every other round.
		{"fresh", 3, nil, []string{"a0 b0", "b1 a1", "a2 b2"}, false},
		// A resumed run skips what finished; a round may be empty.
		{"resumed", 2, ranBefore("a0", "b0", "a1"), []string{"", "b1"}, false},
		// Everything ran before: finished, so the cluster need not start.
		{"all ran", 1, ranBefore("a0", "b0"), []string{""}, true},
		{"none", 0, nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fixedRounds{scs: scs, rounds: tt.rounds, skip: tt.skip}
			if got := f.finished(); got != tt.finished && tt.rounds > 0 {
				t.Errorf("finished = %v, want %v", got, tt.finished)
			}
			var got []string
			for {
				round, ok := f.next()
				if !ok {
					break
				}
				got = append(got, ids(round))
				if len(got) > 10 {
					t.Fatal("more than 10 rounds")
				}
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("rounds %q, want %q", got, tt.want)
			}
		})
	}
}

// TestWarmup ends a warm-up once a round's throughput settles, keeps
// going while it moves, and ends at its deadline however it moves; a
// steady-state trial must also be flat within its window, and a flat
// window alone does not end it while rounds still ramp.
func TestWarmup(t *testing.T) {
	burst := expfile.Scenario{ID: "a"} // no duration: a burst
	steady := expfile.Scenario{ID: "a"}
	steady.Exp.Workload.DurationS = 1
	tests := []struct {
		name       string
		sc         expfile.Scenario
		rates      []float64 // one trial per round
		ramp       float64   // the steady-state window's drift, end ÷ start
		maxS       float64
		wantRounds int
		wantSteady bool
	}{
		// Round 1 has nothing to compare with; round 2 moved 2 %: warm.
		{"settles", burst, []float64{1000, 1020, 1000, 1000}, 1, 60, 2, true},
		// It moves 50 % a round, then settles.
		{"moves then settles", burst, []float64{1000, 1500, 750, 760}, 1, 60, 4, true},
		// Past its deadline after the first round: not steady.
		{"deadline", burst, []float64{1000, 2000, 4000}, 1, 0, 1, false},
		// A failed trial is never warm.
		{"failure", burst, []float64{1000, 0, 1000, 1010}, 1, 60, 4, true},
		// Steady state: flat windows that settle from round to round.
		{"steady settles", steady, []float64{1000, 1030, 1000}, 1, 60, 2, true},
		// Flat windows while the rounds ramp (JVMs still compiling) are
		// not warm until the ramp ends.
		{"steady ramps", steady, []float64{5800, 22000, 52000, 65000, 70000}, 1, 60, 5, true},
		// Rounds that settle while each window drifts are not warm (0:
		// still warming after these rounds).
		{"steady drifts", steady, []float64{1000, 1000, 1000}, 2, 60, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := newWarmup([]expfile.Scenario{tt.sc}, tt.maxS)
			for _, rate := range tt.rates {
				round, ok := u.next()
				if !ok {
					break
				}
				if len(round) != 1 || !round[0].warm {
					t.Fatalf("round %v: want one warm-up trial", round)
				}
				rec := results.Record{ScenarioID: "a", Status: results.StatusOK, Warmup: true, Throughput: results.Throughput{RecordsPerS: rate}}
				if tt.sc.Exp.Steady() {
					rec.Timeline = windowAt(rate, tt.ramp)
				}
				if rate == 0 {
					rec.Status = results.StatusFailed
				}
				u.observe(&rec)
				u.endRound()
			}
			_, more := u.next()
			w := u.outcome() // an interrupted round with no trial is not warm
			if tt.wantRounds == 0 {
				if !more || w.Steady {
					t.Errorf("warming %v, outcome %+v: want still warming, not steady", more, *w)
				}
				return
			}
			if more {
				t.Errorf("still warming after %d rounds", len(tt.rates))
			}
			if w.Rounds != tt.wantRounds || w.Steady != tt.wantSteady || !w.Checked || !w.Auto {
				t.Errorf("outcome %+v, want %d rounds, steady %v", *w, tt.wantRounds, tt.wantSteady)
			}
		})
	}
}

// TestWarmupEachScenario: flat scenarios do not hide one that still moves.
// Three stay at 1,000 while the fourth falls 30 %: the geometric mean moved
// 8.5 %, within ±10 %, but the round is not warm; the next, where the
// fourth stays, is.
func TestWarmupEachScenario(t *testing.T) {
	var scs []expfile.Scenario
	for _, id := range []string{"a", "b", "c", "d"} {
		scs = append(scs, expfile.Scenario{ID: id}) // bursts: no window to judge
	}
	u := newWarmup(scs, 60)
	for i, d := range []float64{1000, 700, 710, 1000} {
		round, ok := u.next()
		if !ok {
			break
		}
		for _, tr := range round {
			rate := 1000.0
			if tr.sc.ID == "d" {
				rate = d
			}
			u.observe(&results.Record{ScenarioID: tr.sc.ID, Status: results.StatusOK, Warmup: true, Throughput: results.Throughput{RecordsPerS: rate}})
		}
		u.endRound()
		if i == 3 {
			t.Fatal("still warming after a round where every scenario stayed")
		}
	}
	if w := u.outcome(); w.Rounds != 3 || !w.Steady {
		t.Errorf("outcome %+v, want steady after 3 rounds (not 2: the fourth scenario fell 30 %% in round 2)", *w)
	}
}

// TestWarmupOwnTime bounds a warm-up by the time of its own rounds, not
// the wall clock's: alternating clusters wait while the others warm, and
// that wait must not end a warm-up still ramping.
func TestWarmupOwnTime(t *testing.T) {
	u := newWarmup([]expfile.Scenario{{ID: "a"}}, 0.2)
	round := func(rate float64, lasts time.Duration) bool {
		if _, ok := u.next(); !ok {
			return false
		}
		time.Sleep(lasts)
		u.observe(&results.Record{ScenarioID: "a", Status: results.StatusOK, Warmup: true, Throughput: results.Throughput{RecordsPerS: rate}})
		u.endRound()
		return true
	}
	// Three quick rounds that ramp, with a wait longer than the bound
	// between them: still warming.
	for _, rate := range []float64{1000, 2000, 4000} {
		if !round(rate, 0) {
			t.Fatal("the warm-up ended while its own rounds took no time")
		}
		time.Sleep(150 * time.Millisecond)
	}
	// A round that itself outlasts the bound ends it, not steady.
	if !round(8000, 250*time.Millisecond) {
		t.Fatal("no fourth round")
	}
	if _, more := u.next(); more {
		t.Error("still warming after its own rounds took longer than warmup.max.s")
	}
	w := u.outcome()
	if w.Rounds != 4 || w.Steady || w.Seconds < 0.25 || w.Seconds >= 0.7 {
		t.Errorf("outcome %+v: want 4 rounds, not steady, 0.25 s of its own (not the 0.7 s with the waits)", *w)
	}
}

// windowAt is a 1 s sending window of ten 100 ms intervals at rate
// records/s, drifting linearly to ramp × rate by its end.
func windowAt(rate, ramp float64) *results.Timeline {
	tl := &results.Timeline{}
	for i := range 10 {
		r := rate * (1 + (ramp-1)*float64(i)/9)
		tl.Points = append(tl.Points, results.TimelinePoint{TMs: float64(i * 100), DurMs: 100, Acked: int64(r / 10)})
	}
	return tl
}

// TestUntilPreciseStops stops on precision, on the budget, or at the most
// rounds trials: auto runs, and says which in the log.
func TestUntilPreciseStops(t *testing.T) {
	tests := []struct {
		name    string
		noise   float64
		budgetS float64
		want    string
		rounds  int
	}{
		// Steady figures: precise once the rule has its minimum of pairs,
		// and the closing line says which intervals it judged.
		{"precise", 0, 3600, "precision reached after 8 rounds (0s): each scenario's own mean throughput (no comparison declared) within ±5.0 %", 8},
		// Noisy figures and no time: the budget ends it after one round,
		// too early for an interval to mean anything.
		{"budget", 0.5, 0, "widest interval not known yet (1 of the 8 rounds the rule needs)", 1},
		// Failing trials and time enough: no interval is ever known, and
		// the most rounds end it.
		{"most rounds", -1, 3600, "stopped at", expfile.MaxAutoRounds},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &clusterGroup{scs: []expfile.Scenario{{ID: "a"}}}
			var log []string
			u := newUntilPrecise(&expfile.Experiment{Precision: 0.05, BudgetS: tt.budgetS}, g, nil, 1, nil)
			u.logf = func(format string, args ...any) { log = append(log, fmt.Sprintf(format, args...)) }
			rounds := 0
			for ; rounds <= expfile.MaxAutoRounds; rounds++ {
				round, ok := u.next()
				if !ok {
					break
				}
				v := 1000.0
				if rounds%2 == 1 {
					v *= 1 + tt.noise
				}
				rec := results.Record{ScenarioID: "a", Trial: round[0].n, Status: results.StatusOK, Throughput: results.Throughput{RecordsPerS: v}}
				if tt.noise < 0 {
					rec.Status = results.StatusFailed
				}
				u.observe(&rec)
				if rec.Precision == nil || rec.Precision.Target != 0.05 {
					t.Fatalf("record carries precision %+v", rec.Precision)
				}
				u.endRound()
			}
			if rounds != tt.rounds || len(log) == 0 || !strings.Contains(log[len(log)-1], tt.want) {
				t.Errorf("%d rounds, last log %q; want %d rounds ending with %q", rounds, log, tt.rounds, tt.want)
			}
		})
	}
}
