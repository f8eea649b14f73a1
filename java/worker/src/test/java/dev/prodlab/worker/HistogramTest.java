package dev.prodlab.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.Base64;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class HistogramTest {
    @Test
    void encodeRoundTrip() throws Exception {
        Histogram h = Histograms.create();
        for (long v = 1; v <= 100_000; v++) {
            h.recordValue(v);
        }
        h.recordValue(Histograms.clamp(10L * 60 * 1_000_000 * 5)); // clamped to 10 min
        String b64 = Histograms.encode(h);
        Histogram back = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(b64)), 0);
        assertEquals(h.getTotalCount(), back.getTotalCount());
        assertEquals(h.getValueAtPercentile(50), back.getValueAtPercentile(50));
        assertEquals(h.getValueAtPercentile(99.9), back.getValueAtPercentile(99.9));
        assertEquals(h.getMaxValue(), back.getMaxValue());
        assertEquals(h, back);
    }

    @Test
    void clamp() {
        assertEquals(0, Histograms.clamp(-5));
        assertEquals(Histograms.HIST_MAX_US, Histograms.clamp(Long.MAX_VALUE));
    }
}
