package lab

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
)

// TestPassOn hands a group's unspent share to the groups still running in
// proportion to their scenarios, and nothing while a group runs, from a
// schedule without a budget, or to one.
func TestPassOn(t *testing.T) {
	clock := func(budget, spent time.Duration, done bool) *untilPrecise {
		return &untilPrecise{roundClock: roundClock{budget: budget, spent: spent, done: done}}
	}
	group := func(n int, m scheduler) *clusterGroup {
		return &clusterGroup{scs: make([]expfile.Scenario, n), measured: m}
	}
	tests := []struct {
		name      string
		done      scheduler
		rest      []scheduler
		restScs   []int
		wantGiven []time.Duration // each of rest's budget afterwards
	}{
		{"split by scenarios", clock(240*time.Second, 160*time.Second, true), []scheduler{clock(240*time.Second, 0, false), clock(120*time.Second, 0, false)}, []int{4, 2},
			[]time.Duration{240*time.Second + 160*time.Second/3, 120*time.Second + 80*time.Second/3}},
		{"still running", clock(240*time.Second, 160*time.Second, false), []scheduler{clock(240*time.Second, 0, false)}, []int{4},
			[]time.Duration{240 * time.Second}},
		{"overspent", clock(240*time.Second, 250*time.Second, true), []scheduler{clock(240*time.Second, 0, false)}, []int{4},
			[]time.Duration{240 * time.Second}},
		{"no budget of its own", &fixedRounds{}, []scheduler{clock(240*time.Second, 0, false)}, []int{4},
			[]time.Duration{240 * time.Second}},
		{"to no budget", clock(240*time.Second, 0, true), []scheduler{&fixedRounds{}, clock(60*time.Second, 0, false)}, []int{4, 1},
			[]time.Duration{0, 300 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log []string
			r := &runner{ev: events{func(ev Event) { log = append(log, ev.Line) }}}
			done := group(2, tt.done)
			var rest []*clusterGroup
			for i, m := range tt.rest {
				rest = append(rest, group(tt.restScs[i], m))
			}
			r.passOn(done, rest)
			for i, g := range rest {
				var got time.Duration
				if b, ok := g.measured.(budgetShare); ok {
					got = b.(*untilPrecise).budget
				}
				if got != tt.wantGiven[i] {
					t.Errorf("group %d: budget %v, want %v", i, got, tt.wantGiven[i])
				}
			}
			if b, ok := tt.done.(*untilPrecise); ok && len(log) > 0 && b.leftover() != 0 {
				t.Errorf("the giver still has %v to give after %q", b.leftover(), log)
			}
		})
	}
}

// TestFocus lets the scenarios of a comparison that is precise sit out
// the rounds left, keeps a scenario another open comparison still needs,
// and gives every round to the open question.
func TestFocus(t *testing.T) {
	// a–b is quiet (precise at the rule's minimum), c–d and b–e noisy.
	scs := []expfile.Scenario{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}}
	cmps := []expfile.Comparison{{Baseline: "a", Candidate: "b"}, {Baseline: "c", Candidate: "d"}, {Baseline: "b", Candidate: "e"}}
	for _, focus := range []bool{true, false} {
		t.Run(fmt.Sprintf("focus %v", focus), func(t *testing.T) {
			var log []string
			u := newUntilPrecise(&expfile.Experiment{Precision: 0.05, BudgetS: 3600}, &clusterGroup{scs: scs}, cmps, len(scs), nil)
			u.logf = func(format string, args ...any) { log = append(log, fmt.Sprintf(format, args...)) }
			u.focus = focus
			ran := map[string]int{}
			for round := range 12 {
				trials, ok := u.next()
				if !ok {
					t.Fatalf("done after %d rounds", round)
				}
				for _, tr := range trials {
					ran[tr.sc.ID]++
					v := 1000.0
					if tr.sc.ID == "d" || tr.sc.ID == "e" { // noisy: ±30 % a round
						v *= 1 + 0.3*math.Copysign(1, math.Sin(float64(round*7+len(tr.sc.ID))))
					}
					rec := results.Record{ScenarioID: tr.sc.ID, Trial: tr.n, Status: results.StatusOK, Throughput: results.Throughput{RecordsPerS: v}}
					u.observe(&rec)
				}
				u.endRound()
			}
			want := map[string]int{"a": 12, "b": 12, "c": 12, "d": 12, "e": 12}
			if focus { // a–b met after 8 rounds; b stays for b–e
				want["a"] = 8
			}
			for id, n := range want {
				if ran[id] != n {
					t.Errorf("%s ran %d rounds, want %d (log %q)", id, ran[id], n, log)
				}
			}
			if focus != strings.Contains(strings.Join(log, "\n"), "a: every interval it is judged by is within ±5.0 %") {
				t.Errorf("log %q: want a line for a sitting out only under focus", log)
			}
		})
	}
}
