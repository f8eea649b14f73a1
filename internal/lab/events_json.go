package lab

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/secret"
)

// EventsFile is the run directory's events.ndjson: every event of the
// run, one JSON object a line (Event.MarshalJSON), as it happened, for a
// page or a script to replay the run.
const EventsFile = "events.ndjson"

// eventKindNames are the events' kinds as their JSON spells them.
var eventKindNames = map[EventKind]string{
	TrialStarted: "trial_started", TrialProgress: "trial_progress", TrialFinished: "trial_finished", Log: "log",
}

// eventJSON is an Event's JSON form; Time is when it was published.
type eventJSON struct {
	Kind     string          `json:"kind"`
	Time     string          `json:"time"`
	Scenario string          `json:"scenario,omitempty"`
	Trial    int             `json:"trial"`
	Warmup   bool            `json:"warmup,omitempty"`
	Sent     int64           `json:"sent,omitempty"`
	Acked    int64           `json:"acked,omitempty"`
	Rate     float64         `json:"rate,omitempty"`
	Status   string          `json:"status,omitempty"`
	Line     string          `json:"line,omitempty"`
	Record   *results.Record `json:"record,omitempty"`
}

// JSON is ev as one JSON object stamped with now.
func (ev Event) JSON(now time.Time) ([]byte, error) {
	b, err := json.Marshal(eventJSON{Kind: eventKindNames[ev.Kind], Time: now.UTC().Format(time.RFC3339Nano),
		Scenario: ev.Scenario, Trial: ev.Trial, Warmup: ev.Warmup, Sent: ev.Sent, Acked: ev.Acked, Rate: ev.Rate,
		Status: ev.Status, Line: ev.Line, Record: ev.Record})
	if err != nil {
		return nil, fmt.Errorf("event %s: %w", eventKindNames[ev.Kind], err)
	}
	return b, nil
}

// eventsWriter appends each event to dir's events.ndjson. A write that
// fails is said once through logf and the file is given up; the run goes
// on (results.jsonl is the contract, this file a replay of it).
type eventsWriter struct {
	mu     sync.Mutex
	f      *os.File
	logf   func(format string, args ...any)
	failed bool
}

// newEventsWriter opens dir's events file for appending (a resumed run
// adds to it).
func newEventsWriter(dir string, logf func(format string, args ...any)) (*eventsWriter, error) {
	f, err := os.OpenFile(filepath.Join(dir, EventsFile), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", EventsFile, err)
	}
	return &eventsWriter{f: f, logf: logf}, nil
}

// publish writes ev as one line. The failure is said after the lock is
// released: saying it publishes a Log event, which comes here again.
func (w *eventsWriter) publish(ev Event) {
	if err := w.write(ev); err != nil {
		w.logf("%s: %v; the run goes on", EventsFile, err)
	}
}

// write appends ev; it returns the error of the first write that fails,
// after which it writes nothing (an event that cannot be encoded is
// skipped, said, and the file goes on).
func (w *eventsWriter) write(ev Event) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.failed {
		return nil
	}
	b, err := ev.JSON(time.Now())
	if err != nil {
		return err
	}
	// scrubbed of the run's secrets, as every file of the run directory
	if _, err := w.f.Write(append(secret.ScrubJSON(b), '\n')); err != nil {
		w.failed = true
		return err
	}
	return nil
}

// Close closes the file.
func (w *eventsWriter) Close() error { return w.f.Close() }
