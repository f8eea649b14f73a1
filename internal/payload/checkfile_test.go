package payload

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/prodlab/prodlab/internal/inputfile"
)

// TestCheckFile checks that CheckFile accepts exactly the files New can
// replay, so that an experiment is refused at load time for the reason a
// trial would fail with.
func TestCheckFile(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    error // nil: has a line
	}{
		// An empty file has no value to send.
		{"empty", "", ErrNoLines},
		// Line endings alone, LF and CRLF, are no value either.
		{"only endings", "\n\r\n\n", ErrNoLines},
		// A lone CR at the end is an ending too.
		{"lone cr", "\r", ErrNoLines},
		// One character is a value.
		{"one line", "x", nil},
		// A value after blank lines counts.
		{"late line", "\n\n\r\nx\n", nil},
		// A line longer than the reader's buffer is a value.
		{"long line", strings.Repeat("y", 10_000), nil},
		// A CR that is not part of the ending belongs to the value.
		{"cr cr lf", "\r\r\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "values.txt")
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			err := CheckFile(path)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("CheckFile = %v, want %v", err, tt.want)
			}
			// New agrees: the same files are refused for the same reason.
			_, nerr := New(KindFile+path, 0, 1)
			if (nerr == nil) != (err == nil) || (err != nil && !errors.Is(nerr, ErrNoLines)) {
				t.Errorf("New = %v, CheckFile = %v", nerr, err)
			}
		})
	}
}

// TestCheckFileDevices checks files that are not regular: /dev/null reads
// as empty, other devices and FIFOs are refused unread (/dev/zero would
// pass as one endless line and then be read forever), a missing file is
// reported as such.
func TestCheckFileDevices(t *testing.T) {
	if err := CheckFile(os.DevNull); !errors.Is(err, ErrNoLines) {
		t.Errorf("CheckFile(%s) = %v, want ErrNoLines", os.DevNull, err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", "/dev/urandom", fifo} {
		if err := CheckFile(path); !errors.Is(err, inputfile.ErrNotRegular) {
			t.Errorf("CheckFile(%s) = %v, want ErrNotRegular", path, err)
		}
		if _, err := New(KindFile+path, 0, 1); !errors.Is(err, inputfile.ErrNotRegular) {
			t.Errorf("New(file:%s) = %v, want ErrNotRegular", path, err)
		}
	}
	if err := CheckFile(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("CheckFile(missing) = %v, want ErrNotExist", err)
	}
}
