package lab

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/testtier"
)

// TestWatchStuck: a driver that outlives its timeout gets the goroutines
// logged once; one that returns in time gets nothing.
func TestWatchStuck(t *testing.T) {
	testtier.Quiet(t)
	tests := []struct {
		name   string
		runFor time.Duration
		want   bool
	}{
		{"returns in time", 0, false},
		{"stuck past its timeout", 200 * time.Millisecond, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var lines []string
			x := &executor{ev: events{func(ev Event) {
				mu.Lock()
				defer mu.Unlock()
				lines = append(lines, ev.Line)
			}}}
			stop := x.watchStuck("topic-1", 10*time.Millisecond, 20*time.Millisecond)
			time.Sleep(tt.runFor)
			stop()
			time.Sleep(100 * time.Millisecond) // a watch that stop missed would log now
			mu.Lock()
			defer mu.Unlock()
			got := len(lines) == 1 && strings.Contains(lines[0], "topic-1: the driver has not returned") && strings.Contains(lines[0], "goroutine ")
			if got != tt.want || len(lines) > 1 {
				t.Errorf("logged %q, want a goroutine dump: %v", lines, tt.want)
			}
		})
	}
}
