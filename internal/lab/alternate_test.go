package lab

import (
	"fmt"
	"testing"
)

// TestClusterOrder: with three or more clusters no cluster runs two rounds
// back to back (each turn is one round, so the scenario opening it
// alternates), and each takes each place once per cycle; two clusters
// reverse every round.
func TestClusterOrder(t *testing.T) {
	for _, m := range []int{3, 4, 5} {
		t.Run(fmt.Sprint(m, " clusters"), func(t *testing.T) {
			xs := make([]int, m)
			for i := range xs {
				xs[i] = i
			}
			places := make([]int, m) // sum of each cluster's places over a cycle
			var seq []int
			for round := range 3 * m {
				o := clusterOrder(xs, round)
				if len(o) != m {
					t.Fatalf("round %d: %v", round, o)
				}
				for place, c := range o {
					if round < m {
						places[c] += place
					}
				}
				seq = append(seq, o...)
			}
			for i := 1; i < len(seq); i++ {
				if seq[i] == seq[i-1] {
					t.Fatalf("cluster %d runs two rounds back to back at %d: %v", seq[i], i, seq)
				}
			}
			for c, p := range places {
				if p != places[0] {
					t.Errorf("cluster %d's places sum to %d over a cycle, cluster 0's to %d", c, p, places[0])
				}
			}
		})
	}
	if got := clusterOrder([]string{"a", "b"}, 1); got[0] != "b" || got[1] != "a" {
		t.Errorf("two clusters, round 1: %v, want reversed", got)
	}
}
