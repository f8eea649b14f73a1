package lab

import (
	"os"
	"testing"
	"time"
)

// TestParseStatCPU reads utime + stime from /proc stat lines, including a
// command name with spaces and parentheses.
func TestParseStatCPU(t *testing.T) {
	tests := []struct {
		name, line string
		want       time.Duration
		wantErr    bool
	}{
		// 150 + 50 ticks at USER_HZ 100 = 2 s.
		{"plain", "1234 (java) S 1 1234 1234 0 -1 4194560 100 0 0 0 150 50 0 0 20 0 30 0 100 0 0", 2 * time.Second, false},
		// The name may hold spaces and ')': fields count after the last ')'.
		{"odd name", "99 (a) b (c)) R 1 99 99 0 -1 0 0 0 0 0 7 3 0 0 20 0 1 0 1 0 0", 100 * time.Millisecond, false},
		{"truncated", "99 (x) R 1 2", 0, true},
		{"garbage", "no parenthesis", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStatCPU(tt.line)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("parseStatCPU = %v, %v; want %v (error %v)", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestCPUOfThisProcess checks the two readers against each other: it
// burns CPU until getrusage has grown by 200 ms (60 s at most, however
// loaded the machine), then /proc must have grown by as much within its
// clock ticks (10 ms) and the reads between them.
func TestCPUOfThisProcess(t *testing.T) {
	b0, err := pidCPU(os.Getpid())
	if err != nil {
		t.Skip("no /proc:", err)
	}
	s0, _ := selfCPU()
	const burn = 200 * time.Millisecond
	x := 0
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		for range 100000 {
			x++
		}
		if s, _ := selfCPU(); s-s0 >= burn {
			break
		}
	}
	b1, _ := pidCPU(os.Getpid())
	s1, _ := selfCPU()
	ds, db := s1-s0, b1-b0
	if ds < burn {
		t.Fatalf("getrusage CPU grew by %v in a minute of busy loop", ds)
	}
	if db < ds-30*time.Millisecond || db > ds+30*time.Millisecond {
		t.Errorf("/proc CPU grew by %v while getrusage grew by %v: want within 30 ms", db, ds)
	}
	_ = x
}
