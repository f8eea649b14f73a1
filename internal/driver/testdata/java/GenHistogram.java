// Writes a Java-encoded latency histogram (base64 of
// encodeIntoCompressedByteBuffer, as the prodlab worker sends) for the Go
// decoding test. Regenerate histogram.b64 with:
//
//   java -cp ~/.m2/repository/org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar \
//       GenHistogram.java > histogram.b64
//
// Contents: the values 1..1000 µs once each and 5000 µs ten times, in a
// histogram of 1 µs .. 10 min with 3 significant digits (the worker's shape).
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import org.HdrHistogram.Histogram;

public class GenHistogram {
    public static void main(String[] args) {
        Histogram h = new Histogram(1, 600_000_000L, 3);
        for (long v = 1; v <= 1000; v++) {
            h.recordValue(v);
        }
        h.recordValueWithCount(5000, 10);
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        System.out.println(Base64.getEncoder().encodeToString(Arrays.copyOf(buf.array(), n)));
    }
}
