package lab

import (
	"bytes"
	"runtime/pprof"
	"time"
)

// stuckAfter is how long past its own timeout a driver's Run may take
// before the run log gets the process's goroutines: a trial whose driver
// ignores its timeout is a bug, and the stacks are what finds it.
const stuckAfter = time.Minute

// watchStuck logs every goroutine's stack, once, if the trial bounded by
// timeout (zero: the driver's default, 10 minutes) has not returned
// after past it (stuckAfter in a run); the returned func stops the watch.
func (x *executor) watchStuck(label string, timeout, after time.Duration) (stop func()) {
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	t := time.AfterFunc(timeout+after, func() {
		var b bytes.Buffer
		_ = pprof.Lookup("goroutine").WriteTo(&b, 2)
		x.ev.logf("%s: the driver has not returned %s after the trial's timeout (%s); its goroutines:\n%s", label, after, timeout, b.String())
	})
	return func() { t.Stop() }
}
