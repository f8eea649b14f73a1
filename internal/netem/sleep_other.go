//go:build !linux && !darwin

package netem

import "time"

// preciseSleep falls back to time.Sleep where nanosleep is not available;
// delays may then overshoot by up to the runtime's timer granularity.
func preciseSleep(d time.Duration) { time.Sleep(d) }
