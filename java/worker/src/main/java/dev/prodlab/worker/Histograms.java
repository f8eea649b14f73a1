package dev.prodlab.worker;

import java.nio.ByteBuffer;
import java.util.Base64;
import org.HdrHistogram.Histogram;

/** The latency histograms a trial reports: their bounds and their encoding. */
final class Histograms {
    private Histograms() {}

    /** Latency histogram bounds (µs): 1 µs .. 10 min, 3 significant digits. */
    static final long HIST_MAX_US = 600_000_000L;

    static Histogram create() {
        return new Histogram(1, HIST_MAX_US, 3);
    }

    static long clamp(long us) {
        return us < 0 ? 0 : Math.min(us, HIST_MAX_US);
    }

    static String encode(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), n));
    }
}
