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
	// end, each findings update, the last maxLogLines log lines (logs
	// counts them, to drop the oldest) and the newest progress.
	kept     [][]byte
	logs     []int // indexes into kept of log events
	progress []byte
	recs     []results.Record
	subs     map[chan []byte]struct{}
	closed   bool
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

// listen listens on addr (DefaultAddr when empty).
func listen(addr string) (net.Listener, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, fmt.Errorf("live page address %q: want HOST:PORT (%s for a free port on loopback): %w", addr, DefaultAddr, err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("live page: %w", err)
	}
	return ln, nil
}

// Start listens on addr (DefaultAddr when empty) and serves the page of
// the run in dir.
func Start(addr, dir string) (*Server, error) {
	ln, err := listen(addr)
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, ln: ln, subs: map[chan []byte]struct{}{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("GET /events", s.events)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go s.srv.Serve(ln) //nolint:errcheck // ends with ErrServerClosed at Close
	return s, nil
}

// URL is the page's address.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + "/" }

// Publish takes one event of the run: it keeps what a late browser needs,
// sends it to every browser attached, and after a trial's end the
// findings as they stand.
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
		s.kept = append(s.kept, b)
	}
	s.send(b)
	if ev.Kind == lab.TrialFinished && ev.Record != nil {
		s.recs = append(s.recs, *ev.Record)
		if f := s.findings(); f != nil {
			s.kept = append(s.kept, f)
			s.send(f)
		}
	}
}

// keepLog keeps log event b, dropping the oldest past maxLogLines.
func (s *Server) keepLog(b []byte) {
	if len(s.logs) == maxLogLines {
		old := s.logs[0]
		s.logs = s.logs[1:]
		s.kept[old] = nil // a dropped line: skipped on replay
	}
	s.logs = append(s.logs, len(s.kept))
	s.kept = append(s.kept, b)
}

// send gives b to every browser attached; one that has fallen
// subBuffer events behind is dropped rather than waited for.
func (s *Server) send(b []byte) {
	for ch := range s.subs {
		select {
		case ch <- b:
		default:
			delete(s.subs, ch)
			close(ch)
		}
	}
}

// findings is the findings event: the plan's questions answered on the
// trials so far (report.Findings), nil without a plan or a question.
func (s *Server) findings() []byte {
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
	return findingsEvent(report.Findings(s.recs, *s.plan), s.plan.Margin)
}

// Close stops serving and ends every browser's stream.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for ch := range s.subs {
		delete(s.subs, ch)
		close(ch)
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
	backlog := make([][]byte, 0, len(s.kept)+1)
	for _, b := range s.kept {
		if b != nil {
			backlog = append(backlog, b)
		}
	}
	if s.progress != nil {
		backlog = append(backlog, s.progress)
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

// drop detaches a browser's channel, if still attached.
func (s *Server) drop(ch chan []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.subs[ch]; ok {
		delete(s.subs, ch)
		close(ch)
	}
}
