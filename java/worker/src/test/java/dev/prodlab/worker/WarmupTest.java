package dev.prodlab.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.nio.ByteBuffer;
import java.util.Base64;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The warm-up/measured split, fed synthetic callbacks (no producer): a
 * record is warm-up by its sequence number, not by when its ack arrives.
 */
class WarmupTest {
    private static TrialRunner runner(String extra) {
        return new TrialRunner(RunRequest.parse(Protocol.parse(
                "{\"op\":\"run\",\"id\":3,\"topic\":\"t\",\"records\":4,\"tag\":\"x\"" + extra + "}")), null);
    }

    private static Histogram decode(String b64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(b64)), 0);
        } catch (java.util.zip.DataFormatException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void warmupIsClassifiedBySequence() throws InterruptedException {
        TrialRunner r = runner(",\"warmup_records\":3,\"timeline_interval_ms\":1000");
        r.startClock();
        assertEquals(-1, r.measuredFromNs(), "with a warm-up the measured window starts later");
        r.onAck(0, 5000, -1, 10);
        r.onFailure(1, new RuntimeException("warm-up failure"));
        Thread.sleep(2);
        long measuredAt = System.nanoTime();
        r.startMeasured(3, measuredAt);
        // Seq 2 is acknowledged after the measured window began: still warm-up.
        r.onAck(2, 9000, -1, 10);
        r.onAck(3, 100, -1, 10);
        r.onAck(4, 200, -1, 10);
        r.onFailure(5, new RuntimeException("measured failure"));
        r.onAck(6, 300, -1, 10);
        long end = measuredAt + 7_000_000L;
        r.cutAt(end);
        JsonObject o = r.measurements(end);

        assertTrue(o.get("ok").getAsBoolean());
        assertEquals(3, o.get("acked").getAsLong(), "warm-up acks would make 5");
        assertEquals(1, o.get("failed").getAsLong());
        assertEquals(2, o.get("warmup_acked").getAsLong());
        assertEquals(1, o.get("warmup_failed").getAsLong());
        assertEquals(7_000_000L, o.get("elapsed_ns").getAsLong(), "from the first measured send");
        long from = o.get("measured_from_ns").getAsLong();
        assertTrue(from >= 2_000_000L, "measured_from_ns " + from);
        assertTrue(o.get("clock_start_epoch_us").getAsLong() > 1_600_000_000_000_000L);

        Histogram h = decode(o.get("histogram").getAsString());
        assertEquals(3, h.getTotalCount());
        assertTrue(h.getMaxValue() < 1000, "warm-up latencies (5000, 9000 µs) are not in the histogram");
        Histogram w = decode(o.get("histogram_warmup").getAsString());
        assertEquals(2, w.getTotalCount(), "the warm-up's own histogram holds its two acks");
        assertTrue(w.getMinValue() >= 4990 && w.getMaxValue() <= 9010, "warm-up latencies 5000 and 9000 µs, got " + w);
        JsonObject errs = o.getAsJsonObject("errors");
        assertEquals(1, errs.size());
        assertTrue(errs.has("RuntimeException: measured failure"), errs.toString());
        JsonObject werrs = o.getAsJsonObject("warmup_errors");
        assertEquals(1, werrs.size(), "the warm-up's failure, apart: " + werrs);
        assertEquals(1, werrs.get("RuntimeException: warm-up failure").getAsLong());

        // Audit ranges cover warm-up and measured records alike.
        assertEquals("[[0,1],[2,5],[6,7]]", o.getAsJsonArray("acked_ranges").toString());
        assertEquals("[[1,2],[5,6]]", o.getAsJsonArray("failed_ranges").toString());

        // The timeline has every ack, warm-up included, in one point (the
        // trial is shorter than an interval), which began in the warm-up.
        JsonArray tl = o.getAsJsonArray("timeline");
        assertEquals(1, tl.size());
        JsonObject p = tl.get(0).getAsJsonObject();
        assertEquals(5, p.get("acked").getAsLong());
        assertEquals(2, p.get("failed").getAsLong());
        assertEquals(50, p.get("acked_bytes").getAsLong());
        assertTrue(p.get("warmup").getAsBoolean());
        assertEquals(-1, p.get("retries").getAsLong(), "no producer: unknown");
        assertEquals(5, decode(p.get("histogram").getAsString()).getTotalCount());

        // Progress reports the whole stream.
        JsonObject pr = r.progressMessage(System.nanoTime());
        assertEquals(5, pr.get("acked").getAsLong());
        assertEquals(2, pr.get("failed").getAsLong());
        assertEquals(5, pr.get("window_count").getAsLong());
    }

    @Test
    void withoutWarmupEverythingIsMeasured() {
        TrialRunner r = runner("");
        r.startClock();
        assertEquals(0, r.measuredFromNs());
        r.onAck(0, 100, -1, 10);
        r.onAck(1, 100, -1, 10);
        JsonObject o = r.measurements(System.nanoTime());
        assertEquals(2, o.get("acked").getAsLong());
        assertEquals(0, o.get("warmup_acked").getAsLong());
        assertEquals(0, o.get("measured_from_ns").getAsLong());
        assertFalse(o.has("timeline"), "no timeline unless asked");
    }

    @Test
    void beforeTheMeasuredWindowBegins() {
        // A trial that ends in its warm-up (a timeout) has no measured window.
        TrialRunner r = runner(",\"warmup_ms\":100");
        r.onAck(0, 100, -1, 10);
        JsonObject o = r.measurements(System.nanoTime());
        assertEquals(1, o.get("warmup_acked").getAsLong(), "with a warm-up, records before the window are warm-up");
        assertEquals(0, o.get("acked").getAsLong());
        assertEquals(0, o.get("elapsed_ns").getAsLong());
        assertFalse(o.has("measured_from_ns"));
        // Without a warm-up every record is measured, clock or not (ProgressTest's case).
        r = runner("");
        r.onAck(0, 100, -1, 10);
        o = r.measurements(System.nanoTime());
        assertEquals(1, o.get("acked").getAsLong());
        assertEquals(0, o.get("warmup_acked").getAsLong());
    }
}
