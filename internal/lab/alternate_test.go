package lab

import (
	"fmt"
	"strings"
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

// TestWithinClusters: clusters alternate only when a planned comparison
// sets one cluster against another; a run whose every comparison stays
// within a cluster (idempotence's) runs each cluster's rounds in turn.
// Runs without comparisons, capacity searches and the advisor keep
// alternating.
func TestWithinClusters(t *testing.T) {
	const base = "name: w\nclient: franz-go\nworkload: {duration.s: 3, warmup.s: 1}\nmatrix:\n  enable.idempotence: [true, false]\n  cluster.brokers: [1, 3]\n"
	for _, tc := range []struct {
		name, extra string
		want        bool
	}{
		{"compare within each cluster", "trials: auto\ncompare: [{axis: enable.idempotence}]\n", true},
		{"compare across clusters", "trials: auto\ncompare: [{axis: cluster.brokers}]\n", false},
		{"one comparison across", "trials: auto\ncompare: [{axis: enable.idempotence}, {axis: cluster.brokers}]\n", false},
		{"no comparisons", "trials: auto\n", false},
		{"capacity", "compare: [{axis: enable.idempotence}]\ncapacity: {slo: {p99.ms: 50}}\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exp, scs := planYAML(t, "w.yaml", base+tc.extra)
			cmps, err := exp.Comparisons(scs)
			if err != nil {
				t.Fatal(err)
			}
			var log []string
			r := &runner{exp: exp, cmps: cmps, ev: events{func(ev Event) { log = append(log, ev.Line) }}}
			gs := groupByCluster(scs)
			if len(gs) != 2 {
				t.Fatalf("%d groups, want 2", len(gs))
			}
			if got := r.withinClusters(gs); got != tc.want {
				t.Errorf("withinClusters = %v, want %v (%d comparisons)", got, tc.want, len(cmps))
			}
			// Within clusters, the run does not alternate and says why.
			if tc.want {
				if r.alternates(gs) || !strings.Contains(strings.Join(log, "\n"), "every comparison is between scenarios of one cluster") {
					t.Errorf("alternates, or the log does not say why not: %q", log)
				}
			}
		})
	}
}
