// Package live serves a running experiment's page: what the run is
// deciding, as it decides it. The page (embedded in the binary: no CDN,
// no file served from disk) follows the run's events as server-sent
// events; a browser that opens late first gets every event so far.
package live

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/prodlab/prodlab/internal/lab"
	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/secret"
)

// DefaultAddr is where the page listens unless told: loopback, a free
// port.
const DefaultAddr = "127.0.0.1:0"

// Bounds that keep a long run's page from growing without end: the log
// lines kept for a late browser, and the events a slow browser may fall
// behind by before it is dropped (it reconnects and starts over).
const (
	maxLogLines = 1000
	subBuffer   = 1024
)

//go:embed page.html
var pageFS embed.FS

// Server is a run's live page. Publish is the run's event subscriber
// (lab.Options.OnEvent); it never blocks the run.
type Server struct {
	dir string // the run directory, for its plan.json
	ln  net.Listener
	srv *http.Server

	mu   sync.Mutex
	plan *results.Plan
	// kept are the events a late browser replays: every trial start and
	// end, and the last maxLogLines log lines (logs counts them, to drop
	// the oldest); then the newest findings and progress.
	kept     []kept
	logs     int
	findings []byte
	progress []byte
	recs     []results.Record
	subs     map[chan []byte]struct{}
	closed   bool
	hosts    map[string]bool // the Host headers a request may carry

	// The findings are computed off the run's path (answerLoop): a
	// trial's end marks them stale and kicks the loop, which judges every
	// trial so far at once, however many ended meanwhile. idle is
	// signalled when nothing is stale or being judged (settle).
	kick      chan struct{}
	stale     bool
	computing bool
	idle      *sync.Cond
	loopDone  chan struct{}
}

// CheckAddr refuses an address the page could not listen on, before the
// run starts: not HOST:PORT, or taken, or not this machine's.
func CheckAddr(addr string) error {
	ln, err := listen(addr)
	if err != nil {
		return err
	}
	return ln.Close()
}

// listen listens on addr (DefaultAddr when empty). A host must be
// named: ":8080" would serve every interface without saying so.
func listen(addr string) (net.Listener, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("live page address %q: want HOST:PORT (%s for a free port on loopback): %w", addr, DefaultAddr, err)
	}
	if host == "" {
		return nil, fmt.Errorf("live page address %q names no host: give 127.0.0.1%s for loopback, or 0.0.0.0%s to serve every interface", addr, addr, addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("live page: %w", err)
	}
	return ln, nil
}

// Start listens on addr (DefaultAddr when empty) and serves the page of
// the run in dir; previous are the records a resumed run kept, which the
// findings count as the run's stopping rule does.
func Start(addr, dir string, previous []results.Record) (*Server, error) {
	ln, err := listen(addr)
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, ln: ln, subs: map[chan []byte]struct{}{}, recs: slices.Clone(previous), hosts: allowedHosts(addr, ln.Addr()),
		kick: make(chan struct{}, 1), loopDone: make(chan struct{})}
	s.idle = sync.NewCond(&s.mu)
	go s.answerLoop()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("GET /events", s.events)
	s.srv = &http.Server{Handler: s.checkHost(mux), ReadHeaderTimeout: 5 * time.Second}
	go s.srv.Serve(ln) //nolint:errcheck // ends with ErrServerClosed at Close
	return s, nil
}

// URL is the page's address.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + "/" }

// Publish takes one event of the run: it keeps what a late browser needs
// and sends it to every browser attached; a trial's end also marks the
// findings stale for answerLoop, which sends them judged anew.
func (s *Server) Publish(ev lab.Event) {
	b, err := ev.JSON(time.Now())
	if err != nil {
		return
	}
	b = secret.ScrubJSON(b)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	switch ev.Kind {
	case lab.TrialProgress:
		s.progress = b
	case lab.Log:
		s.keepLog(b)
	default:
		s.kept = append(s.kept, kept{b: b})
	}
	s.send(b)
	if ev.Kind == lab.TrialFinished && ev.Record != nil {
		s.recs = append(s.recs, *ev.Record)
		s.stale = true
		select {
		case s.kick <- struct{}{}:
		default: // a kick is pending: it judges this trial too
		}
	}
}

// answerLoop judges the questions whenever a trial's end made the
// findings stale, and sends them to every browser; it ends when Close
// closes kick.
func (s *Server) answerLoop() {
	defer close(s.loopDone)
	for range s.kick {
		s.mu.Lock()
		if !s.stale {
			s.mu.Unlock()
			continue
		}
		recs := s.recs // appended to only: the trials so far stay as they are
		s.stale, s.computing = false, true
		s.mu.Unlock()
		f := s.answers(recs)
		s.mu.Lock()
		s.computing = false
		if f != nil { // the streams end only after this loop (Close)
			s.findings = f
			s.send(f)
		}
		s.idle.Broadcast()
		s.mu.Unlock()
	}
}

// settle waits until the findings judge every trial published so far.
func (s *Server) settle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.stale || s.computing {
		s.idle.Wait()
	}
}

// kept is an event a late browser replays; log marks a log line.
type kept struct {
	b   []byte
	log bool
}

// keepLog keeps log event b; past maxLogLines it drops the oldest log
// line kept (a scan of kept, once per line past the bound).
func (s *Server) keepLog(b []byte) {
	if s.logs == maxLogLines {
		if i := slices.IndexFunc(s.kept, func(k kept) bool { return k.log }); i >= 0 {
			s.kept = slices.Delete(s.kept, i, i+1)
			s.logs--
		}
	}
	s.logs++
	s.kept = append(s.kept, kept{b: b, log: true})
}

// send gives b to every browser attached; one that has fallen
// subBuffer events behind is dropped rather than waited for.
func (s *Server) send(b []byte) {
	for ch := range s.subs {
		select {
		case ch <- b:
		default:
			s.detachLocked(ch)
		}
	}
}

// detachLocked ends a browser's stream; the caller holds s.mu and has
// checked that ch is attached.
func (s *Server) detachLocked(ch chan []byte) {
	delete(s.subs, ch)
	close(ch)
}

// answers is the findings event: the plan's questions answered on recs
// (report.Findings), nil without a plan or a question. Only answerLoop
// calls it, so the plan it reads once is its own.
func (s *Server) answers(recs []results.Record) []byte {
	if s.plan == nil {
		p, ok, err := results.ReadPlan(s.dir)
		if err != nil || !ok {
			return nil
		}
		s.plan = &p
	}
	if len(s.plan.Comparisons) == 0 {
		return nil
	}
	return findingsEvent(report.Findings(recs, *s.plan), s.plan.Margin)
}

// endEvent tells a browser the run is over: it stops following.
var endEvent = []byte(`{"kind":"end"}`)

// Close stops serving and ends every browser's stream with endEvent,
// after the findings of every trial published: Publish takes nothing once
// closed, and answerLoop judges what is stale (its kick is still
// pending) before it ends.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.kick)
	s.mu.Unlock()
	<-s.loopDone
	s.mu.Lock()
	for ch := range s.subs {
		select {
		case ch <- endEvent:
		default:
		}
		s.detachLocked(ch)
	}
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("live page: %w", err)
	}
	return nil
}

// page serves the embedded page.
func (s *Server) page(w http.ResponseWriter, _ *http.Request) {
	b, err := pageFS.ReadFile("page.html")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'")
	_, _ = w.Write(b)
}

// events streams the run's events to one browser: first every event kept
// so far, then each new one, until the run ends or the browser leaves.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	ch := make(chan []byte, subBuffer)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	backlog := make([][]byte, 0, len(s.kept)+2)
	for _, k := range s.kept {
		backlog = append(backlog, k.b)
	}
	for _, b := range [][]byte{s.findings, s.progress} {
		if b != nil {
			backlog = append(backlog, b)
		}
	}
	s.subs[ch] = struct{}{}
	s.mu.Unlock()
	for _, b := range backlog {
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			s.drop(ch)
			return
		}
	}
	fl.Flush()
	for {
		select {
		case b, open := <-ch:
			if !open {
				return
			}
			if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
				s.drop(ch)
				return
			}
			fl.Flush()
		case <-r.Context().Done():
			s.drop(ch)
			return
		}
	}
}

// allowedHosts are the Host headers a request may carry: the address
// listened on, and, on loopback, localhost's names with its port. A
// request naming another host is refused (DNS rebinding: a page on
// another site whose name resolves to 127.0.0.1 must not read the run).
func allowedHosts(asked string, bound net.Addr) map[string]bool {
	hosts := map[string]bool{asked: true, bound.String(): true}
	if tcp, ok := bound.(*net.TCPAddr); ok {
		port := strconv.Itoa(tcp.Port)
		askedHost, _, _ := net.SplitHostPort(asked)
		hosts[net.JoinHostPort(askedHost, port)] = true
		if tcp.IP.IsLoopback() {
			for _, h := range []string{"localhost", "127.0.0.1", "::1"} {
				hosts[net.JoinHostPort(h, port)] = true
			}
		}
	}
	return hosts
}

// checkHost refuses a request whose Host header is not one of s.hosts.
func (s *Server) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hosts[r.Host] {
			http.Error(w, "host not allowed: open the address prodlab printed", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// drop detaches a browser's channel, if still attached.
func (s *Server) drop(ch chan []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.subs[ch]; ok {
		s.detachLocked(ch)
	}
}
