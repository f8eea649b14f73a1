// Package inputfile reads the small files a user hands prodlab (experiment
// files, --producer.config) safely: only regular files, and only up to a
// bound, so that /dev/zero, a FIFO or a huge file is refused at once rather
// than growing memory or blocking forever.
package inputfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"syscall"
)

// MaxSize is the most bytes an input file may hold: far above any real
// experiment or properties file, far below what hurts.
const MaxSize = 1 << 20

// ErrNotRegular is returned for a path that names a device, FIFO, socket
// or directory rather than a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned for a file holding more than the bound.
var ErrTooLarge = errors.New("file too large")

// Read returns the contents of the regular file at path, refusing anything
// else and anything above MaxSize bytes. It stats before opening and opens
// without blocking, so that a FIFO swapped in between cannot hang it. A
// missing file's error wraps fs.ErrNotExist.
func Read(path string) ([]byte, error) {
	return ReadMax(path, MaxSize)
}

// ReadMax is Read with a bound of max bytes.
func ReadMax(path string, max int64) ([]byte, error) {
	f, err := open(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: %w: more than %d bytes", path, ErrTooLarge, max)
	}
	return data, nil
}

// Open opens the regular file at path for reading, refusing anything
// else as Read does but with no bound on its size: for files read as a
// stream (a run's results.jsonl), which may be large but must never be a
// FIFO that blocks or a device that never ends.
func Open(path string) (*os.File, error) {
	return open(path, math.MaxInt64)
}

// open opens path for reading once it is known to be a regular file of
// at most max bytes. It stats before opening and opens without blocking,
// so that a FIFO swapped in between cannot hang it, then checks again
// what it opened.
func open(path string, max int64) (*os.File, error) {
	st, err := os.Stat(path)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		pe.Op = "open" // what the user asked for, as os.ReadFile says it
	}
	if err != nil {
		return nil, err
	}
	if err := checkRegular(path, st, max); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err = f.Stat()
	if err == nil {
		err = checkRegular(path, st, max)
	} else {
		err = fmt.Errorf("stat %s: %w", path, err)
	}
	if err != nil {
		_ = f.Close() // read-only: nothing to lose
		return nil, err
	}
	return f, nil
}

// checkRegular refuses a non-regular file or one above max bytes.
func checkRegular(path string, st fs.FileInfo, max int64) error {
	switch {
	case st.IsDir():
		return fmt.Errorf("read %s: is a directory", path)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s: %w (%s); give a file", path, ErrNotRegular, Kind(st.Mode()))
	case st.Size() > max:
		return fmt.Errorf("%s: %w: %d bytes, at most %d", path, ErrTooLarge, st.Size(), max)
	}
	return nil
}

// Kind names a file type that is not a regular file, for messages that
// refuse one ("a FIFO", "a directory"): the one place that names them.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}
