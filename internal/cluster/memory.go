package cluster

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Broker heap sizing. Every node's JVM gets
//
//	heap = min(maxHeap, (MemAvailable − memReserve) / nodes)
//
// and a cluster whose heap would fall below minHeap is refused before it
// starts: a broker squeezed into less dies of OutOfMemoryError (or swaps)
// in the middle of a trial, which would be measured as the producer's
// fault. memReserve leaves room for the load generator (the Java worker or
// franz-go), the page cache that Kafka's log reads depend on, and the OS.
const (
	maxHeap    = 1 << 30   // 1 GiB: plenty for a lab broker
	minHeap    = 256 << 20 // 256 MiB: below this a broker is not worth measuring
	memReserve = 2 << 30   // 2 GiB for the load generator, page cache and OS
)

// meminfoPath is read for MemAvailable; tests point it at a fixture.
var meminfoPath = "/proc/meminfo"

// HeapFor returns the heap of each of nodes JVMs on this machine, or an
// error saying how much memory they would need when they do not fit.
func HeapFor(nodes int) (int64, error) {
	avail, err := memAvailable()
	if err != nil {
		return 0, err
	}
	return heapFor(nodes, avail)
}

// heapFor applies the sizing rule to avail bytes of available memory.
func heapFor(nodes int, avail int64) (int64, error) {
	if nodes < 1 {
		return 0, fmt.Errorf("heap for %d nodes: want at least one", nodes)
	}
	heap := min(int64(maxHeap), (avail-memReserve)/int64(nodes))
	if heap < minHeap {
		need := memReserve + int64(nodes)*minHeap
		return 0, fmt.Errorf("%d Kafka nodes do not fit in this machine's memory: %d MiB available, they need %d MiB (%d MiB heap each, at least, plus %d MiB for the load generator and the OS); use fewer brokers or controllers",
			nodes, avail>>20, need>>20, minHeap>>20, memReserve>>20)
	}
	return heap &^ (1<<20 - 1), nil // whole MiB, as -Xmx wants
}

// CheckMemory refuses a cluster of brokers plus controllers nodes that
// cannot fit in the machine's memory, before anything starts.
func CheckMemory(brokers, controllers int) error {
	_, err := HeapFor(brokers + controllers)
	return err
}

// memAvailable reads MemAvailable from /proc/meminfo, in bytes.
func memAvailable() (int64, error) {
	f, err := os.Open(meminfoPath)
	if err != nil {
		return 0, fmt.Errorf("read available memory: %w", err)
	}
	defer f.Close()
	return parseMemAvailable(f)
}

// parseMemAvailable finds "MemAvailable: N kB" in a meminfo file.
func parseMemAvailable(r io.Reader) (int64, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 3 && fields[0] == "MemAvailable:" && fields[2] == "kB" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("read available memory: %q: %w", sc.Text(), err)
			}
			return kb << 10, nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("read available memory: %w", err)
	}
	return 0, fmt.Errorf("read available memory: no MemAvailable line in %s", meminfoPath)
}

// heapArgs returns the JVM heap flags for a heap of heap bytes: the
// initial heap at half of it, so that an idle broker does not claim all.
func heapArgs(heap int64) []string {
	return []string{fmt.Sprintf("-Xms%dm", heap>>21), fmt.Sprintf("-Xmx%dm", heap>>20)}
}

// FitTogether reports whether nodes Kafka JVMs (of several clusters) can
// run at once with the full heap each, so that a run may keep several
// clusters up and alternate between them.
func FitTogether(nodes int) bool {
	h, err := HeapFor(nodes)
	return err == nil && h == maxHeap
}
