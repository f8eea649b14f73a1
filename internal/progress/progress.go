// Package progress shows how far a run has got: on a terminal a single
// status line redrawn in place (trial i of n, scenario, records sent and
// acknowledged, rate, ETA), elsewhere (CI logs, files) plain log lines at a
// bounded rate, so logs stay readable.
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/prodlab/prodlab/internal/textfmt"
)

// Intervals between outputs: a terminal redraw, and an Update log line
// when not on a terminal.
const (
	redrawEvery = 100 * time.Millisecond
	logEvery    = 10 * time.Second
)

// Bar reports the progress of total trials to w. Its methods are safe for
// concurrent use.
type Bar struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	width int
	total int
	now   func() time.Time

	began, trialBegan, last time.Time
	done                    int
	i, trial                int
	scenario                string
	sent, acked             int64
	rate                    float64
	drawn                   bool // a status line is on screen
}

// New returns a Bar for total trials writing to w; it draws in place when
// w is a terminal (a file, or a writer over one with its Fd, for which
// term.IsTerminal holds).
func New(w io.Writer, total int) *Bar {
	b := &Bar{w: w, total: total, now: time.Now, width: 100}
	if f, ok := w.(interface{ Fd() uintptr }); ok && term.IsTerminal(int(f.Fd())) {
		b.tty = true
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 20 {
			b.width = cols - 1
		}
	}
	b.began = b.now()
	return b
}

// Start marks the beginning of trial number trial of scenario, the i-th
// (0-based) of the total trials.
func (b *Bar) Start(i int, scenario string, trial int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.i, b.scenario, b.trial = i, scenario, trial
	b.sent, b.acked, b.rate = 0, 0, 0
	b.trialBegan = b.now()
	if b.tty {
		b.draw()
		return
	}
	fmt.Fprintf(b.w, "%s started\n", b.head())
	b.last = b.trialBegan
}

// Update reports the current trial's records sent and acknowledged so far
// and its current rate (records/s). On a terminal it redraws at most every
// 100 ms; otherwise it logs at most every 10 s.
func (b *Bar) Update(sent, acked int64, rate float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sent, b.acked, b.rate = sent, acked, rate
	now := b.now()
	if b.tty {
		if now.Sub(b.last) >= redrawEvery {
			b.draw()
		}
		return
	}
	if now.Sub(b.last) >= logEvery {
		fmt.Fprintf(b.w, "%s %s\n", b.head(), b.figures())
		b.last = now
	}
}

// Done ends the current trial with a short status ("ok", or the error's
// first line), leaving a permanent line for it.
func (b *Bar) Done(status string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done++
	b.clear()
	fmt.Fprintf(b.w, "%s %s in %s: %s\n", b.head(), b.figures(),
		b.now().Sub(b.trialBegan).Round(time.Millisecond*100), status)
	if b.tty && b.more() {
		b.draw()
	}
}

// Logf prints a log line without garbling the status line: on a terminal
// the line is cleared, the message printed and the status redrawn.
func (b *Bar) Logf(format string, args ...any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.clear()
	msg := fmt.Sprintf(format, args...)
	if !strings.HasSuffix(msg, "\n") {
		msg += "\n"
	}
	_, _ = io.WriteString(b.w, msg) // progress output is best effort
	if b.tty && b.drawnOnce() {
		b.draw()
	}
}

// drawnOnce reports whether a trial has started, so there is a status to
// redraw.
func (b *Bar) drawnOnce() bool { return !b.trialBegan.IsZero() && b.more() }

// more reports whether trials may follow: always when the total is unknown
// (0: rounds until precise decide it as they go).
func (b *Bar) more() bool { return b.total == 0 || b.done < b.total }

// head is "[i/n] scenario trial t", or "[i] …" when the total is unknown.
func (b *Bar) head() string {
	if b.total == 0 {
		return fmt.Sprintf("[%d] %s trial %d", b.i+1, b.scenario, b.trial)
	}
	return fmt.Sprintf("[%d/%d] %s trial %d", b.i+1, b.total, b.scenario, b.trial)
}

// figures is the current trial's counts and rate.
func (b *Bar) figures() string {
	return fmt.Sprintf("%s sent, %s acked, %s rec/s", group(b.sent), group(b.acked), group(int64(b.rate+0.5)))
}

// eta estimates the time left from the mean duration of finished trials.
func (b *Bar) eta() string {
	if b.done == 0 || b.total == 0 {
		return "ETA -"
	}
	per := b.now().Sub(b.began) / time.Duration(b.done)
	left := per * time.Duration(b.total-b.done)
	return "ETA " + left.Round(time.Second).String()
}

// draw rewrites the status line in place, cut to the terminal's width.
func (b *Bar) draw() {
	line := b.head() + "  " + b.figures() + "  " + b.eta()
	if r := []rune(line); len(r) > b.width {
		line = string(r[:b.width-1]) + "…"
	}
	fmt.Fprintf(b.w, "\r\x1b[K%s", line)
	b.drawn = true
	b.last = b.now()
}

// clear erases the status line, if any.
func (b *Bar) clear() {
	if b.tty && b.drawn {
		_, _ = io.WriteString(b.w, "\r\x1b[K")
		b.drawn = false
	}
}

// group renders n with thousands separators.
func group(n int64) string { return textfmt.Group(float64(n), 0) }
