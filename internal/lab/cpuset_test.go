package lab

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/testtier"
)

func TestCPUList(t *testing.T) {
	for _, tt := range []struct {
		ids  []int
		want string
	}{
		{[]int{0}, "0"},
		{[]int{0, 1, 2, 3}, "0-3"},
		{[]int{0, 2, 3, 4, 7}, "0,2-4,7"},
	} {
		if got := cpuList(tt.ids); got != tt.want {
			t.Errorf("cpuList(%v) = %q, want %q", tt.ids, got, tt.want)
		}
	}
}

// TestWantsSplit: split always splits, shared never, and auto (the
// default, "" too) only where prodlab runs both the brokers and the client
// and the brokers' half has a CPU for each node.
func TestWantsSplit(t *testing.T) {
	for _, tt := range []struct {
		mode            string
		embedded, fleet bool
		nodes, half     int
		must, may       bool
	}{
		{expfile.CPUsSplit, true, false, 3, 1, true, false},
		{expfile.CPUsSplit, false, false, 0, 0, true, false},
		{expfile.CPUsShared, true, false, 1, 1, false, false},
		{expfile.CPUsAuto, true, false, 1, 1, false, true},
		{"", true, false, 1, 1, false, true},
		{"", true, false, 3, 4, false, true},
		{"", true, false, 3, 1, false, false},  // 3 brokers on one CPU compete
		{"", true, false, 1, 0, false, false},  // one CPU: nothing to split
		{"", false, false, 0, 1, false, false}, // --bootstrap: not prodlab's brokers
		{"", true, true, 1, 1, false, false},   // Trogdor: the agents run the client
	} {
		must, may := wantsSplit(tt.mode, tt.embedded, tt.fleet, tt.nodes, tt.half)
		if must != tt.must || may != tt.may {
			t.Errorf("wantsSplit(%q, embedded %v, fleet %v, %d nodes, half %d) = %v, %v; want %v, %v",
				tt.mode, tt.embedded, tt.fleet, tt.nodes, tt.half, must, may, tt.must, tt.may)
		}
	}
}

// checkCPUSets: a trial's record names the CPU halves it ran on when it
// split them, and none when its brokers and client shared the CPUs.
func checkCPUSets(t *testing.T, r results.Record, split bool) {
	t.Helper()
	var got string
	if r.CPU != nil {
		got = r.CPU.Sets
	}
	want := ""
	if split {
		sets, err := planCPUSets()
		if err != nil {
			return // one CPU: nothing to split
		}
		want = sets.text
	}
	if got != want {
		t.Errorf("%s: cpu.sets %q, want %q", r.ScenarioID, got, want)
	}
}

// TestPinProcess: every thread of a running process moves to the set, as
// the kernel reports it (Cpus_allowed_list), and back.
func TestPinProcess(t *testing.T) {
	sets, err := planCPUSets()
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	pid := cmd.Process.Pid
	if err := pinProcess(pid, &sets.client); err != nil {
		t.Fatal(err)
	}
	want := sets.text[strings.Index(sets.text, "client ")+len("client "):]
	if got := allowedList(t, pid); got != want {
		t.Errorf("pinned to the client's CPUs: Cpus_allowed_list %q, want %q", got, want)
	}
	if err := pinProcess(pid, &sets.all); err != nil {
		t.Fatal(err)
	}
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(pid, &all); err != nil {
		t.Fatal(err)
	}
	if all != sets.all {
		t.Errorf("after unpinning, the mask is %v, want %v", all, sets.all)
	}
}

// allowedList is Cpus_allowed_list of process pid's /proc/PID/status.
func allowedList(t *testing.T, pid int) string {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatal("no Cpus_allowed_list")
	return ""
}

// TestSplitCPUsInMemory runs a java trial on an embedded cluster with its
// data on the tmpfs and its CPUs split: the record says which CPUs the
// brokers and the client had, the trial is ok, prodlab has every CPU back
// afterwards, and the run leaves nothing in /dev/shm.
func TestSplitCPUsInMemory(t *testing.T) {
	testtier.Quiet(t)
	sets, err := planCPUSets()
	if err != nil {
		t.Skip(err)
	}
	recs, err := runYAML(t, `
name: split
cluster: {storage: memory, cpus: split}
workload: {duration.s: 1, warmup.s: 0.5, record.size: 1000, payload: random}
client: java
`, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Status != results.StatusOK || recs[0].CPU == nil || recs[0].CPU.Sets != sets.text {
		t.Fatalf("records %+v, want one ok trial with cpu.sets %q", recs, sets.text)
	}
	var now unix.CPUSet
	if err := unix.SchedGetaffinity(0, &now); err != nil || now != sets.all {
		t.Errorf("after the run prodlab may use %v (%v), want every CPU it had: %v", now, err, sets.all)
	}
	left, _ := filepath.Glob(fmt.Sprintf("/dev/shm/prodlab-%d-*", os.Getpid()))
	if len(left) != 0 {
		t.Errorf("the run left %v", left)
	}
}
