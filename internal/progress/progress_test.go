package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// clock is a manual clock for the Bar.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newBar(tty bool) (*Bar, *bytes.Buffer, *clock) {
	var buf bytes.Buffer
	c := &clock{t: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	b := New(&buf, 2)
	b.now, b.began, b.tty, b.width = c.now, c.t, tty, 80
	return b, &buf, c
}

func TestPlain(t *testing.T) {
	b, buf, c := newBar(false)
	b.Start(0, "linger.ms=5", 0)
	c.advance(time.Second)
	b.Update(1000, 900, 1000) // within 10 s of the start: no line
	c.advance(10 * time.Second)
	b.Update(12000, 11000, 1100.4) // a line
	b.Logf("broker %d slow", 2)
	b.Done("ok")
	want := "[1/2] linger.ms=5 trial 0 started\n" +
		"[1/2] linger.ms=5 trial 0 12,000 sent, 11,000 acked, 1,100 rec/s\n" +
		"broker 2 slow\n" +
		"[1/2] linger.ms=5 trial 0 12,000 sent, 11,000 acked, 1,100 rec/s in 11s: ok\n"
	if buf.String() != want {
		t.Errorf("got:\n%q\nwant:\n%q", buf.String(), want)
	}
	// Plain output never contains terminal control sequences.
	if strings.ContainsAny(buf.String(), "\r\x1b") {
		t.Error("control characters in plain output")
	}
}

func TestTerminal(t *testing.T) {
	b, buf, c := newBar(true)
	b.Start(0, "a", 0)
	c.advance(50 * time.Millisecond)
	b.Update(10, 5, 200) // within 100 ms of the last draw: not drawn
	c.advance(100 * time.Millisecond)
	b.Update(20, 10, 200) // drawn in place
	c.advance(10 * time.Second)
	b.Done("ok") // permanent line, then the status again with an ETA
	out := buf.String()
	tests := []struct{ name, want string }{
		// The first status line, drawn in place.
		{"start", "\r\x1b[K[1/2] a trial 0  0 sent, 0 acked, 0 rec/s  ETA -"},
		// The throttled update is absent; the next one is drawn.
		{"update", "\r\x1b[K[1/2] a trial 0  20 sent, 10 acked, 200 rec/s  ETA -"},
		// Done clears the line and prints a permanent one.
		{"done", "\r\x1b[K[1/2] a trial 0 20 sent, 10 acked, 200 rec/s in 10.2s: ok\n"},
		// With one of two trials done in 10.15 s, about 10 s remain.
		{"eta", "ETA 10s"},
	}
	for _, tt := range tests {
		if !strings.Contains(out, tt.want) {
			t.Errorf("%s: output %q lacks %q", tt.name, out, tt.want)
		}
	}
	if strings.Contains(out, "10 sent, 5 acked") {
		t.Errorf("update within 100 ms was drawn: %q", out)
	}
}

func TestWidth(t *testing.T) {
	// A status longer than the terminal is cut with an ellipsis.
	b, buf, _ := newBar(true)
	b.width = 30
	b.Start(0, strings.Repeat("x", 100), 0)
	line := strings.TrimPrefix(buf.String(), "\r\x1b[K")
	if n := len([]rune(line)); n != 30 || !strings.HasSuffix(line, "…") {
		t.Errorf("status %q: %d runes, want 30 ending in …", line, n)
	}
}

func TestNotTerminal(t *testing.T) {
	// A buffer is never a terminal.
	if New(&bytes.Buffer{}, 1).tty {
		t.Error("a buffer was taken for a terminal")
	}
}

// TestUnknownTotal: under rounds until precise the total is unknown (0):
// lines number trials without a total, and the terminal line keeps being
// drawn after each trial.
func TestUnknownTotal(t *testing.T) {
	b, buf, c := newBar(true)
	b.total = 0
	b.Start(4, "arm=a", 2)
	c.advance(time.Second)
	b.Done("ok")
	got := buf.String()
	if !strings.Contains(got, "[5] arm=a trial 2") || strings.Contains(got, "[5/0]") {
		t.Errorf("head without a total: %q", got)
	}
	if !strings.HasSuffix(got, "ETA -") {
		t.Errorf("status line not redrawn after the trial, or an ETA was guessed: %q", got)
	}
}
