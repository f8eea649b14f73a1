package driver

import "time"

// monoClock reads the time with the monotonic clock alone, for the send
// loop's hand-off of each record (a completion needs only its latency,
// time.Since of the hand-off): time.Now reads the wall clock too, a
// second vDSO call, and its 47 ns a call were 2.8 % of a profile of the
// franz-go driver. A time it gives is
// the clock's start in wall time plus the monotonic time since, as
// time.Now's are while nobody steps the wall clock; durations between its
// times are monotonic, as between time.Now's.
type monoClock struct{ base time.Time }

// newMonoClock is a clock started now.
func newMonoClock() monoClock { return monoClock{base: time.Now()} }

// now is the time, read once from the monotonic clock.
func (c monoClock) now() time.Time { return c.base.Add(time.Since(c.base)) }
