package lab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/progress"
	"github.com/prodlab/prodlab/internal/results"
)

// TestEvents sends one trial's events through every subscriber: the
// progress bar numbers and closes the trial, the writer appends its record,
// the summary counts it by status.
func TestEvents(t *testing.T) {
	dir := t.TempDir()
	w, err := results.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	var sum Summary
	var seen []EventKind
	es := events{progressView(progress.New(&log, 2)), resultsWriter(w, func(string, ...any) { t.Error("append failed") }), collect(&sum),
		func(ev Event) { seen = append(seen, ev.Kind) }}
	for _, st := range []string{results.StatusOK, results.StatusViolated} {
		rec := results.Record{Schema: results.Schema, ScenarioID: "a", Status: st}
		es.publish(Event{Kind: TrialStarted, Scenario: "a"})
		es.publish(Event{Kind: TrialProgress, Sent: 10, Acked: 5, Rate: 100})
		es.publish(Event{Kind: TrialFinished, Scenario: "a", Record: &rec, Status: "closing words " + st})
	}
	es.logf("a line %d", 7)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if sum.Trials != 2 || sum.Violated != 1 || sum.Failed != 0 || len(sum.Records) != 2 {
		t.Errorf("summary %+v", sum)
	}
	if len(seen) != 7 || seen[6] != Log {
		t.Errorf("subscriber saw %v", seen)
	}
	for _, want := range []string{"closing words ok", "closing words violated", "a line 7", "2/2"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, log.String())
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, results.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n != 2 {
		t.Errorf("results.jsonl has %d lines, want 2", n)
	}
}
