package statefile

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLock: while one holder (this process, or another process) has
// the state lock, a second Lock is refused at once with a message
// naming the lock, and the holder's pid when it wrote one; once released,
// the lock can be taken again.
func TestLock(t *testing.T) {
	cases := []struct {
		name    string
		hold    func(t *testing.T, path string) (release func())
		wantPid string // in the refusal; "" when the holder wrote none
	}{
		{"another prodlab in this process", func(t *testing.T, path string) func() {
			unlock, err := Lock(path, "cluster state", "prodlab cluster up or down")
			if err != nil {
				t.Fatal(err)
			}
			return unlock
		}, "(pid " + strconv.Itoa(os.Getpid()) + ")"},
		{"another process (flock(1))", func(t *testing.T, path string) func() {
			if _, err := exec.LookPath("flock"); err != nil {
				t.Skip("no flock command")
			}
			// The child says "held" once flock has the lock.
			cmd := exec.Command("flock", path+".lock", "sh", "-c", "echo held; exec sleep 30")
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // sleep holds the lock too
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			release := func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() }
			if line, err := bufio.NewReader(out).ReadString('\n'); line != "held\n" {
				release()
				t.Fatalf("flock child said %q, %v; want \"held\"", line, err)
			}
			return release
		}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state", "cluster.json")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			release := tc.hold(t, path)
			start := time.Now()
			_, err := Lock(path, "cluster state", "prodlab cluster up or down")
			if !errors.Is(err, ErrLocked) {
				release()
				t.Fatalf("second Lock = %v, want ErrLocked", err)
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("refusal took %v, want at once", took)
			}
			for _, want := range []string{"another prodlab cluster up or down", path + ".lock", tc.wantPid} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("refusal lacks %q: %v", want, err)
				}
			}
			release()
			// A killed holder's lock goes with its last file descriptor,
			// when the kernel has finished its exit (sleep, flock's child,
			// is not the process Wait reaps): allow that 10 s.
			var unlock func()
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if unlock, err = Lock(path, "cluster state", "prodlab cluster up or down"); err == nil || time.Now().After(deadline) {
					break
				}
			}
			if err != nil {
				t.Fatalf("Lock after release = %v", err)
			}
			unlock()
		})
	}
}

// TestSaveLoad: what Save writes, Load reads back; a missing file is
// os.ErrNotExist, a corrupt one an error naming the file.
func TestSaveLoad(t *testing.T) {
	type state struct {
		Name string
		Pids []int
	}
	path := filepath.Join(t.TempDir(), "sub", "s.json")
	var got state
	if err := Load(path, "test state", &got); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Load of nothing = %v, want os.ErrNotExist", err)
	}
	want := state{Name: "a", Pids: []int{1, 2}}
	if err := Save(path, "test state", want); err != nil {
		t.Fatal(err)
	}
	if err := Load(path, "test state", &got); err != nil || got.Name != want.Name || len(got.Pids) != 2 {
		t.Fatalf("Load = %+v, %v; want %+v", got, err, want)
	}
	if err := os.WriteFile(path, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Load(path, "test state", &got); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("Load of a corrupt file = %v, want an error naming it", err)
	}
}

// TestLoadRefusesWhatSaveNeverWrites: a FIFO is refused without blocking,
// and a damaged file is named with how to recover, never with Go's types.
func TestLoadRefusesWhatSaveNeverWrites(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	garbage, array := filepath.Join(dir, "garbage.json"), filepath.Join(dir, "array.json")
	for path, data := range map[string]string{garbage: "garbage", array: "[1]"} {
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct{ name, path, want string }{
		{"FIFO", fifo, "fifo.json is not a regular file (a FIFO): prodlab did not write it so; if nothing it started is still running, remove it"},
		{"garbage", garbage, "garbage.json is damaged (invalid character 'g' looking for beginning of value): prodlab did not write it so"},
		{"array", array, "array.json is damaged (a JSON array where prodlab writes something else)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				var v struct{ X int }
				done <- Load(tt.path, "cluster state", &v)
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("Load: %v, want %q", err, tt.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Load blocked")
			}
		})
	}
}
