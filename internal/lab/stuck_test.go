package lab

import (
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestWatchStuck: a driver that outlives its timeout gets one log line
// naming a file of the goroutines' stacks (never the stacks themselves);
// one that returns in time gets nothing. Each case waits on
// what it asserts, not on a sleep that a loaded machine could outlast:
// the stuck one until its line is logged (10 s at most), the one in time
// past its whole watch (timeout and after: 400 ms, stopped at once).
func TestWatchStuck(t *testing.T) {
	tests := []struct {
		name           string
		timeout, after time.Duration
		stuck          bool
	}{
		{"returns in time", 200 * time.Millisecond, 200 * time.Millisecond, false},
		{"stuck past its timeout", 10 * time.Millisecond, 20 * time.Millisecond, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var lines []string
			logged := func() []string {
				mu.Lock()
				defer mu.Unlock()
				return slices.Clone(lines)
			}
			x := &executor{ev: events{func(ev Event) {
				mu.Lock()
				defer mu.Unlock()
				lines = append(lines, ev.Line)
			}}}
			stop := x.watchStuck("topic-1", tt.timeout, tt.after)
			if tt.stuck {
				for deadline := time.Now().Add(10 * time.Second); len(logged()) == 0 && time.Now().Before(deadline); {
					time.Sleep(5 * time.Millisecond)
				}
			}
			stop()
			time.Sleep(2 * (tt.timeout + tt.after)) // a watch that stop missed would log by now
			got := logged()
			dump := false
			if len(got) == 1 {
				_, path, _ := strings.Cut(got[0], "its goroutines are in ")
				data, err := os.ReadFile(path)
				dump = strings.Contains(got[0], "topic-1: the driver has not returned") && err == nil && strings.Contains(string(data), "goroutine ")
				_ = os.Remove(path)
				if strings.Contains(got[0], "goroutine ") {
					t.Errorf("the log line carries the stacks: %.200q", got[0])
				}
			}
			if dump != tt.stuck || len(got) > 1 {
				t.Errorf("logged %q, want a line naming a file of goroutine stacks: %v", got, tt.stuck)
			}
		})
	}
}
