package payload

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/prodlab/prodlab/internal/inputfile"
)

// ErrNoLines is the error of a payload file without a non-empty line: it
// has no value to send.
var ErrNoLines = errors.New("no non-empty lines")

// fileGen replays the non-empty lines of a file, record seq getting line
// seq mod n. Like kafka-producer-perf-test --payload-file, values are the
// lines as they are, whatever their length; unlike it, lines are cycled in
// order rather than picked at random, so a trial is reproducible and every
// line is used. The whole file is held in memory once: memory is bounded by
// the file, not by the record count.
type fileGen struct {
	data   []byte // the file's contents
	ends   []int  // lines[i] = data[starts[i]:ends[i]]
	starts []int
}

// MaxFileSize is the most bytes a payload file may hold: it is held in
// memory whole, once per producer. A device (/dev/zero) or a FIFO is
// refused as well (inputfile), never read.
const MaxFileSize = 64 << 20

// newFile reads path and indexes its non-empty lines. A line ends at "\n";
// a "\r" before it belongs to the line ending, not the value.
func newFile(path string) (*fileGen, error) {
	data, err := inputfile.ReadMax(path, MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("payload file: %w", err)
	}
	g := &fileGen{data: data}
	for start := 0; start < len(data); {
		next := len(data)
		if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
			next = start + i + 1
		}
		if line := trimEOL(data[start:next]); len(line) > 0 {
			g.starts = append(g.starts, start)
			g.ends = append(g.ends, start+len(line))
		}
		start = next
	}
	if len(g.starts) == 0 {
		return nil, fmt.Errorf("payload file %s: %w", path, ErrNoLines)
	}
	return g, nil
}

// Next implements Generator: the line, copied into buf.
func (g *fileGen) Next(seq int64, buf []byte) []byte {
	return append(buf[:0], g.View(seq)...)
}

// View implements Viewer: record seq's line, the file's own bytes.
func (g *fileGen) View(seq int64) []byte {
	i := int(uint64(seq) % uint64(len(g.starts)))
	return g.data[g.starts[i]:g.ends[i]:g.ends[i]]
}

// trimEOL strips a line's ending: "\n", and a "\r" before it (or before
// the end of the file), which belongs to the ending, not the value.
func trimEOL(line []byte) []byte {
	line = bytes.TrimSuffix(line, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r"))
}

// CheckFile reports whether path can serve as a file payload: a regular
// file of at most MaxFileSize bytes that holds a non-empty line (else the
// error wraps ErrNoLines). It reads only up to the first such line, so
// that experiment validation stays cheap for large files.
func CheckFile(path string) error {
	f, err := inputfile.Open(path)
	if errors.Is(err, inputfile.ErrNotRegular) && readsEmpty(path) {
		return fmt.Errorf("payload file %s: %w", path, ErrNoLines) // /dev/null: the truer reason
	}
	if err != nil {
		return fmt.Errorf("payload file: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > MaxFileSize {
		return fmt.Errorf("payload file %s: %w: %d bytes, at most %d", path, inputfile.ErrTooLarge, st.Size(), MaxFileSize)
	}
	ok, err := hasLine(f)
	if err != nil {
		return fmt.Errorf("payload file %s: %w", path, err)
	}
	if !ok {
		return fmt.Errorf("payload file %s: %w", path, ErrNoLines)
	}
	return nil
}

// readsEmpty reports whether path is a character device that reads as
// empty at once (/dev/null), which has no line to send, rather than one
// that never ends (/dev/zero); either is refused.
func readsEmpty(path string) bool {
	st, err := os.Stat(path)
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	n, err := f.Read(make([]byte, 1))
	return n == 0 && errors.Is(err, io.EOF)
}

// hasLine reports whether r holds a line that is non-empty once its ending
// is stripped, the lines newFile keeps.
func hasLine(r io.Reader) (bool, error) {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return true, nil // longer than the buffer, so more than a line ending
		}
		if len(trimEOL(line)) > 0 {
			return true, nil
		}
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("read: %w", err)
		}
	}
}
