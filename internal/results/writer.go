package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/prodlab/prodlab/internal/secret"
)

// Writer appends Records to a run directory's results.jsonl. Each Append is
// written and fsync'd before it returns, so a crash or power loss loses at
// most the trial in progress, and an Append that fails (a full disk cut the
// write part-way) is cut back to the last whole line: a record is in the
// file whole or not at all, and the next one starts on its own line. It is
// safe for concurrent use.
type Writer struct {
	mu   sync.Mutex
	f    appendFile
	path string
	// size is where the last whole line ends: a failed append is cut back
	// to it, so a record is in the file whole or not at all.
	size int64
}

// appendFile is what Writer needs of its file (an *os.File; tests inject
// short writes through it).
type appendFile interface {
	io.Writer
	Sync() error
	Truncate(size int64) error
	Close() error
}

// Create opens dir/results.jsonl for appending, creating it if needed. If
// the file ends in a partial line (a crash mid-write), that fragment is cut
// off first, so that resuming a run does not glue a new record onto it and
// turn a harmless torn tail into a corrupt middle line. A last line that is
// complete JSON and only lacks its newline is kept and terminated, as Read
// accepts it.
func Create(dir string) (*Writer, error) {
	path := filepath.Join(dir, ResultsFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open results: %w", err)
	}
	if err := trimTornTail(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("open results %s: %w", path, err)
	}
	// Make the file's directory entry durable too.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // best effort: not every file system supports it
		_ = d.Close()
	}
	info, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("open results %s: %w", path, err)
	}
	return &Writer{f: f, path: path, size: info.Size()}, nil
}

// tornTailScan is how far back trimTornTail reads at a time looking for the
// last newline.
const tornTailScan = 64 << 10

// trimTornTail makes f end in a newline: it terminates a last line that is
// valid JSON and otherwise truncates f after its last newline.
func trimTornTail(f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	size := info.Size()
	if size == 0 {
		return nil
	}
	buf := make([]byte, tornTailScan)
	end := size
	for end > 0 {
		start := max(end-tornTailScan, 0)
		chunk := buf[:end-start]
		if _, err := f.ReadAt(chunk, start); err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("read tail: %w", err)
		}
		if end == size && chunk[len(chunk)-1] == '\n' {
			return nil // ends in a complete line
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			return repairTail(f, start+int64(i)+1, size)
		}
		end = start
	}
	return repairTail(f, 0, size)
}

// repairTail handles the unterminated last line f[from:size].
func repairTail(f *os.File, from, size int64) error {
	tail := make([]byte, size-from)
	if _, err := f.ReadAt(tail, from); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read tail: %w", err)
	}
	if json.Valid(tail) {
		if _, err := f.Write([]byte{'\n'}); err != nil {
			return fmt.Errorf("terminate last line: %w", err)
		}
		return f.Sync()
	}
	return truncate(f, from)
}

// truncate cuts f to n bytes and makes that durable.
func truncate(f *os.File, n int64) error {
	if err := f.Truncate(n); err != nil {
		return fmt.Errorf("cut torn last line: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("cut torn last line: %w", err)
	}
	return nil
}

// Append writes r as one JSON line, every secret the process remembers
// scrubbed from its strings (secret.ScrubJSON), and fsyncs it. It sets
// r.Schema to the schema this code writes.
func (w *Writer) Append(r Record) error {
	r.Schema = Schema
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode result of %s trial %d: %w", r.ScenarioID, r.Trial, err)
	}
	line = append(secret.ScrubJSON(line), '\n') // a secret quoted in an error, a log excerpt
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return fmt.Errorf("append to %s: writer is closed", w.path)
	}
	// One write per line: with O_APPEND a line is never interleaved with
	// another writer's, and a crash can only tear the last line. A write
	// that fails part-way (a full disk) is cut back, so the next record
	// does not land on a fragment and corrupt the file's middle.
	if _, err := w.f.Write(line); err != nil {
		return w.cutBack(fmt.Errorf("append to %s: %w", w.path, err))
	}
	if err := w.f.Sync(); err != nil {
		return w.cutBack(fmt.Errorf("sync %s: %w", w.path, err))
	}
	w.size += int64(len(line))
	return nil
}

// cutBack truncates the file to its last whole line after a failed append
// and returns err, with the truncation's own failure when it fails too.
func (w *Writer) cutBack(err error) error {
	if terr := w.f.Truncate(w.size); terr != nil {
		return errors.Join(err, fmt.Errorf("cut back to the last whole record: %w", terr))
	}
	_ = w.f.Sync() // best effort: the cut is what matters to the next write
	return err
}

// Close closes the file. Closing twice is not an error.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	err := w.f.Close()
	w.f = nil
	if err != nil {
		return fmt.Errorf("close %s: %w", w.path, err)
	}
	return nil
}
