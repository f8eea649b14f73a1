package lab

import (
	"os"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/testtier"
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

// TestCPUOfThisProcess checks both readers agree with a burned second of
// CPU within a generous tolerance (clock ticks are 10 ms).
func TestCPUOfThisProcess(t *testing.T) {
	testtier.Quiet(t)
	b0, err := pidCPU(os.Getpid())
	if err != nil {
		t.Skip("no /proc:", err)
	}
	s0, _ := selfCPU()
	deadline := time.Now().Add(300 * time.Millisecond)
	x := 0
	for time.Now().Before(deadline) {
		x++
	}
	b1, _ := pidCPU(os.Getpid())
	s1, _ := selfCPU()
	if d := b1 - b0; d < 100*time.Millisecond {
		t.Errorf("/proc CPU grew by %v over a 300 ms busy loop", d)
	}
	if d := s1 - s0; d < 100*time.Millisecond {
		t.Errorf("getrusage CPU grew by %v over a 300 ms busy loop", d)
	}
	_ = x
}

// TestCPUCost divides by MB and leaves out a restarted broker.
func TestCPUCost(t *testing.T) {
	before := cpuSnapshot{client: time.Second, brokers: map[int]procCPU{1: {10, time.Second}, 2: {20, time.Second}}}
	after := cpuSnapshot{client: 3 * time.Second, brokers: map[int]procCPU{1: {10, 2 * time.Second}, 2: {21, 0}}}
	c := cpuCost(before, after, 4<<20)
	if c.ClientS != 2 || c.BrokersS != 1 || c.ClientMsPerMB != 500 || c.BrokersMsPerMB != 250 || len(c.Brokers) != 1 {
		t.Errorf("cost = %+v", c)
	}
}
