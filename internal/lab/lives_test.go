package lab

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/testtier"
)

// TestLivesAuto runs lives: auto on a real 1-broker cluster with a budget
// that fits a few lives: the cluster starts once per life, each life runs
// its 2 rounds (trial numbers go on from life to life: one schedule spans
// them), every record names its life, the run stops when the budget left
// cannot fit another life — its starts and warm-ups charged to it — and
// (lives: N, whose rounds restart from 0 in each life and whose Findings
// judge the comparison over the lives, is TestLivesTwoClusters.)
func TestLivesAuto(t *testing.T) {
	testtier.Quiet(t)
	if testing.Short() {
		t.Skip("starts a Kafka cluster several times")
	}
	src := "name: lives\nclient: franz-go\nworkload: {records: 20000, record.size: 100}\nwarmup: 0\ntrials: 2\nlives: auto\nbudget: 20s\n" +
		"matrix:\n  acks: [\"1\", all]\ncompare: [{axis: acks}]\n"
	exp, scs := planYAML(t, "lives.yaml", src)
	_, recs, log := runEmbedded(t, exp, scs, 4*time.Minute)
	lives := strings.Count(log, "cluster ready in")
	if lives < 1 || lives > expfile.MaxLives || len(recs) != 4*lives {
		t.Fatalf("%d cluster starts and %d records, want lives of 4 records each:\n%s", lives, len(recs), log)
	}
	for i, r := range recs {
		if r.Error != "" {
			t.Errorf("%s trial %d: %s", r.ScenarioID, r.Trial, r.Error)
		}
		if want := i / 4; r.Life != want || r.Trial != i/2 {
			t.Errorf("record %d: life %d trial %d, want life %d trial %d", i, r.Life, r.Trial, want, i/2)
		}
	}
	want := []string{"cannot fit another life (the last took", fmt.Sprintf("after %d lives: widest interval", lives), "lives: auto: done after"}
	if lives > 1 {
		want = append(want, "life 2 of at most 20: starting the clusters and their clients again")
	}
	for _, w := range want {
		if !strings.Contains(log, w) {
			t.Errorf("the log lacks %q:\n%s", w, log)
		}
	}
	// How many lives fit the budget is the machine's to decide; the
	// Findings over lives are judged on TestLivesTwoClusters' fixed two.
}

// TestLivesTwoClusters: lives run outermost — in each life every cluster
// in turn — so two clusters' lives interleave (A B A B) rather than one's
// lives all running before the other's, and the Findings judge the
// comparison over the two lives. (When clusters alternate or run
// in turn is TestWithinClusters' and TestTurns', without clusters; the
// alternating wiring is TestBrokerVersionsAndSettingsSideBySide's.)
func TestLivesTwoClusters(t *testing.T) {
	testtier.Shared(t)
	if testing.Short() {
		t.Skip("starts two Kafka clusters twice")
	}
	src := "name: lives2\nclient: franz-go\nworkload: {records: 20000, record.size: 100}\nwarmup: 0\ntrials: 1\nlives: 2\n" +
		"matrix:\n  cluster.configs.num.network.threads: [3, 5]\n  acks: [\"1\", all]\ncompare: [{axis: acks}]\n"
	exp, scs := planYAML(t, "lives2.yaml", src)
	dir, recs, _ := runEmbedded(t, exp, scs, 4*time.Minute)
	bs := clusterBlocks(t, recs)
	var got []string
	for _, b := range bs {
		got = append(got, b.cluster)
	}
	if strings.Join(got, " ") != "3 5 3 5" {
		t.Errorf("clusters ran in blocks %v, want 3 5 3 5 (each life every cluster in turn)", got)
	}
	for i, r := range recs {
		if want := i / 4; r.Life != want {
			t.Errorf("record %d (%s): life %d, want %d", i, r.ScenarioID, r.Life, want)
		}
	}
	plan, ok, err := results.ReadPlan(dir)
	if err != nil || !ok {
		t.Fatalf("plan: %v, %v", ok, err)
	}
	fs := report.Findings(recs, plan)
	if len(fs) == 0 {
		t.Errorf("no findings, want acks judged over the 2 lives")
	}
	for _, f := range fs {
		if f.Verdict.Test != stats.LivesTest || !strings.Contains(f.Verdict.Text, "(paired over 2 lives, 95 %") {
			t.Errorf("finding %s: %s (%s), want it judged over the 2 lives", f.Title, f.Verdict.Text, f.Verdict.Test)
		}
	}
}

// closeCounter is a driver that counts its Close calls.
type closeCounter struct {
	driver.Driver
	closed *int
}

func (c closeCounter) Close() error { *c.closed++; return nil }

// TestRestartWorkers: between lives the run's client workers are closed
// and forgotten, so the next cluster starts new ones.
func TestRestartWorkers(t *testing.T) {
	closed := 0
	r := &runner{drivers: map[string]driver.Driver{"java": closeCounter{closed: &closed}}}
	r.restartWorkers()
	if closed != 1 || len(r.drivers) != 0 {
		t.Errorf("closed %d, %d drivers left; want 1 closed and none left", closed, len(r.drivers))
	}
}
