package netem

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"sync"
)

// Set is one proxy per broker, configured together.
type Set struct {
	mu      sync.Mutex
	cfg     func(id int32) Config
	ids     []int32
	proxies map[int32]*Proxy
	targets map[int32]string
}

// NewSet returns an empty set with the zero (transparent) Config.
func NewSet() *Set {
	return &Set{cfg: func(int32) Config { return Config{} }, proxies: make(map[int32]*Proxy), targets: make(map[int32]string)}
}

// Add starts a proxy on a free loopback port in front of broker id at
// target, with the set's current Config, and returns its address. The broker
// need not be up yet: it is dialled per client connection.
func (s *Set) Add(id int32, target string) (string, error) {
	return s.AddListen(id, "127.0.0.1:0", target)
}

// AddListen is Add on a chosen loopback address; a taken fixed port falls
// back to a free one (see Listen).
func (s *Set) AddListen(id int32, listen, target string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.proxies[id]; dup {
		return "", fmt.Errorf("netem: broker %d already has a proxy", id)
	}
	p, err := Listen(listen)
	if err != nil {
		return "", fmt.Errorf("netem: proxy for broker %d: %w", id, err)
	}
	p.Serve(target, s.cfg(id))
	s.ids = append(s.ids, id)
	slices.Sort(s.ids)
	s.proxies[id], s.targets[id] = p, target
	return p.Addr(), nil
}

// Put is Add for a broker without a proxy; a broker that has one keeps
// it, pointed at target for new connections, and its address is returned.
// A cluster that starts again on fresh ports (a bind conflict) advertises
// the same proxies.
func (s *Set) Put(id int32, target string) (string, error) {
	s.mu.Lock()
	p, ok := s.proxies[id]
	if ok {
		p.Serve(target, s.cfg(id))
		s.targets[id] = target
	}
	s.mu.Unlock()
	if ok {
		return p.Addr(), nil
	}
	return s.Add(id, target)
}

// Addr is the proxy address for broker id, "" if there is none.
func (s *Set) Addr(id int32) string {
	if p := s.Proxy(id); p != nil {
		return p.Addr()
	}
	return ""
}

// Proxy returns the proxy of broker id, nil if there is none.
func (s *Set) Proxy(id int32) *Proxy {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.proxies[id]
}

// IDs lists the broker ids, ascending.
func (s *Set) IDs() []int32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.ids)
}

// SetConfig applies cfg to every proxy (live connections included) and to
// proxies added later.
func (s *Set) SetConfig(cfg Config) {
	s.SetConfigFunc(func(int32) Config { return cfg })
}

// SetConfigFunc is SetConfig with a Config per broker id, e.g. a longer
// round trip to brokers in another zone.
func (s *Set) SetConfigFunc(cfg func(id int32) Config) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg = cfg
	for id, p := range s.proxies {
		p.SetConfig(cfg(id))
	}
}

// Isolate stops the proxies of brokers ids passing bytes (Proxy.Isolate)
// until Heal; ids without a proxy are ignored.
func (s *Set) Isolate(ids []int32) {
	for _, p := range s.pick(ids) {
		p.Isolate()
	}
}

// Heal ends Isolate for brokers ids.
func (s *Set) Heal(ids []int32) {
	for _, p := range s.pick(ids) {
		p.Heal()
	}
}

// pick returns the proxies of ids that exist.
func (s *Set) pick(ids []int32) []*Proxy {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Proxy
	for _, id := range ids {
		if p, ok := s.proxies[id]; ok {
			out = append(out, p)
		}
	}
	return out
}

// Rewriter returns a RewriteFunc mapping each broker target address of the
// set to its proxy address; addresses not in the set are left alone (a client
// would then reach such a broker directly). Targets are compared as given to
// Add, so add them as the cluster advertises them.
func (s *Set) Rewriter() RewriteFunc {
	s.mu.Lock()
	m := make(map[string]string, len(s.targets))
	for id, t := range s.targets {
		m[t] = s.proxies[id].Addr()
	}
	s.mu.Unlock()
	return func(host string, port int32) (string, int32, bool) {
		to, ok := m[net.JoinHostPort(host, strconv.Itoa(int(port)))]
		if !ok {
			return host, port, false
		}
		h, ps, err := net.SplitHostPort(to)
		if err != nil {
			return host, port, false
		}
		pn, err := strconv.Atoi(ps)
		if err != nil {
			return host, port, false
		}
		return h, int32(pn), true
	}
}

// Stats aggregates the proxies: sums of counts and bytes, the largest
// per-connection in-flight maximum, the mean in flight over all produce
// sends, and round-trip quantiles of the merged histograms.
func (s *Set) Stats() Stats {
	var raw rawStats
	for _, p := range s.list() {
		raw.merge(p.stats.snapshot())
	}
	return raw.stats()
}

// ResetStats zeroes every proxy's figures.
func (s *Set) ResetStats() {
	for _, p := range s.list() {
		p.ResetStats()
	}
}

// Events returns every proxy's events, in time order, each Detail prefixed
// with the broker id.
func (s *Set) Events() []Event {
	s.mu.Lock()
	var all []Event
	for _, id := range s.ids {
		for _, e := range s.proxies[id].Events() {
			e.Detail = fmt.Sprintf("broker %d: %s", id, e.Detail)
			all = append(all, e)
		}
	}
	s.mu.Unlock()
	slices.SortStableFunc(all, func(a, b Event) int { return a.Time.Compare(b.Time) })
	return all
}

// Check dials every broker target once and reports those that cannot be
// reached, naming broker id, address and the dial error.
func (s *Set) Check(ctx context.Context) error {
	s.mu.Lock()
	ids := slices.Clone(s.ids)
	targets := make(map[int32]string, len(s.targets))
	for k, v := range s.targets {
		targets[k] = v
	}
	s.mu.Unlock()
	var errs []error
	for _, id := range ids {
		dctx, cancel := context.WithTimeout(ctx, dialTimeout)
		var d net.Dialer
		c, err := d.DialContext(dctx, "tcp", targets[id])
		cancel()
		if err != nil {
			errs = append(errs, fmt.Errorf("netem: broker %d at %s unreachable: %w", id, targets[id], err))
			continue
		}
		c.Close()
	}
	return errors.Join(errs...)
}

// Close closes every proxy.
func (s *Set) Close() error {
	var errs []error
	for _, p := range s.list() {
		if err := p.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (s *Set) list() []*Proxy {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Proxy, 0, len(s.ids))
	for _, id := range s.ids {
		out = append(out, s.proxies[id])
	}
	return out
}
