package inputfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRead checks that only regular files within the bound are read, and
// that hostile paths are refused at once.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(dir, "small")
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(small, []byte("name: x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, make([]byte, MaxSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       error
		wantMsg    string
	}{
		{"regular file", small, nil, ""},
		{"missing", filepath.Join(dir, "nope"), fs.ErrNotExist, ""},
		{"fifo", fifo, ErrNotRegular, "a FIFO"},
		{"dev zero", "/dev/zero", ErrNotRegular, "character device"},
		{"dev urandom", "/dev/urandom", ErrNotRegular, "character device"},
		{"too large", big, ErrTooLarge, "at most 1048576"},
		{"directory", dir, nil, "is a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { _, err := Read(tt.path); done <- err }()
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("Read(%s) still blocked after 10s", tt.path)
			}
			if tt.want == nil && tt.wantMsg == "" {
				if err != nil {
					t.Fatalf("Read: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Read(%s) accepted", tt.path)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("error %v is not %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q lacks %q", err, tt.wantMsg)
			}
		})
	}
}
