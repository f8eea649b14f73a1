package lab

import (
	"fmt"
	"testing"

	"github.com/prodlab/prodlab/internal/expfile"
)

// TestAlternate: every cluster runs all its rounds, one round of each at a
// time, and while three or more are still running none runs two rounds
// back to back, even after others finish early.
func TestAlternate(t *testing.T) {
	for _, rounds := range [][]int{{4, 4, 4}, {6, 6, 6, 2}, {2, 7, 7, 7, 7}, {1, 5}} {
		t.Run(fmt.Sprint(rounds), func(t *testing.T) {
			xs := make([]int, len(rounds))
			for i := range xs {
				xs[i] = i
			}
			ran := make([]int, len(rounds))
			var seq []int
			var finished []int
			alternate(xs, func() bool { return len(seq) > 100 },
				func(x int) bool {
					if ran[x] == rounds[x] {
						return false
					}
					ran[x]++
					seq = append(seq, x)
					return true
				},
				func(x int, rest []int) {
					finished = append(finished, x)
					for _, y := range rest {
						if contains(finished, y) {
							t.Errorf("%d finished; rest %v holds %d, which finished before", x, rest, y)
						}
					}
				})
			for x := range rounds {
				if ran[x] != rounds[x] {
					t.Errorf("cluster %d ran %d rounds, want %d (%v)", x, ran[x], rounds[x], seq)
				}
			}
			if len(finished) != len(rounds) {
				t.Errorf("done heard of %v, want all %d", finished, len(rounds))
			}
			for i := 1; i < len(seq); i++ {
				if seq[i] == seq[i-1] && running(rounds, seq[:i]) >= 3 {
					t.Fatalf("cluster %d ran two rounds back to back at %d while 3 or more ran: %v", seq[i], i, seq)
				}
			}
		})
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// running is how many clusters still had rounds to run after seq.
func running(rounds []int, seq []int) int {
	ran := make([]int, len(rounds))
	for _, x := range seq {
		ran[x]++
	}
	n := 0
	for x := range rounds {
		if ran[x] < rounds[x] {
			n++
		}
	}
	return n
}

// TestTurns: the scenario that opens a cluster's turns alternates from
// turn to turn — also for two clusters, whose reversed order gives turns
// of two rounds — and each scenario still opens half the rounds.
func TestTurns(t *testing.T) {
	for _, m := range []int{2, 3, 4} {
		t.Run(fmt.Sprint(m, " clusters"), func(t *testing.T) {
			ss := make([]*session, m)
			for i := range ss {
				ss[i] = &session{}
			}
			scs := []expfile.Scenario{{ID: "a"}, {ID: "b"}, {ID: "c"}}
			k := newTurns()
			n := map[*session]int{}   // rounds each session ran
			first := map[string]int{} // rounds each scenario opened
			openers := map[*session][]string{}
			var last *session
			for round := range 8 * m {
				for _, s := range clusterOrder(ss, round) {
					got := k.arrange(s, roundOf(scs, n[s], false, nil))
					n[s]++
					if len(got) != len(scs) {
						t.Fatalf("round of %d trials, want %d", len(got), len(scs))
					}
					if s != last {
						openers[s] = append(openers[s], got[0].sc.ID)
					}
					first[fmt.Sprint(s == ss[0], got[0].sc.ID)]++
					last = s
				}
			}
			for i, s := range ss {
				o := openers[s]
				for j := 1; j < len(o); j++ {
					if o[j] == o[j-1] {
						t.Fatalf("cluster %d: turns %d and %d both open with %s: %v", i, j-1, j, o[j], o)
					}
				}
			}
			if first["true a"] != first["true c"] || first["true b"] != 0 {
				t.Errorf("cluster 0's rounds opened by scenario: a %d, b %d, c %d; want a and c alike", first["true a"], first["true b"], first["true c"])
			}
		})
	}
}

// TestTurnsSkipEmpty: an empty round (all of it ran in a resumed run)
// neither opens a turn nor changes the order.
func TestTurnsSkipEmpty(t *testing.T) {
	a, b := &session{}, &session{}
	k := newTurns()
	scs := []expfile.Scenario{{ID: "x"}, {ID: "y"}}
	k.arrange(a, roundOf(scs, 0, false, nil))
	if got := k.arrange(b, nil); len(got) != 0 {
		t.Fatalf("empty round arranged into %v", got)
	}
	if got := k.arrange(a, roundOf(scs, 1, false, nil)); got[0].sc.ID != "y" {
		t.Errorf("a's round after an empty round of b opens with %s, want y (the same turn, unflipped)", got[0].sc.ID)
	}
}
