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
	s, err := Start("", dir, nil)
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
	s.settle() // the findings are judged off the run's path
	st := openStream(t, s)
	var kinds []string
	var last map[string]any
	for len(kinds) < 3*2*2+2 { // per trial its start and end; then the newest findings and progress
		k, m := st.next(t)
		if k == "" {
			t.Fatalf("stream ended after %v", kinds)
		}
		kinds = append(kinds, k)
		if k == "findings" {
			last = m
		}
	}
	if got := strings.Join(kinds[len(kinds)-2:], ","); got != "findings,trial_progress" || strings.Count(strings.Join(kinds, ","), "findings") != 1 {
		t.Errorf("replay %v: want the newest findings and progress only, last", kinds)
	}
	fs, _ := last["findings"].([]any)
	if len(fs) != 1 || !strings.Contains(fmt.Sprint(fs[0]), "faster") {
		t.Errorf("findings %v, want the candidate faster", last)
	}
	s.Publish(lab.Event{Kind: lab.Log, Line: "12:00:00 after the browser came"})
	if k, m := st.next(t); k != "log" || m["line"] != "12:00:00 after the browser came" {
		t.Errorf("next event %s %v, want the new log line", k, m)
	}
	// A round that ends while the browser watches: its trials' ends, then
	// the findings judged on it too.
	for _, id := range []string{"0", "5"} {
		s.Publish(lab.Event{Kind: lab.TrialFinished, Scenario: id, Trial: 3, Record: rec(id, 3, 1000+500*float64(len(id)-1)), Status: "ok"})
	}
	giveUp := time.AfterFunc(10*time.Second, func() { st.body.Close() }) // ends next's read
	defer giveUp.Stop()
	for k, m := st.next(t); ; k, m = st.next(t) {
		if k == "" {
			t.Fatal("no findings of round 4 within 10 s")
		}
		if k == "findings" && strings.Contains(fmt.Sprint(m["findings"]), "4 rounds") {
			break
		}
	}
	done := make(chan string)
	go func() {
		last := ""
		for k, _ := st.next(t); k != ""; k, _ = st.next(t) {
			last = k
		}
		done <- last
	}()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case last := <-done:
		if last != "end" {
			t.Errorf("the stream's last event is %q, want end", last)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stream did not end at Close")
	}
}

// TestLivePageServesNothingElse: the page is embedded and self-contained,
// and no path reaches a file.
func TestLivePageServesNothingElse(t *testing.T) {
	s, err := Start("127.0.0.1:0", t.TempDir(), nil)
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
	s, err := Start("", t.TempDir(), nil)
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
	kept := len(s.kept)
	s.mu.Unlock()
	if attached {
		t.Error("the slow browser is still attached")
	}
	if kept != maxLogLines || s.logs != maxLogLines {
		t.Errorf("%d log lines kept, want the last %d", kept, maxLogLines)
	}
}

func TestLiveBadAddress(t *testing.T) {
	for _, addr := range []string{"nonsense", "127.0.0.1", "256.1.1.1:0", ":0"} {
		if s, err := Start(addr, t.TempDir(), nil); err == nil {
			_ = s.Close()
			t.Errorf("Start(%q) = nil error", addr)
		}
	}
}

// TestLiveResumed: a resumed run's page judges the questions on the
// trials its earlier sessions kept too, as the run's stopping rule does.
func TestLiveResumed(t *testing.T) {
	dir := t.TempDir()
	if err := results.WritePlan(dir, results.Plan{Level: 0.95, Margin: 0.05, Comparisons: []results.PlannedComparison{
		{Question: "q", Baseline: "0", Candidate: "5"}}}); err != nil {
		t.Fatal(err)
	}
	var previous []results.Record
	for trial := 0; trial < 3; trial++ {
		previous = append(previous, *rec("0", trial, 1000+float64(trial)), *rec("5", trial, 1500+float64(trial)))
	}
	s, err := Start("", dir, previous)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close() //nolint:errcheck // a test server
	s.Publish(lab.Event{Kind: lab.TrialFinished, Scenario: "0", Trial: 3, Record: rec("0", 3, 1003), Status: "ok"})
	s.settle()
	st := openStream(t, s)
	for k, m := st.next(t); k != ""; k, m = st.next(t) {
		if k == "findings" {
			if fs := fmt.Sprint(m["findings"]); !strings.Contains(fs, "faster") {
				t.Errorf("findings %s, want the candidate faster on the earlier sessions' trials", fs)
			}
			return
		}
	}
	t.Fatal("no findings")
}

// TestLiveRefusesOtherHosts: a request naming another host (DNS
// rebinding) is refused; the printed address and localhost are served.
func TestLiveRefusesOtherHosts(t *testing.T) {
	s, err := Start("", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close() //nolint:errcheck // a test server
	_, port, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(s.URL(), "http://"), "/"), ":")
	for host, want := range map[string]int{"127.0.0.1:" + port: http.StatusOK, "localhost:" + port: http.StatusOK,
		"evil.example:" + port: http.StatusForbidden, "127.0.0.1:1": http.StatusForbidden} {
		req, _ := http.NewRequest(http.MethodGet, s.URL(), nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %s, want %d", host, resp.Status, want)
		}
	}
}
