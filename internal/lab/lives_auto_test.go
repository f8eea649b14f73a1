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

// TestLivesAutoSchedule drives one cluster's schedule under lives: auto
// through lives of 8 rounds: rounds that agree within each life are
// precise after 8 of them, but the rule waits for expfile.MinAutoLives
// lives, and judges only at a life's end (also after a life cut short);
// lives that disagree keep it going past them.
func TestLivesAutoSchedule(t *testing.T) {
	tests := []struct {
		name      string
		lifeShift float64 // b's shift in life l is ±lifeShift, alternating
		cutShort  int     // life 2 ends after this many rounds (0: whole)
		wantLives int     // lives run before the schedule is done; 0: not done after 8
		wantRound int     // the round the closing line names
	}{
		{"lives agree", 0, 0, expfile.MinAutoLives, 40},
		{"a life cut short", 0, 3, expfile.MinAutoLives, 35},
		{"lives disagree by ±10 %", 0.10, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exp := &expfile.Experiment{TrialsAuto: true, LivesAuto: true, Precision: 0.05, BudgetS: 3600, Equivalence: 0.05}
			scs := []expfile.Scenario{{ID: "a"}, {ID: "b"}}
			var log []string
			r := &runner{exp: exp, cmps: []expfile.Comparison{{Baseline: "a", Candidate: "b"}}, nScenarios: 2}
			r.ev = events{func(ev Event) { log = append(log, ev.Line) }}
			g := &clusterGroup{scs: scs, n: 1}
			g.measured = r.newMeasured(g)
			u := g.measured.(*untilPrecise)
			u.logf = r.logf
			lives := 0
			for life := range 8 {
				if u.done {
					break
				}
				lives++
				sch := r.lifeSchedule(g)
				rounds := 0
				cut := life == 1 && tt.cutShort > 0 // the cluster gives up: the life ends early
				for !cut || rounds < tt.cutShort {
					round, ok := sch.next()
					if !ok {
						break
					}
					rounds++
					shift := tt.lifeShift * math.Copysign(1, float64(life%2)-0.5)
					for _, tr := range round {
						v := 1000.0 * (1 + 0.002*float64(tr.n%3))
						if tr.sc.ID == "b" {
							v *= 1 + shift
						}
						rec := results.Record{ScenarioID: tr.sc.ID, Life: life, Trial: tr.n, Status: results.StatusOK, Throughput: results.Throughput{RecordsPerS: v}}
						sch.observe(&rec)
					}
					sch.endRound()
				}
				if !u.done && rounds != exp.RoundsPerLife() && (life != 1 || tt.cutShort == 0) {
					t.Fatalf("life %d ran %d rounds, want %d", life+1, rounds, exp.RoundsPerLife())
				}
			}
			all := strings.Join(log, "\n")
			switch {
			case tt.wantLives == 0 && u.done:
				t.Errorf("done after %d lives, want open after 8:\n%s", lives, all)
			case tt.wantLives > 0 && (lives != tt.wantLives || !strings.Contains(all, fmt.Sprintf("precision reached after %d rounds in %d lives", tt.wantRound, tt.wantLives))):
				t.Errorf("ran %d lives, want %d and a closing line:\n%s", lives, tt.wantLives, all)
			}
			if tt.wantLives > 0 && !strings.Contains(all, fmt.Sprintf("over 1 of the %d lives the rule needs", expfile.MinAutoLives)) {
				t.Errorf("the log does not say why a precise first life goes on:\n%s", all)
			}
		})
	}
}

// TestOpenLives keeps a cluster for another life only while its
// questions are open, its last life ran rounds and its budget fits a life
// as long as the last, and says why it drops each other one.
func TestOpenLives(t *testing.T) {
	exp := &expfile.Experiment{TrialsAuto: true, LivesAuto: true, Precision: 0.05, BudgetS: 300}
	var log []string
	r := &runner{exp: exp, nScenarios: 3}
	r.ev = events{func(ev Event) { log = append(log, ev.Line) }}
	group := func(n int, spent time.Duration, done bool) *clusterGroup {
		g := &clusterGroup{scs: []expfile.Scenario{{ID: fmt.Sprint("s", n)}}, n: n}
		g.measured = r.newMeasured(g)
		u := g.measured.(*untilPrecise)
		u.spent, u.done = spent, done
		return g
	}
	open, short, idle, answered := group(1, 10*time.Second, false), group(2, 80*time.Second, false), group(3, 0, false), group(4, 0, true)
	last := map[*clusterGroup]autoLife{
		open:     {took: 30 * time.Second, rounds: 8},
		short:    {took: 30 * time.Second, rounds: 8}, // 100 s share, 20 s left
		idle:     {took: 5 * time.Second, rounds: 0},
		answered: {took: 30 * time.Second, rounds: 8},
	}
	got := r.openLives([]*clusterGroup{open, short, idle, answered}, last, 2)
	if len(got) != 1 || got[0] != open {
		t.Errorf("open %v, want only cluster 1", got)
	}
	all := strings.Join(log, "\n")
	for _, want := range []string{"cluster 2 (s2): 20s of its budget left cannot fit another life (the last took 30s) after 2 lives", "cluster 3 (s3) ran no rounds in life 2"} {
		if !strings.Contains(all, want) {
			t.Errorf("log lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "cluster 4") || strings.Contains(all, "done after") {
		t.Errorf("log speaks of the answered cluster or of the end:\n%s", all)
	}
}
