package netem

import (
	"sync"
	"sync/atomic"
)

// gate holds a proxy's writers while it is closed (Proxy.Isolate). Closes
// count: two overlapping isolations (two zones cut off at once, both
// crossing this proxy's path) keep it closed until both have opened it.
// The zero value is open.
type gate struct {
	mu    sync.Mutex
	holds int
	shut  chan struct{} // non-nil while closed; closed by the last open
	// isShut mirrors holds > 0 for the readers' per-chunk check.
	isShut atomic.Bool
}

// close adds a hold.
func (g *gate) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.holds++
	if g.shut == nil {
		g.shut = make(chan struct{})
		g.isShut.Store(true)
	}
}

// open removes a hold; the last one lets every waiting writer through.
func (g *gate) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.holds == 0 {
		return
	}
	g.holds--
	if g.holds == 0 {
		close(g.shut)
		g.shut = nil
		g.isShut.Store(false)
	}
}

// closed reports whether the gate holds.
func (g *gate) closed() bool { return g.isShut.Load() }

// wait blocks while the gate is shut; it reports false if done was closed
// first.
func (g *gate) wait(done <-chan struct{}) bool {
	if !g.isShut.Load() {
		return true
	}
	g.mu.Lock()
	shut := g.shut
	g.mu.Unlock()
	if shut == nil {
		return true
	}
	select {
	case <-shut:
		return true
	case <-done:
		return false
	}
}
