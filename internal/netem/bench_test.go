package netem

import (
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// BenchmarkThroughput streams 64 KiB writes to a sink directly and through a
// proxy at RTT 0 (framing on: the stream is not Kafka, so the scanner gives
// up after the first bytes); compare MB/s to get the proxy's overhead ratio.
// It also includes a produce-framed stream through the proxy, where the
// scanner follows every frame.
func BenchmarkThroughput(b *testing.B) {
	const size = 64 << 10
	produce := produceFrame(7, 1, 0, size-200, nil) // acks=0: no responses needed
	for _, bc := range []struct {
		name  string
		proxy bool
		frame []byte
	}{
		{"direct", false, make([]byte, size)},
		{"proxy-rtt0", true, make([]byte, size)},
		{"proxy-rtt0-produce-frames", true, produce},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var got atomic.Int64
			addr := startSink(b, &got)
			if bc.proxy {
				addr = startProxy(b, addr, Config{}).Addr()
			}
			c := dial(b, addr)
			_ = c.SetDeadline(time.Time{})
			b.SetBytes(int64(len(bc.frame)))
			cpu0 := processCPU(b)
			b.ResetTimer()
			for range b.N {
				if _, err := c.Write(bc.frame); err != nil {
					b.Fatal(err)
				}
			}
			want := int64(b.N) * int64(len(bc.frame))
			deadline := time.Now().Add(testTimeout)
			for got.Load() < want && time.Now().Before(deadline) {
				time.Sleep(50 * time.Microsecond)
			}
			b.StopTimer()
			if got.Load() != want {
				b.Fatalf("sink got %d bytes, want %d", got.Load(), want)
			}
			b.ReportMetric(float64(processCPU(b)-cpu0)/float64(want), "cpu-ns/B")
		})
	}
}

// processCPU is the user+system CPU time of the test process so far: with
// sender, proxy and sink in one process, the proxy's CPU per byte is the
// difference of cpu-ns/B between a proxied and the direct case.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRequestScanner measures the framing parser alone on 64 KiB reads
// of 16 KiB produce requests.
func BenchmarkRequestScanner(b *testing.B) {
	var stream []byte
	for i := range 64 {
		stream = append(stream, produceFrame(9, int32(i), -1, 16<<10, nil)...)
	}
	var s requestScanner
	n := 0
	done := func(requestInfo) { n++ }
	b.SetBytes(int64(len(stream)))
	b.ResetTimer()
	for range b.N {
		for p := stream; len(p) > 0; {
			k := min(len(p), readBufSize)
			if err := s.feed(p[:k], done); err != nil {
				b.Fatal(err)
			}
			p = p[k:]
		}
	}
}
