package lab

import (
	"bytes"
	"os"
	"runtime/pprof"
	"time"
)

// stuckAfter is how long past its own timeout a driver's Run may take
// before the run log says so and the process's goroutines are kept: a
// trial whose driver ignores its timeout is a bug, and the stacks are what
// finds it. It lies past the drivers' own bound (a worker's trial is
// killed 2 minutes past its timeout), so that a worker that hangs is
// reported by its driver, not by this watch.
const stuckAfter = 3 * time.Minute

// watchStuck logs once, if the trial bounded by timeout (zero: the
// driver's default, 10 minutes) has not returned after past it (stuckAfter
// in a run), that it has not, and writes every goroutine's stack to a file
// the line names (not to the terminal); the returned func stops the watch.
func (x *executor) watchStuck(label string, timeout, after time.Duration) (stop func()) {
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	t := time.AfterFunc(timeout+after, func() {
		var b bytes.Buffer
		_ = pprof.Lookup("goroutine").WriteTo(&b, 2)
		where := "(could not be written)"
		if f, err := os.CreateTemp("", "prodlab-stuck-*.txt"); err == nil {
			if _, err := f.Write(b.Bytes()); err == nil {
				where = f.Name()
			}
			_ = f.Close()
		}
		x.ev.logf("%s: the driver has not returned %s after the trial's timeout (%s): a bug in prodlab; its goroutines are in %s", label, after, timeout, where)
	})
	return func() { t.Stop() }
}
