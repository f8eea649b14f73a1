//go:build linux || darwin

package netem

import (
	"syscall"
	"time"
)

// preciseSleep blocks the calling thread in nanosleep, which wakes within
// tens of microseconds; it is only used for waits of at most fineWait.
func preciseSleep(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	for {
		var rem syscall.Timespec
		if err := syscall.Nanosleep(&ts, &rem); err != syscall.EINTR {
			return
		}
		ts = rem
	}
}
