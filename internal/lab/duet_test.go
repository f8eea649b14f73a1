package lab

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/testtier"
)

// TestDuetPlace checks that arms sharing a cluster shape meet every
// pairing of cluster and CPU half once in 4 rounds, never on the same
// cluster or half as each other, and that arms on their own clusters stay
// on them and swap halves every round.
func TestDuetPlace(t *testing.T) {
	for _, swap := range []bool{true, false} {
		p := &duetPair{swap: swap, clusters: [2]int{3, 5}}
		seen := [2]map[[2]int]bool{{}, {}}
		for n := range 4 {
			c0, h0 := p.place(0, n)
			c1, h1 := p.place(1, n)
			if c0 == c1 || h0 == h1 {
				t.Errorf("swap %v, round %d: arms share cluster or half: (%d,%d) (%d,%d)", swap, n, c0, h0, c1, h1)
			}
			if !swap && (c0 != 3 || c1 != 5) {
				t.Errorf("own clusters, round %d: arms on clusters %d and %d, want 3 and 5", n, c0, c1)
			}
			if _, hPrev := p.place(0, n+1); !swap && hPrev == h0 {
				t.Errorf("own clusters, round %d: arm 0 kept half %d the next round", n, h0)
			}
			seen[0][[2]int{c0, h0}] = true
			seen[1][[2]int{c1, h1}] = true
		}
		if swap && (len(seen[0]) != 4 || len(seen[1]) != 4) {
			t.Errorf("trading arms met %d and %d of 4 pairings in 4 rounds", len(seen[0]), len(seen[1]))
		}
	}
}

// TestDuetClusters checks the clusters a duet starts: two of a shape that
// both arms of a pair share (pairs of that shape reuse them), one of each
// shape for a pair of two shapes, and each cluster's scenarios.
func TestDuetClusters(t *testing.T) {
	sc := func(id string, brokers int) expfile.Scenario {
		return expfile.Scenario{ID: id, Exp: expfile.Experiment{Cluster: expfile.Cluster{Brokers: brokers}}}
	}
	scs := []expfile.Scenario{sc("a1", 1), sc("b1", 1), sc("a3", 3), sc("b3", 3), sc("x1", 1), sc("y3", 3)}
	gs, ps := duetClusters(scs, [][2]string{{"a1", "b1"}, {"a3", "b3"}, {"x1", "y3"}})
	var got []string
	for _, g := range gs {
		var ids []string
		for _, s := range g.scs {
			ids = append(ids, s.ID)
		}
		got = append(got, fmt.Sprintf("%d brokers: %s", g.brokers, strings.Join(ids, " ")))
	}
	want := []string{"1 brokers: a1 b1 x1", "1 brokers: a1 b1", "3 brokers: a3 b3 y3", "3 brokers: a3 b3"}
	if !slices.Equal(got, want) {
		t.Errorf("clusters:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantPairs := []duetPair{
		{ids: [2]string{"a1", "b1"}, clusters: [2]int{0, 1}, swap: true},
		{ids: [2]string{"a3", "b3"}, clusters: [2]int{2, 3}, swap: true},
		{ids: [2]string{"x1", "y3"}, clusters: [2]int{0, 2}},
	}
	if !slices.Equal(ps, wantPairs) {
		t.Errorf("pairs %+v, want %+v", ps, wantPairs)
	}
	d := &duet{pairs: ps}
	round := []trialSpec{{sc: scs[5]}, {sc: scs[0]}, {sc: scs[4]}, {sc: scs[1]}, {sc: scs[3]}}
	var sides []string
	for _, s := range d.sides(round) {
		var ids []string
		for _, t := range s.trials {
			ids = append(ids, t.sc.ID)
		}
		sides = append(sides, strings.Join(ids, "+"))
	}
	if want := []string{"y3+x1", "a1+b1", "b3"}; !slices.Equal(sides, want) {
		t.Errorf("sides %v, want %v (pairs in the order of their first trial; a lone trial runs alone)", sides, want)
	}
}

// TestRendezvous checks that both arms start together, and that an arm
// that ends early (arrive without waiting) does not leave the other
// waiting.
func TestRendezvous(t *testing.T) {
	r := newRendezvous(2)
	done := make(chan struct{})
	go func() { r.wait(context.Background(), 0); close(done) }()
	select {
	case <-done:
		t.Fatal("arm 0 went on before arm 1 arrived")
	case <-time.After(50 * time.Millisecond):
	}
	r.arrive(1)
	r.arrive(1) // an arm that arrives twice counts once
	select {
	case <-done:
	case <-time.After(time.Minute): // a hang guard: it takes microseconds
		t.Fatal("arm 0 still waits after arm 1 arrived")
	}

	ctx, cancel := context.WithCancel(context.Background())
	r = newRendezvous(2)
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	r.wait(ctx, 0) // returns once ctx ends although arm 1 never comes
}

// TestUnshareClientCPU checks that a duet arm whose client ran in
// prodlab's shared process drops the client's CPU (it is both arms'),
// and that an arm with its own client process, or no duet, keeps it.
func TestUnshareClientCPU(t *testing.T) {
	for _, tc := range []struct {
		name string
		arm  *duetArm
		want float64
	}{
		{"no duet", nil, 3},
		{"own process", &duetArm{inProcess: false}, 3},
		{"in prodlab's process", &duetArm{inProcess: true}, 0},
	} {
		c := &results.CPU{ClientS: 1, ClientMsPerMB: 3, BrokersMsPerMB: 5}
		tc.arm.unshareClientCPU(c)
		if c.ClientMsPerMB != tc.want {
			t.Errorf("%s: client ms/MB %v, want %v", tc.name, c.ClientMsPerMB, tc.want)
		}
	}
}

// TestDuetRun runs a duet of two Java arms on two real clusters and
// checks what makes it one: both trials of a round start their windows
// together, each arm's brokers and worker are on their own CPU half, the
// arms of one shape meet every pairing of cluster and half in 4 rounds,
// and the workers' CPU stays in the records (each is its own process).
func TestDuetRun(t *testing.T) {
	testtier.Quiet(t)
	if _, _, err := duetHalves(); err != nil {
		t.Skip(err)
	}
	recs, err := runYAML(t, `
name: duet
workload: {duration.s: 1, warmup.s: 0.2, record.size: 512, payload: random}
client: java
producer: {acks: all, linger.ms: 5}
schedule: duet
trials: 4
matrix:
  linger.ms: [0, 5]
compare:
  - {axis: linger.ms}
`, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 8 {
		t.Fatalf("%d records, want 8 (4 rounds of 2)", len(recs))
	}
	byRound := map[int][]results.Record{}
	for _, r := range recs {
		if r.Status != results.StatusOK {
			t.Fatalf("trial %d of %s: %s %s", r.Trial, r.ScenarioID, r.Status, r.Error)
		}
		byRound[r.Trial] = append(byRound[r.Trial], r)
	}
	where := map[string][]string{}
	for n := range 4 {
		rs := byRound[n]
		if len(rs) != 2 || rs[0].ScenarioID == rs[1].ScenarioID {
			t.Fatalf("round %d: %d records, want one of each arm", n, len(rs))
		}
		a, _ := time.Parse(time.RFC3339Nano, rs[0].StartedAt)
		b, _ := time.Parse(time.RFC3339Nano, rs[1].StartedAt)
		if d := a.Sub(b).Abs(); d > 3*time.Second {
			t.Errorf("round %d: the arms started %v apart; a duet runs them together", n, d)
		}
		for _, r := range rs {
			if r.CPU == nil || !strings.HasPrefix(r.CPU.Sets, "duet: cluster ") || !strings.Contains(r.CPU.Sets, "brokers and client on CPU") {
				t.Fatalf("round %d, %s: cpu %+v, want a duet arm with its worker pinned", n, r.ScenarioID, r.CPU)
			}
			if r.CPU.ClientMsPerMB <= 0 {
				t.Errorf("round %d, %s: no client CPU; a Java worker is the arm's own", n, r.ScenarioID)
			}
			where[r.ScenarioID] = append(where[r.ScenarioID], r.CPU.Sets)
		}
		if rs[0].CPU.Sets[:15] == rs[1].CPU.Sets[:15] {
			t.Errorf("round %d: both arms on %q", n, rs[0].CPU.Sets[:15])
		}
	}
	for id, ws := range where {
		seen := map[string]bool{}
		for _, w := range ws {
			seen[w] = true
		}
		if len(seen) != 4 {
			t.Errorf("%s ran on %d places in 4 rounds, want every cluster and half once: %q", id, len(seen), ws)
		}
	}
}

// TestSplitByCore checks that hyperthreads of one core stay in one half,
// that cores split in halves by their lowest CPU, and that an unknown
// topology or a single core splits by CPU.
func TestSplitByCore(t *testing.T) {
	smt := map[int]string{0: "0/0", 1: "0/1", 2: "0/0", 3: "0/1"}
	for _, tc := range []struct {
		name string
		ids  []int
		core func(int) string
		want [2][]int
	}{
		{"SMT siblings", []int{0, 1, 2, 3}, func(id int) string { return smt[id] }, [2][]int{{0, 2}, {1, 3}}},
		{"unknown topology", []int{0, 1, 2, 3}, func(int) string { return "" }, [2][]int{{0, 1}, {2, 3}}},
		{"one core, two threads", []int{4, 5}, func(int) string { return "0/0" }, [2][]int{{4}, {5}}},
		{"three cores", []int{0, 1, 2}, func(id int) string { return fmt.Sprint(id) }, [2][]int{{0}, {1, 2}}},
	} {
		got := splitByCore(tc.ids, tc.core)
		if !slices.Equal(got[0], tc.want[0]) || !slices.Equal(got[1], tc.want[1]) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
