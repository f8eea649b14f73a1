package driver

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"
)

// The worker's stderr is the Kafka client's own log (SLF4J's simple binding,
// java/worker/src/main/resources/simplelogger.properties) plus the worker's
// messages. When a trial fails, the client's WARN and ERROR lines written
// during it usually say why (an authentication failure, a broker that
// closed the connection during the SASL handshake, …) where the exception
// only says "timed out", so the driver keeps them and names them, with the
// log file and line numbers, in the error it reports.

const (
	// logKeep bounds how many WARN/ERROR lines the driver remembers.
	logKeep = 200
	// logShow is how many distinct lines an explanation quotes.
	logShow = 5
	// logSettle is how long the driver waits for the worker's last log
	// lines before it explains a failure: stderr and stdout are separate
	// pipes, so the lines that explain a result may trail it.
	logSettle = 300 * time.Millisecond
)

// notableLine matches a WARN or ERROR line of SLF4J's simple format,
// "<time> [<thread>] LEVEL logger - message".
var notableLine = regexp.MustCompile(`\] (WARN|ERROR) `)

// logLine is one notable line of the worker log and its 1-based number in
// the log file.
type logLine struct {
	no   int
	text string
}

// logLines is an io.Writer over the worker's stderr that counts lines and
// keeps the last logKeep WARN/ERROR ones.
type logLines struct {
	mu      sync.Mutex
	path    string // the log file, "" when there is none
	lines   int    // complete lines so far, those in the file before included
	partial []byte
	notable []logLine
	written time.Time // time of the last Write
}

// newLogLines starts counting after the lines already in path (the file is
// appended to; "" for no file).
func newLogLines(path string) (*logLines, error) {
	l := &logLines{path: path}
	if path == "" {
		return l, nil
	}
	n, err := countLines(path)
	if err != nil {
		return nil, fmt.Errorf("java driver: worker log: %w", err)
	}
	l.lines = n
	return l, nil
}

// countLines counts the newline-terminated lines of a file (0 when it does
// not exist).
func countLines(path string) (int, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n := 0
	r := bufio.NewReaderSize(f, 64<<10)
	for {
		_, err := r.ReadSlice('\n')
		switch {
		case err == nil:
			n++
		case errors.Is(err, bufio.ErrBufferFull):
			continue // a long line: keep reading it
		case errors.Is(err, io.EOF):
			return n, nil
		default:
			return 0, fmt.Errorf("count lines of %s: %w", path, err)
		}
	}
}

// Write implements io.Writer.
func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.written = time.Now()
	l.partial = append(l.partial, p...)
	for {
		i := strings.IndexByte(string(l.partial), '\n')
		if i < 0 {
			break
		}
		l.line(string(l.partial[:i]))
		l.partial = l.partial[i+1:]
	}
	return len(p), nil
}

// line counts one complete line and keeps it when notable.
func (l *logLines) line(s string) {
	l.lines++
	if !notableLine.MatchString(s) {
		return
	}
	l.notable = append(l.notable, logLine{no: l.lines, text: strings.TrimRight(s, "\r")})
	if over := len(l.notable) - logKeep; over > 0 {
		l.notable = append(l.notable[:0], l.notable[over:]...)
	}
}

// mark is the number of lines so far: since(mark) returns what comes after.
func (l *logLines) mark() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lines
}

// settle waits until the worker has written nothing for a while (at most
// logSettle), so that lines trailing a result are counted.
func (l *logLines) settle() {
	deadline := time.Now().Add(logSettle)
	for time.Now().Before(deadline) {
		l.mu.Lock()
		quiet := time.Since(l.written) > logSettle/3
		l.mu.Unlock()
		if quiet {
			return
		}
		time.Sleep(logSettle / 10)
	}
}

// since returns the notable lines after line mark.
func (l *logLines) since(mark int) []logLine {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []logLine
	for _, ln := range l.notable {
		if ln.no > mark {
			out = append(out, ln)
		}
	}
	return out
}

// explain quotes the WARN/ERROR lines written after line mark, "" when
// there are none: "worker log PATH:" and then "  LINE: text" for the last
// logShow distinct messages (a message the client repeats, such as a
// reconnection warning, is quoted once, at its first line, with its count).
func (l *logLines) explain(mark int) string {
	lines := l.since(mark)
	if len(lines) == 0 {
		return ""
	}
	type seen struct {
		first logLine
		count int
	}
	var order []string
	byMsg := map[string]*seen{}
	for _, ln := range lines {
		m := logMessage(ln.text)
		if s, ok := byMsg[m]; ok {
			s.count++
			continue
		}
		byMsg[m] = &seen{first: ln, count: 1}
		order = append(order, m)
	}
	if len(order) > logShow {
		order = order[len(order)-logShow:]
	}
	var b strings.Builder
	where := l.path
	if where == "" {
		where = "(stderr, not kept)"
	}
	fmt.Fprintf(&b, "worker log %s:", where)
	for _, m := range order {
		s := byMsg[m]
		fmt.Fprintf(&b, "\n  %d: %s", s.first.no, s.first.text)
		if s.count > 1 {
			fmt.Fprintf(&b, " (%d times)", s.count)
		}
	}
	return b.String()
}

// logMessage is a log line without its time stamp, client id and node
// numbers, so that repeats of one message compare equal.
func logMessage(line string) string {
	if _, rest, ok := strings.Cut(line, " ["); ok {
		line = rest
	}
	return digits.ReplaceAllString(line, "#")
}

var digits = regexp.MustCompile(`\d+`)

// maxWorkerLog bounds a worker's log file: a client that logs a 40,000-
// character transactional.id in every line once wrote 3.7 GB in 40 s.
const maxWorkerLog = 64 << 20

// cappedWriter writes to w until left bytes are used, then writes one line
// saying the rest was dropped and drops it, reporting success so that the
// worker's stderr keeps draining.
type cappedWriter struct {
	mu   sync.Mutex
	w    io.Writer
	left int64
	cut  bool
}

func (c *cappedWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case int64(len(p)) <= c.left:
		c.left -= int64(len(p))
		return c.w.Write(p)
	case !c.cut:
		c.cut = true
		_, _ = c.w.Write(p[:c.left])
		c.left = 0
		_, _ = io.WriteString(c.w, fmt.Sprintf("\n[prodlab: the worker's log reached %d MiB; the rest is not kept]\n", maxWorkerLog>>20))
	}
	return len(p), nil
}
