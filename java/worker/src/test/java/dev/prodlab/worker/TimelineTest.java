package dev.prodlab.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.nio.ByteBuffer;
import java.util.Base64;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The interval accounting behind timeline points, fed synthetic callbacks. */
class TimelineTest {
    private static final long MS = 1_000_000L;

    static Histogram decode(JsonObject p) {
        byte[] b = Base64.getDecoder().decode(p.get("histogram").getAsString());
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(b), 0);
        } catch (java.util.zip.DataFormatException e) {
            throw new AssertionError(e);
        }
    }

    private static void ack(Object lock, Timeline t, long us, long bytes) {
        synchronized (lock) {
            t.onAck(us, bytes);
        }
    }

    @Test
    void pointsHoldTheirIntervalOnly() {
        Object lock = new Object();
        Timeline t = new Timeline(lock, 100 * MS);
        assertEquals(100 * MS, t.nextBoundaryNs());
        ack(lock, t, 1000, 512);
        ack(lock, t, 3000, 512);
        synchronized (lock) {
            t.onFailure();
        }
        t.noteInFlight(2);
        t.noteInFlight(5);
        t.noteInFlight(1);
        JsonObject p = t.cut(100 * MS, 10, 4.0, 0, -1);
        assertEquals(0, p.get("t_ns").getAsLong());
        assertEquals(100 * MS, p.get("dur_ns").getAsLong());
        assertTrue(p.get("warmup").getAsBoolean(), "the measured window has not begun");
        assertEquals(10, p.get("sent").getAsLong());
        assertEquals(2, p.get("acked").getAsLong());
        assertEquals(1024, p.get("acked_bytes").getAsLong());
        assertEquals(1, p.get("failed").getAsLong());
        assertEquals(4, p.get("retries").getAsLong());
        assertEquals(5, p.get("in_flight").getAsLong(), "the maximum sampled in the interval");
        Histogram h = decode(p);
        assertEquals(2, h.getTotalCount());
        assertEquals(3000, h.getMaxValue(), 3000 / 1000.0);
        assertEquals(200 * MS, t.nextBoundaryNs());

        // The next interval starts empty: counts are deltas, not totals.
        ack(lock, t, 7000, 100);
        p = t.cut(200 * MS, 25, 4.0, 3, 150 * MS);
        assertEquals(100 * MS, p.get("t_ns").getAsLong());
        assertTrue(p.get("warmup").getAsBoolean(), "began before the measured window (at 150 ms)");
        assertEquals(15, p.get("sent").getAsLong());
        assertEquals(1, p.get("acked").getAsLong());
        assertEquals(100, p.get("acked_bytes").getAsLong());
        assertEquals(0, p.get("failed").getAsLong());
        assertEquals(0, p.get("retries").getAsLong());
        assertEquals(3, p.get("in_flight").getAsLong(), "no samples: the gauge at the cut");
        assertEquals(1, decode(p).getTotalCount(), "the recycled histogram was reset");

        // The last, partial interval keeps its real length.
        ack(lock, t, 10, 1);
        p = t.cut(230 * MS, 25, 9.0, 0, 150 * MS);
        assertFalse(p.get("warmup").getAsBoolean());
        assertEquals(30 * MS, p.get("dur_ns").getAsLong());
        assertEquals(5, p.get("retries").getAsLong());
        assertEquals(0, p.get("sent").getAsLong());

        // A cut at or before the open interval's start makes no point.
        assertNull(t.cut(230 * MS, 25, 9.0, 0, 150 * MS));
        JsonArray pts = t.points();
        assertEquals(3, pts.size());
        long acked = 0;
        for (int i = 0; i < pts.size(); i++) {
            acked += pts.get(i).getAsJsonObject().get("acked").getAsLong();
        }
        assertEquals(4, acked);
    }

    @Test
    void unknownRetriesAndInFlightAreMinusOne() {
        Timeline t = new Timeline(new Object(), MS);
        JsonObject p = t.cut(MS, 0, Double.NaN, -1, 0);
        assertEquals(-1, p.get("retries").getAsLong());
        assertEquals(-1, p.get("in_flight").getAsLong());
        assertFalse(p.get("warmup").getAsBoolean(), "measured from the clock's start: no warm-up");
        assertEquals(0, decode(p).getTotalCount());
        assertThrows(IllegalArgumentException.class, () -> new Timeline(new Object(), 0));
    }
}
