package lab

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/prodlab/prodlab/internal/expfile"
)

// cluster.cpus: split runs the brokers and the client on disjoint CPU
// sets, so that on a small machine neither takes the other's cores in the
// measured window (the issue "Decide at saturation": an A/A pair beside a
// noisy neighbour). Each trial pins every thread of every broker and of
// the client (the Java worker, or prodlab itself for franz-go, with its
// proxies and end-to-end consumer) with sched_setaffinity; a trial that
// does not split gives them all CPUs back, since a process prodlab starts
// inherits prodlab's own mask. The default, auto, splits wherever prodlab
// runs both the brokers and the client and the brokers' half has a CPU
// for each node (wantsSplit).

// cpuSets are the CPU sets of a run: every CPU prodlab may use, and the
// halves isolation gives the brokers and the client.
type cpuSets struct {
	all, brokers, client unix.CPUSet
	// text is "brokers 0; client 1".
	text string
}

// planCPUSets splits the CPUs prodlab may run on (its affinity mask when
// the run starts) into two halves: the brokers get the lower, the client
// the upper. Fewer than 2 CPUs cannot be split.
func planCPUSets() (cpuSets, error) {
	var s cpuSets
	all, halves, lists, err := splitCPUs("cluster.cpus: split", "brokers and client")
	if err != nil {
		return s, err
	}
	s.all, s.brokers, s.client = all, halves[0], halves[1]
	s.text = "brokers " + lists[0] + "; client " + lists[1]
	return s, nil
}

// splitCPUs reads prodlab's affinity mask and splits it into a lower and
// an upper half by core (hyperthreads of one core stay in one half, since
// two halves that share cores would compete on them), with each half's CPU
// list; what names the setting and between whom, for the error when fewer
// than 2 CPUs are there to split.
func splitCPUs(what, between string) (all unix.CPUSet, halves [2]unix.CPUSet, lists [2]string, err error) {
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		return all, halves, lists, fmt.Errorf("%s: read prodlab's CPU affinity: %w", what, err)
	}
	ids := setIDs(&all)
	if len(ids) < 2 {
		return all, halves, lists, fmt.Errorf("%s needs at least 2 CPUs to split between %s; prodlab may use %d", what, between, len(ids))
	}
	for i, part := range splitByCore(ids, sysfsCore) {
		for _, id := range part {
			halves[i].Set(id)
		}
		lists[i] = cpuList(part)
	}
	return all, halves, lists, nil
}

// splitByCore splits CPU ids (ascending) into two halves of whole cores,
// the cores in order of their lowest CPU, the upper half the larger when
// the cores are odd in number; one core's threads split between the
// halves. coreOf names a CPU's core ("" when unknown: the CPU is its own).
func splitByCore(ids []int, coreOf func(int) string) [2][]int {
	var cores [][]int
	at := map[string]int{}
	for _, id := range ids {
		c := coreOf(id)
		if i, ok := at[c]; ok && c != "" {
			cores[i] = append(cores[i], id)
			continue
		}
		at[c] = len(cores)
		cores = append(cores, []int{id})
	}
	if len(cores) < 2 {
		return [2][]int{ids[:len(ids)/2], ids[len(ids)/2:]}
	}
	var out [2][]int
	for i, c := range cores {
		h := 0
		if i >= len(cores)/2 {
			h = 1
		}
		out[h] = append(out[h], c...)
	}
	slices.Sort(out[0])
	slices.Sort(out[1])
	return out
}

// sysfsCore names CPU id's core as the kernel reports it (package/core), or
// "" when it does not.
func sysfsCore(id int) string {
	base := fmt.Sprintf("/sys/devices/system/cpu/cpu%d/topology/", id)
	pkg, err1 := os.ReadFile(base + "physical_package_id")
	core, err2 := os.ReadFile(base + "core_id")
	if err1 != nil || err2 != nil {
		return ""
	}
	return strings.TrimSpace(string(pkg)) + "/" + strings.TrimSpace(string(core))
}

// setIDs are the CPU ids in set, ascending.
func setIDs(set *unix.CPUSet) []int {
	var ids []int
	for i := 0; i < len(set)*64; i++ {
		if set.IsSet(i) {
			ids = append(ids, i)
		}
	}
	return ids
}

// cpuList renders CPU ids as Linux lists them: "0-3,6".
func cpuList(ids []int) string {
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(ids[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", ids[i], ids[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// pinProcess sets the CPU affinity of every thread of process pid (0:
// prodlab itself). Threads that end meanwhile are skipped; threads the
// process starts later inherit their creator's mask.
func pinProcess(pid int, set *unix.CPUSet) error {
	dir := "/proc/self/task"
	if pid > 0 {
		dir = filepath.Join("/proc", strconv.Itoa(pid), "task")
	}
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("pin process %d: %w", pid, err)
	}
	var errs []error
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, set); err != nil && !errors.Is(err, unix.ESRCH) {
			errs = append(errs, fmt.Errorf("pin thread %d of process %d: %w", tid, pid, err))
		}
	}
	return errors.Join(errs...)
}

// wantsSplit says how a trial's CPUs are shared under cluster.cpus mode:
// must under split; may under auto (the default) where prodlab runs both
// the brokers and the client (an embedded cluster, no Trogdor fleet) and
// the brokers' half has a CPU for each of the nodes' JVMs. half is that
// half's CPUs (0: nothing to split). Three brokers on one CPU compete
// among themselves: on 2 cores their rounds spread twice as wide split as
// shared (bench/RESULTS.md §25).
func wantsSplit(mode string, embedded, fleet bool, nodes, half int) (must, may bool) {
	switch mode {
	case expfile.CPUsSplit:
		return true, false
	case expfile.CPUsShared:
		return false, false
	}
	return false, embedded && !fleet && half > 0 && nodes <= half
}

// isolates reports whether a trial of e on tgt runs on split CPUs. Under
// auto the log says once for each cluster size what it chose.
func (x *executor) isolates(e expfile.Experiment, tgt *Target) bool {
	if x.arm != nil { // a duet arm has its own half (duet.go)
		return false
	}
	auto := e.Cluster.CPUs != expfile.CPUsSplit && e.Cluster.CPUs != expfile.CPUsShared
	embedded, half, nodes := tgt.Embedded(), 0, len(brokerPids(tgt))
	if auto && embedded {
		half = x.brokerHalf()
	}
	must, may := wantsSplit(e.Cluster.CPUs, embedded, e.Trogdor.Coordinator != "", nodes, half)
	if half > 0 && !x.autoSaid[nodes] {
		if x.autoSaid == nil {
			x.autoSaid = map[int]bool{}
		}
		x.autoSaid[nodes] = true
		if may {
			x.logf("cluster.cpus: auto: %s (cluster.cpus: shared lets them share)", x.cpus.text)
		} else {
			x.logf("cluster.cpus: auto: %d nodes would share the brokers' %d CPU(s), so every process shares every CPU (cluster.cpus: split pins them anyway)", nodes, half)
		}
	}
	return must || may
}

// brokerHalf plans the run's CPU sets once and returns how many CPUs the
// brokers' half has: 0 where there is nothing to split (the log says so
// once).
func (x *executor) brokerHalf() int {
	if x.cpus == nil && !x.noSplit {
		s, err := planCPUSets()
		if err != nil {
			x.noSplit = true
			x.logf("cluster.cpus: auto: the brokers and the client share the CPUs (%v)", err)
			return 0
		}
		x.cpus = &s
	}
	if x.cpus == nil {
		return 0
	}
	return x.cpus.brokers.Count()
}

// pider is implemented by drivers whose client runs in its own process
// (the Java worker).
type pider interface{ PID() int }

// pin gives the trial's brokers and client their CPUs before it runs:
// disjoint halves when isolate is set (returning what they are, for the
// record), else every CPU prodlab may use, which undoes an earlier
// trial's isolation. Without isolation anywhere in the run it does
// nothing.
func (x *executor) pin(isolate bool, d any, brokers map[int]int) (string, error) {
	x.brokerCPUs = nil
	if x.arm != nil {
		x.brokerCPUs = &x.arm.set
		return x.arm.pin(d, brokers)
	}
	if !isolate && x.cpus == nil {
		return "", nil
	}
	if x.cpus == nil {
		s, err := planCPUSets()
		if err != nil {
			return "", err
		}
		x.cpus = &s
	}
	brokerSet, clientSet, text := &x.cpus.all, &x.cpus.all, ""
	if isolate {
		brokerSet, clientSet, text = &x.cpus.brokers, &x.cpus.client, x.cpus.text
	}
	client := 0 // prodlab itself: franz-go, the proxies, the e2e consumer
	if p, ok := d.(pider); ok {
		client = p.PID()
	}
	x.brokerCPUs = brokerSet
	var errs []error
	for _, pid := range brokers {
		errs = append(errs, pinProcess(pid, brokerSet))
	}
	errs = append(errs, pinProcess(client, clientSet))
	if client != 0 { // prodlab's own threads stay off the brokers' CPUs too
		errs = append(errs, pinProcess(0, clientSet))
	}
	if err := errors.Join(errs...); err != nil {
		return "", fmt.Errorf("cluster.cpus: split: %w", err)
	}
	return text, nil
}

// repin gives broker id, restarted by a fault during the trial, the CPUs
// pin gave the trial's brokers (a new process inherits prodlab's mask: the
// client's half, or every CPU), and returns them as the kernel reports
// them now ("" when the trial did not pin).
func (x *executor) repin(tgt *Target, id int) (string, error) {
	pid := brokerPids(tgt)[id]
	if x.brokerCPUs == nil || pid == 0 {
		return "", nil
	}
	if err := pinProcess(pid, x.brokerCPUs); err != nil {
		return "", err
	}
	var now unix.CPUSet
	if err := unix.SchedGetaffinity(pid, &now); err != nil {
		return "", fmt.Errorf("read the CPU affinity of broker %d (pid %d): %w", id, pid, err)
	}
	return cpuList(setIDs(&now)), nil
}

// unpin gives prodlab back every CPU it had when the run began, after a
// run that split them: whatever it starts next inherits its mask.
func (x *executor) unpin() {
	if x.cpus != nil {
		_ = pinProcess(0, &x.cpus.all)
	}
}
