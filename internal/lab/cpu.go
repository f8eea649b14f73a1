package lab

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/results"
)

// userHZ is the unit of utime and stime in /proc/<pid>/stat: USER_HZ, fixed
// at 100 by the Linux ABI whatever the kernel's own tick rate.
const userHZ = 100

// cpuTimer is implemented by drivers whose client runs in another process
// (the Java worker): the CPU time that process has spent so far.
type cpuTimer interface {
	CPUTime() (time.Duration, error)
}

// cpuSnapshot is the CPU time spent so far by the client and each broker.
type cpuSnapshot struct {
	client  time.Duration
	clientE error
	brokers map[int]procCPU // by node id
}

// procCPU is one process's CPU time, with its pid to notice a restart.
type procCPU struct {
	pid int
	cpu time.Duration
}

// takeCPU reads the client's CPU time (the driver's process, or prodlab's
// own for in-process clients) and every embedded broker's.
func takeCPU(d any, brokerPids map[int]int) cpuSnapshot {
	s := cpuSnapshot{brokers: map[int]procCPU{}}
	if ct, ok := d.(cpuTimer); ok {
		s.client, s.clientE = ct.CPUTime()
	} else {
		s.client, s.clientE = selfCPU()
	}
	for id, pid := range brokerPids {
		if c, err := pidCPU(pid); err == nil {
			s.brokers[id] = procCPU{pid: pid, cpu: c}
		}
	}
	return s
}

// cpuCost is the CPU spent between two snapshots, per MB of values
// acknowledged (warm-up included: the CPU of the whole trial). A broker
// restarted in between (another pid) is left out, since its CPU before the
// restart is gone with its process.
func cpuCost(before, after cpuSnapshot, ackedBytes int64) *results.CPU {
	if before.clientE != nil || after.clientE != nil {
		return nil
	}
	c := &results.CPU{ClientS: (after.client - before.client).Seconds()}
	for id, a := range after.brokers {
		b, ok := before.brokers[id]
		if !ok || b.pid != a.pid {
			continue
		}
		if c.Brokers == nil {
			c.Brokers = map[string]float64{}
		}
		s := (a.cpu - b.cpu).Seconds()
		c.Brokers[strconv.Itoa(id)] = s
		c.BrokersS += s
	}
	if mb := float64(ackedBytes) / (1 << 20); mb > 0 {
		c.ClientMsPerMB = c.ClientS * 1000 / mb
		c.BrokersMsPerMB = c.BrokersS * 1000 / mb
	}
	return c
}

// selfCPU is prodlab's own CPU time (driver.ProcessCPU).
func selfCPU() (time.Duration, error) { return driver.ProcessCPU() }

// pidCPU is a process's user + system time from /proc/<pid>/stat.
func pidCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseStatCPU(string(b))
}

// parseStatCPU reads utime and stime (fields 14 and 15) of a
// /proc/<pid>/stat line. The command name (field 2) is in parentheses and
// may hold spaces, so fields are counted after its closing parenthesis.
func parseStatCPU(stat string) (time.Duration, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("malformed /proc stat line")
	}
	f := strings.Fields(stat[i+1:])
	// f[0] is field 3 (state); utime is field 14, stime field 15.
	if len(f) < 13 {
		return 0, fmt.Errorf("malformed /proc stat line: %d fields", len(f))
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("malformed /proc stat times %q %q", f[11], f[12])
	}
	return time.Duration(ut+st) * time.Second / userHZ, nil
}
