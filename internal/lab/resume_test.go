package lab

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/testtier"
)

// TestResume continues a run that stopped after three of its four measured
// trials, one of them interrupted: only the interrupted trial and the one
// never started run again, and the summary covers all four.
func TestResume(t *testing.T) {
	testtier.Shared(t)
	c := needCluster(t)
	exp, scs := planYAML(t, "resume.yaml", `
name: resume
workload: {records: 500, record.size: 100, payload: random}
client: franz-go
trials: 2
matrix:
  linger.ms: [0, 5]
`)
	prev := []results.Record{
		{Schema: results.Schema, ScenarioID: scs[0].ID, Trial: 0, Status: results.StatusOK},
		{Schema: results.Schema, ScenarioID: scs[1].ID, Trial: 0, Status: results.StatusFailed, Error: "earlier failure"},
		{Schema: results.Schema, ScenarioID: scs[1].ID, Trial: 1, Status: results.StatusInterrupted},
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	sum, err := Run(ctx, exp, scs, Options{Dir: dir, Bootstrap: c.Bootstrap(), Log: io.Discard, Previous: prev})
	if err == nil {
		t.Error("a run whose earlier part had a failed trial returned no error")
	}
	written, rerr := results.Read(dir)
	if rerr != nil {
		t.Fatal(rerr)
	}
	var ran []trialKey
	for _, r := range written {
		ran = append(ran, trialKey{r.ScenarioID, r.Trial})
		if r.Status != results.StatusOK {
			t.Errorf("%s trial %d: %s %s", r.ScenarioID, r.Trial, r.Status, r.Error)
		}
	}
	want := []trialKey{{scs[1].ID, 1}, {scs[0].ID, 1}} // round 1 runs in reverse order
	if len(ran) != len(want) || ran[0] != want[0] || ran[1] != want[1] {
		t.Errorf("ran %v, want %v", ran, want)
	}
	if sum.Trials != 5 || sum.Failed != 1 || sum.Interrupted != 1 || len(sum.Records) != 5 {
		t.Errorf("summary: %d trials, %d failed, %d interrupted, %d records; want 5, 1, 1, 5",
			sum.Trials, sum.Failed, sum.Interrupted, len(sum.Records))
	}
}
