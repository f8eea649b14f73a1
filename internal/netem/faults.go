package netem

import (
	"slices"
	"sync"
	"time"
)

// Fault describes connection cuts: the proxy forwards a produce request to
// the broker, swallows the broker's response and closes the client
// connection, so the client must retry a write that in fact succeeded (the
// scenario that idempotence is meant to deduplicate).
//
// Only produce requests that expect a response (acks != 0) are candidates.
type Fault struct {
	// EveryProduce cuts at every Nth such produce request through this proxy,
	// counted from SetConfig (0 = never).
	EveryProduce int
	// At cuts once at each of these offsets since SetConfig: the first
	// produce request at or after the offset is the one whose response is
	// swallowed.
	At []time.Duration
}

// Event kinds.
const (
	EventCut          = "cut"           // a connection cut by Fault
	EventDialError    = "dial_error"    // the broker could not be reached; the client connection was closed
	EventFramingError = "framing_error" // the stream was not Kafka framing; it is forwarded untouched from then on
	EventRewriteError = "rewrite_error" // a Metadata/FindCoordinator response could not be rewritten; forwarded unchanged
)

// Event is something the proxy did or suffered, for the run log.
type Event struct {
	Time   time.Time
	Kind   string
	Detail string
}

// maxEvents bounds the event log of one proxy; later events are counted but
// dropped.
const maxEvents = 10000

// eventLog is an append-only, bounded list of events.
type eventLog struct {
	mu      sync.Mutex
	events  []Event
	dropped int
}

func (l *eventLog) add(kind, detail string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.events) >= maxEvents {
		l.dropped++
		return
	}
	l.events = append(l.events, Event{Time: time.Now(), Kind: kind, Detail: detail})
}

func (l *eventLog) list() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.events)
}

// faultState decides which produce requests get their connection cut.
type faultState struct {
	mu     sync.Mutex
	f      Fault
	epoch  time.Time
	count  int
	nextAt int
}

// reset arms f from now.
func (s *faultState) reset(f *Fault, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.f = Fault{}
	if f != nil {
		s.f = Fault{EveryProduce: f.EveryProduce, At: slices.Clone(f.At)}
		slices.Sort(s.f.At)
	}
	s.epoch, s.count, s.nextAt = now, 0, 0
}

// cut reports whether the produce request seen at now must be cut.
func (s *faultState) cut(now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count++
	hit := s.f.EveryProduce > 0 && s.count%s.f.EveryProduce == 0
	for s.nextAt < len(s.f.At) && now.Sub(s.epoch) >= s.f.At[s.nextAt] {
		s.nextAt++ // several offsets already passed collapse into one cut
		hit = true
	}
	return hit
}
