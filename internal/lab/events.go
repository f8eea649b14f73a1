package lab

import (
	"fmt"
	"time"

	"github.com/prodlab/prodlab/internal/progress"
	"github.com/prodlab/prodlab/internal/results"
)

// EventKind says what an Event reports.
type EventKind int

// The kinds of events a run publishes, in the order a trial publishes them.
const (
	// TrialStarted: a trial of Scenario (number Trial) began.
	TrialStarted EventKind = iota
	// TrialProgress: records Sent and Acked so far, at Rate records/s.
	TrialProgress
	// TrialFinished: the trial's Record is final; Status is its closing
	// words for a progress line.
	TrialFinished
	// Log: a line about the run (Line), timestamped.
	Log
)

// Event is one thing a run did. Progress, the results writer, the run's
// summary and any other view (Options.OnEvent) subscribe to one stream of
// them, so none of them is wired into the code that runs trials.
type Event struct {
	Kind     EventKind
	Scenario string
	Trial    int
	Warmup   bool
	// Sent, Acked and Rate are a TrialProgress event's figures.
	Sent, Acked int64
	Rate        float64
	// Record is a TrialFinished event's record, Status its closing words.
	Record *results.Record
	Status string
	// Line is a Log event's text.
	Line string
}

// events publishes each event to every subscriber in turn.
type events []func(Event)

func (es events) publish(ev Event) {
	for _, f := range es {
		f(ev)
	}
}

// logf publishes a timestamped log line.
func (es events) logf(format string, args ...any) {
	es.publish(Event{Kind: Log, Line: time.Now().Format("15:04:05") + " " + fmt.Sprintf(format, args...)})
}

// progressView draws the events on a progress bar: it numbers the trials
// as they start.
func progressView(bar *progress.Bar) func(Event) {
	started := 0
	return func(ev Event) {
		switch ev.Kind {
		case TrialStarted:
			started++
			bar.Start(started-1, ev.Scenario+warmNote(ev.Warmup), ev.Trial)
		case TrialProgress:
			bar.Update(ev.Sent, ev.Acked, ev.Rate)
		case TrialFinished:
			bar.Done(ev.Status)
		case Log:
			bar.Logf("%s", ev.Line)
		}
	}
}

// resultsWriter appends each finished trial to results.jsonl as it ends;
// a failed append is logged through logf and the run goes on.
func resultsWriter(w *results.Writer, logf func(format string, args ...any)) func(Event) {
	return func(ev Event) {
		if ev.Kind != TrialFinished {
			return
		}
		if err := w.Append(*ev.Record); err != nil {
			logf("append result: %v", err)
		}
	}
}

// collect keeps every finished trial in sum, counted by status.
func collect(sum *Summary) func(Event) {
	return func(ev Event) {
		if ev.Kind == TrialFinished {
			sum.add(*ev.Record)
		}
	}
}

// add counts a trial in the summary and keeps its record.
func (s *Summary) add(rec results.Record) {
	s.Trials++
	switch rec.Status {
	case results.StatusFailed:
		s.Failed++
	case results.StatusViolated:
		s.Violated++
	case results.StatusInterrupted:
		s.Interrupted++
	}
	s.Records = append(s.Records, rec)
}

func warmNote(warm bool) string {
	if warm {
		return " (warm-up)"
	}
	return ""
}
