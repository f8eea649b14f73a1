package driver

import (
	"sync"
	"time"
)

// tickEvery calls fn with the tick's time every interval, from a new
// goroutine, until the returned stop function is called; stop waits for
// the goroutine, so fn is never called after it returns, and may be
// called more than once. Progress reports and timeline cuts run on it.
func tickEvery(interval time.Duration, fn func(now time.Time)) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-tick.C:
				fn(now)
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done); wg.Wait() }) }
}
