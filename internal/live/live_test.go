package live

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/lab"
	"github.com/prodlab/prodlab/internal/results"
)

// rec is a finished trial of scenario id at rps records/s.
func rec(id string, trial int, rps float64) *results.Record {
	return &results.Record{Schema: results.Schema, ScenarioID: id, Scenario: map[string]any{"linger.ms": id}, ScenarioKeys: []string{"linger.ms"},
		Trial: trial, Status: results.StatusOK, Throughput: results.Throughput{RecordsPerS: rps, MBPerS: rps / 1000},
		LatencyMs: results.Latency{P50: 1, P99: 2, P999: 3}}
}

// stream reads server-sent events from the page's /events.
type stream struct {
	body io.ReadCloser
	sc   *bufio.Scanner
}

func openStream(t *testing.T, s *Server) *stream {
	t.Helper()
	resp, err := http.Get(s.URL() + "events")
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	st := &stream{body: resp.Body, sc: bufio.NewScanner(resp.Body)}
	st.sc.Buffer(make([]byte, 1<<20), 1<<20)
	t.Cleanup(func() { resp.Body.Close() })
	return st
}

// next returns the next event's kind and object.
func (st *stream) next(t *testing.T) (string, map[string]any) {
	t.Helper()
	for st.sc.Scan() {
		line := st.sc.Text()
		if !strings.HasPrefix(line, "data: ") {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &m); err != nil {
			t.Fatalf("event %q: %v", line, err)
		}
		return fmt.Sprint(m["kind"]), m
	}
	return "", nil
}

// TestLivePage: a browser that opens late gets the run so far (the trials'
// starts and ends, the findings as they stand, the newest progress only),
// then each new event; the findings follow the plan's question; Close
// ends its stream.
func TestLivePage(t *testing.T) {
	dir := t.TempDir()
	if err := results.WritePlan(dir, results.Plan{Level: 0.95, Margin: 0.05, Comparisons: []results.PlannedComparison{
		{Question: "does linger help?", Baseline: "0", Candidate: "5"}}}); err != nil {
		t.Fatal(err)
	}
	s, err := Start("", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") {
		t.Errorf("URL %s, want loopback", s.URL())
	}
	for trial := 0; trial < 3; trial++ {
		for _, sc := range []struct {
			id  string
			rps float64
		}{{"0", 1000}, {"5", 1500}} {
			s.Publish(lab.Event{Kind: lab.TrialStarted, Scenario: sc.id, Trial: trial})
			s.Publish(lab.Event{Kind: lab.TrialProgress, Scenario: sc.id, Trial: trial, Sent: 10, Acked: 5})
			s.Publish(lab.Event{Kind: lab.TrialProgress, Scenario: sc.id, Trial: trial, Sent: 20, Acked: 15})
			s.Publish(lab.Event{Kind: lab.TrialFinished, Scenario: sc.id, Trial: trial, Record: rec(sc.id, trial, sc.rps*(1+0.01*float64(trial))), Status: "ok"})
		}
	}
	s.Publish(lab.Event{Kind: lab.TrialProgress, Scenario: "0", Trial: 3, Sent: 7})
	st := openStream(t, s)
	var kinds []string
	var last map[string]any
	for len(kinds) < 3*2*3+1 { // per trial its start, end and the findings; then the progress
		k, m := st.next(t)
		if k == "" {
			t.Fatalf("stream ended after %v", kinds)
		}
		kinds = append(kinds, k)
		if k == "findings" {
			last = m
		}
	}
	if n := strings.Count(strings.Join(kinds, ","), "trial_progress"); n != 1 || kinds[len(kinds)-1] != "trial_progress" {
		t.Errorf("replay %v: want the newest progress only, last", kinds)
	}
	fs, _ := last["findings"].([]any)
	if len(fs) != 1 || !strings.Contains(fmt.Sprint(fs[0]), "faster") {
		t.Errorf("findings %v, want the candidate faster", last)
	}
	s.Publish(lab.Event{Kind: lab.Log, Line: "12:00:00 after the browser came"})
	if k, m := st.next(t); k != "log" || m["line"] != "12:00:00 after the browser came" {
		t.Errorf("next event %s %v, want the new log line", k, m)
	}
	done := make(chan struct{})
	go func() {
		for k, _ := st.next(t); k != ""; k, _ = st.next(t) {
		}
		close(done)
	}()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the stream did not end at Close")
	}
}

// TestLivePageServesNothingElse: the page is embedded and self-contained,
// and no path reaches a file.
func TestLivePageServesNothingElse(t *testing.T) {
	s, err := Start("127.0.0.1:0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close() //nolint:errcheck // a test server
	resp, err := http.Get(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), `new EventSource("/events")`) {
		t.Error("the page does not follow /events")
	}
	for _, outside := range []string{"<script src", "<link", "@import", "url(", "https://"} {
		if strings.Contains(string(page), outside) {
			t.Errorf("the page loads something (%q): it must be self-contained", outside)
		}
	}
	for _, path := range []string{"page.html", "plan.json", "../../etc/passwd", "events/x"} {
		resp, err := http.Get(s.URL() + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("GET /%s: %s, want not found", path, resp.Status)
		}
	}
}

// TestLiveSlowBrowser: a browser that stops reading is dropped once it
// falls subBuffer events behind; the run's Publish never waits for it.
func TestLiveSlowBrowser(t *testing.T) {
	s, err := Start("", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close() //nolint:errcheck // a test server
	ch := make(chan []byte, subBuffer)
	s.mu.Lock()
	s.subs[ch] = struct{}{}
	s.mu.Unlock()
	t0 := time.Now()
	for i := 0; i < subBuffer+10; i++ {
		s.Publish(lab.Event{Kind: lab.Log, Line: fmt.Sprint(i)})
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("publishing took %v: it waited for the browser", d)
	}
	s.mu.Lock()
	_, attached := s.subs[ch]
	kept := 0
	for _, b := range s.kept {
		if b != nil {
			kept++
		}
	}
	s.mu.Unlock()
	if attached {
		t.Error("the slow browser is still attached")
	}
	if kept != maxLogLines {
		t.Errorf("%d log lines kept, want the last %d", kept, maxLogLines)
	}
}

func TestLiveBadAddress(t *testing.T) {
	for _, addr := range []string{"nonsense", "127.0.0.1", "256.1.1.1:0"} {
		if s, err := Start(addr, t.TempDir()); err == nil {
			_ = s.Close()
			t.Errorf("Start(%q) = nil error", addr)
		}
	}
}
