package audit

import (
	"runtime"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/auditheader"
)

// benchPool is how many distinct header values the benchmark cycles through;
// after each cycle the checker is replaced so every Observe takes the
// first-sight path (bit test, bit set, order check, Failed lookup).
const benchPool = 1 << 20

// BenchmarkObserve measures the hot path over 3 partitions with a
// mutex-guarded Outcome like driver.AckLog. Target: ≥ 500,000 records/s and
// zero allocations per Observe.
func BenchmarkObserve(b *testing.B) {
	headers := make([][]kgo.RecordHeader, benchPool)
	for i := range headers {
		headers[i] = []kgo.RecordHeader{{Key: auditheader.Key, Value: auditheader.Append(nil, testTag, int64(i))}}
	}
	out := newTestOutcome(benchPool).ack(span(0, benchPool)...)
	c := NewChecker(testTag, benchPool, out)
	var offset int64
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		j := i % benchPool
		if j == 0 && i > 0 {
			b.StopTimer()
			c = NewChecker(testTag, benchPool, out)
			b.StartTimer()
		}
		offset++
		c.Observe(int32(j%3), offset, headers[j])
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
	if c.Result().Foreign != 0 {
		b.Fatal("benchmark records counted foreign")
	}
}

// BenchmarkResult measures the final walk over [0, sent) for 10 million
// sequence numbers.
func BenchmarkResult(b *testing.B) {
	const n = 10_000_000
	out := newTestOutcome(n).ack(span(0, n)...)
	c := NewChecker(testTag, n, out)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		_ = c.Result()
	}
}

// TestObserveNoAllocs pins the zero-allocation promise of Observe outside
// benchmarks, so `go test` catches a regression.
func TestObserveNoAllocs(t *testing.T) {
	c := NewChecker(testTag, 1000, newTestOutcome(1000).ack(span(0, 1000)...))
	headers := make([][]kgo.RecordHeader, 1000)
	for i := range headers {
		headers[i] = own(0, int64(i)).h
	}
	c.Observe(0, 0, headers[0]) // first sight of the partition allocates its state
	i := 0
	allocs := testing.AllocsPerRun(999, func() {
		i++
		c.Observe(0, int64(i), headers[i%1000])
	})
	if allocs != 0 {
		t.Errorf("Observe allocates %.1f times per record, want 0", allocs)
	}
}

// TestMemory10M builds a checker for 10 million records, feeds it all of
// them over 6 partitions, and asserts the heap it holds stays under 64 MB
// (the bitset alone is 1.25 MB).
func TestMemory10M(t *testing.T) {
	if testing.Short() {
		t.Skip("feeds 10 million records; skipped with -short")
	}
	const n = 10_000_000
	out := newTestOutcome(n).ack(span(0, n)...)
	hdr := []kgo.RecordHeader{{Key: auditheader.Key}}
	buf := make([]byte, 0, 64)

	before := heapInUse()
	c := NewChecker(testTag, n, out)
	offsets := make([]int64, 6)
	for seq := range int64(n) {
		p := int32(seq % 6)
		buf = auditheader.Append(buf[:0], testTag, seq)
		hdr[0].Value = buf
		c.Observe(p, offsets[p], hdr)
		offsets[p]++
	}
	r := c.Result()
	after := heapInUse()
	runtime.KeepAlive(c)

	if want := (Result{Acked: n, Read: n}); r != want {
		t.Fatalf("Result() = %+v, want %+v", r, want)
	}
	used := int64(after) - int64(before)
	t.Logf("checker for %d records holds %.2f MB", n, float64(used)/(1<<20))
	if used > 64<<20 {
		t.Errorf("checker for %d records holds %d bytes, want ≤ 64 MB", n, used)
	}
}

// heapInUse returns the live heap after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
