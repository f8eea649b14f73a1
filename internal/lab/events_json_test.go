package lab

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
)

// TestEventsWriter writes a trial's events to events.ndjson, one JSON
// object a line with its kind and time, the record whole; a write that
// fails is said once, through the run's log, without a deadlock (saying
// it publishes a Log event, which comes back to the writer).
func TestEventsWriter(t *testing.T) {
	dir := t.TempDir()
	var said []string
	var w *eventsWriter
	logf := func(format string, args ...any) {
		said = append(said, fmt.Sprintf(format, args...))
		w.publish(Event{Kind: Log, Line: said[len(said)-1]})
	}
	w, err := newEventsWriter(dir, logf)
	if err != nil {
		t.Fatal(err)
	}
	rec := results.Record{ScenarioID: "linger.ms=5", Status: results.StatusOK, Throughput: results.Throughput{RecordsPerS: 1234}}
	for _, ev := range []Event{
		{Kind: TrialStarted, Scenario: "linger.ms=5", Trial: 2},
		{Kind: TrialProgress, Scenario: "linger.ms=5", Sent: 10, Acked: 9, Rate: 500},
		{Kind: TrialFinished, Scenario: "linger.ms=5", Trial: 2, Record: &rec, Status: "ok"},
		{Kind: Log, Line: "12:00:00 cluster ready"},
	} {
		w.publish(ev)
	}
	f, err := os.Open(filepath.Join(dir, EventsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var kinds []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e eventJSON
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if e.Time == "" {
			t.Errorf("line %q has no time", sc.Text())
		}
		if e.Kind == "trial_finished" && (e.Record == nil || e.Record.Throughput.RecordsPerS != 1234) {
			t.Errorf("finished event's record %+v, want the record whole", e.Record)
		}
		kinds = append(kinds, e.Kind)
	}
	if got := strings.Join(kinds, ","); got != "trial_started,trial_progress,trial_finished,log" {
		t.Errorf("kinds %s", got)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w.publish(Event{Kind: Log, Line: "after close"})
	w.publish(Event{Kind: Log, Line: "again"})
	if len(said) != 1 || !strings.Contains(said[0], EventsFile) {
		t.Errorf("said %q, want the failure once", said)
	}
}
