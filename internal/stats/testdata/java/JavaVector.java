// JavaVector prints a latency histogram encoded by Java's HdrHistogram with
// encodeIntoCompressedByteBuffer (V2 compressed, as the prodlab Java worker
// sends it), then the figures Java itself computes from it, so the Go decoder
// can be checked against the reference implementation.
//
// Run (Java 11+, no javac needed):
//   java -cp HdrHistogram-2.2.2.jar JavaVector.java > ../java-v2.txt
//
// Output: line 1 base64 of the encoding; line 2
// "count p50 p95 p99 p999 max min" as Java reports them (µs).
import java.nio.ByteBuffer;
import java.util.Base64;
import org.HdrHistogram.Histogram;

public class JavaVector {
    public static void main(String[] args) {
        // The geometry prodlab records in: 1 µs to 10 minutes, 3 digits.
        Histogram h = new Histogram(1, 600_000_000L, 3);
        // A deterministic latency-like shape: a body around 2-12 ms and a
        // tail reaching seconds.
        for (long i = 1; i <= 10_000; i++) {
            h.recordValue(2_000 + (i * 7919) % 10_000);
        }
        for (long i = 1; i <= 100; i++) {
            h.recordValue(50_000 * i);
        }
        h.recordValueWithCount(3, 5);
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        byte[] out = new byte[n];
        buf.flip();
        buf.get(out);
        System.out.println(Base64.getEncoder().encodeToString(out));
        System.out.printf("%d %d %d %d %d %d %d%n",
                h.getTotalCount(),
                h.getValueAtPercentile(50),
                h.getValueAtPercentile(95),
                h.getValueAtPercentile(99),
                h.getValueAtPercentile(99.9),
                h.getMaxValue(),
                h.getMinValue());
    }
}
