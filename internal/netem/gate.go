package netem

import "sync"

// gate holds a proxy's writers while it is closed (Proxy.Isolate). The
// zero value is open.
type gate struct {
	mu   sync.Mutex
	shut chan struct{} // non-nil while closed; closed by open
}

// close shuts the gate; it is a no-op if it is shut already.
func (g *gate) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.shut == nil {
		g.shut = make(chan struct{})
	}
}

// open lets every waiting writer through.
func (g *gate) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.shut != nil {
		close(g.shut)
		g.shut = nil
	}
}

// closed reports whether the gate is shut.
func (g *gate) closed() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.shut != nil
}

// wait blocks while the gate is shut; it reports false if done was closed
// first.
func (g *gate) wait(done <-chan struct{}) bool {
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
