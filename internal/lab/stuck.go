package lab

import (
	"bytes"
	"fmt"
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
		where, err := writeStacks(b.Bytes())
		if err != nil {
			where = fmt.Sprintf("(not kept: %v)", err)
		}
		x.ev.logf("%s: the driver has not returned %s after the trial's timeout (%s): a bug in prodlab; its goroutines are in %s", label, after, timeout, where)
	})
	return func() { t.Stop() }
}

// writeStacks keeps a goroutine dump in a file of its own and returns its
// path; a file it could not write whole is removed.
func writeStacks(stacks []byte) (string, error) {
	f, err := os.CreateTemp("", "prodlab-stuck-*.txt")
	if err != nil {
		return "", err
	}
	_, err = f.Write(stacks)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}
