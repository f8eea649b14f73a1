package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fullFSSize is the size of the tmpfs the full-disk test fills: 16 pages.
const fullFSSize = 64 << 10

// mountTmpfs mounts a tmpfs of size bytes on a fresh directory, unmounted
// when the test ends. It skips the test where that is not possible (not
// root, no CAP_SYS_ADMIN in a container).
func mountTmpfs(t *testing.T, size int) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skipf("a real full file system needs root to mount a tmpfs (euid %d); the injected short write of TestAppendShortWrite still runs", os.Geteuid())
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d", size)); err != nil {
		t.Skipf("cannot mount a %d-byte tmpfs on %s: %v", size, dir, err)
	}
	// Runs before t.TempDir's own cleanup removes dir.
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount tmpfs %s: %v", dir, err)
		}
	})
	return dir
}

// fillDisk writes a file into dir until the file system is full and
// returns its path.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("fill %s: %v, want ENOSPC", dir, err)
			}
			return path
		}
	}
}

// writeCounter passes writes to the file underneath and remembers how many
// bytes the last one got onto the disk: it only watches, the failures are
// the file system's.
type writeCounter struct {
	*os.File
	last int
}

func (f *writeCounter) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	f.last = n
	return n, err
}

// recordOfSize returns a record of trial whose JSON line is at least n
// bytes long.
func recordOfSize(trial, n int) Record {
	return Record{ScenarioID: "a", Trial: trial, Status: StatusOK, Error: strings.Repeat("x", n)}
}

// TestAppendFullDisk: on a real file system that fills up, an append cut
// part-way by ENOSPC returns the error and leaves the file cut back to its
// whole lines; once space is back, the next append starts on its own line
// and every record written whole reads back.
func TestAppendFullDisk(t *testing.T) {
	tests := []struct {
		name string
		// first is the size of the record written before the disk fills;
		// its line ends part-way into a page, leaving room for the start
		// of the next one.
		first int
		// cut is the size of the record the full disk cuts.
		cut int
	}{
		// The cut record is longer than what is left of the page.
		{"cut within a page", 1000, 8000},
		// The first record spans pages; the cut one is several pages.
		{"cut after pages", 5000, 20000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := mountTmpfs(t, fullFSSize)
			w, err := Create(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = w.Close() }()
			if err := w.Append(recordOfSize(0, tt.first)); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, ResultsFile)
			before := fileSize(t, path)
			filler := fillDisk(t, dir)

			wc := &writeCounter{File: w.f.(*os.File)}
			w.f = wc
			if err := w.Append(recordOfSize(1, tt.cut)); !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("append on a full disk: %v, want ENOSPC", err)
			}
			if wc.last <= 0 {
				t.Fatalf("the full disk took %d bytes of the record: the test needs it cut part-way", wc.last)
			}
			t.Logf("the full disk took %d of the record's %d-odd bytes", wc.last, tt.cut)
			if after := fileSize(t, path); after != before {
				t.Errorf("after the failed append the file is %d bytes, want %d (cut back to its whole lines)", after, before)
			}
			checkWholeLines(t, path)

			if err := os.Remove(filler); err != nil {
				t.Fatal(err)
			}
			if err := w.Append(recordOfSize(2, 100)); err != nil {
				t.Fatalf("append once space is back: %v", err)
			}
			checkWholeLines(t, path)
			recs, err := Read(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := trialsOf(recs); fmt.Sprint(got) != "[0 2]" {
				t.Errorf("trials read back %v, want [0 2]", got)
			}
			if _, skipped, err := ReadAll(dir); err != nil || len(skipped) > 0 {
				t.Errorf("ReadAll skipped %v (error %v), want nothing", skipped, err)
			}
		})
	}
}

// fileSize returns the size of path.
func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

// checkWholeLines fails unless path is newline-terminated lines each of
// which is valid JSON.
func checkWholeLines(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		t.Errorf("%s ends in a partial line of %d bytes", path, len(data)-bytes.LastIndexByte(data, '\n')-1)
	}
	for i, line := range bytes.Split(bytes.TrimSuffix(data, []byte{'\n'}), []byte{'\n'}) {
		if len(data) > 0 && !json.Valid(line) {
			t.Errorf("%s line %d (%d bytes) is not valid JSON", path, i+1, len(line))
		}
	}
}
