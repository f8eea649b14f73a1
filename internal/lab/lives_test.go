package lab

import (
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// TestLives runs lives: 3 on a real 1-broker cluster: the cluster starts
// three times, each life runs its own rounds numbered from 0, every
// record names its life, and the Findings judge the comparison over the
// three lives.
func TestLives(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Kafka cluster three times")
	}
	src := "name: lives\nclient: franz-go\nworkload: {records: 20000, record.size: 100}\nwarmup: 0\ntrials: 2\nlives: 3\n" +
		"matrix:\n  acks: [\"1\", all]\ncompare: [{axis: acks}]\n"
	exp, scs := planYAML(t, "lives.yaml", src)
	dir, recs, log := runEmbedded(t, exp, scs, 4*time.Minute)
	if len(recs) != 12 {
		t.Fatalf("%d records, want 12 (3 lives × 2 rounds × 2 scenarios)", len(recs))
	}
	perLife := map[int]int{}
	for i, r := range recs {
		if r.Error != "" {
			t.Errorf("%s trial %d: %s", r.ScenarioID, r.Trial, r.Error)
		}
		if want := i / 4; r.Life != want || r.Trial != (i%4)/2 {
			t.Errorf("record %d: life %d trial %d, want life %d trial %d", i, r.Life, r.Trial, want, (i%4)/2)
		}
		perLife[r.Life]++
	}
	if got := strings.Count(log, "cluster ready in"); got != 3 {
		t.Errorf("the cluster started %d times, want 3:\n%s", got, log)
	}
	for _, want := range []string{"life 2 of 3: starting the clusters and their clients again", "life 3 of 3"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
	plan, ok, err := results.ReadPlan(dir)
	if err != nil || !ok {
		t.Fatalf("plan: %v", err)
	}
	fs := report.Findings(recs, plan)
	if len(fs) != 1 || fs[0].Verdict.Test != stats.LivesTest || fs[0].Verdict.Pairs != 6 || !strings.Contains(fs[0].Verdict.Text, "(paired over 3 lives, 95 %") {
		t.Errorf("findings %+v, want one judged over 3 lives on 6 pairs", fs)
	}
}

// TestLivesTwoClusters: lives run outermost — in each life every cluster
// in turn — so two clusters' lives interleave (A B A B) rather than one's
// lives all running before the other's.
func TestLivesTwoClusters(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two Kafka clusters twice")
	}
	src := "name: lives2\nclient: franz-go\nworkload: {records: 2000, record.size: 100}\nwarmup: 0\ntrials: 1\nlives: 2\n" +
		"matrix:\n  cluster.configs.num.network.threads: [3, 5]\n  acks: [\"1\", all]\ncompare: [{axis: acks}]\n"
	exp, scs := planYAML(t, "lives2.yaml", src)
	_, recs, _ := runEmbedded(t, exp, scs, 4*time.Minute)
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
