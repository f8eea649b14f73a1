package dev.prodlab.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import org.junit.jupiter.api.Test;

/** The progress message's latency window: filled by acks, reset by each report. */
class ProgressTest {
    private static TrialRunner runner() {
        return new TrialRunner(RunRequest.parse(Protocol.parse("{\"op\":\"run\",\"id\":9,\"topic\":\"t\",\"records\":10}")), null);
    }

    @Test
    void windowSumsAndMaxSinceLastReport() {
        TrialRunner r = runner();
        r.onAck(0, 100, -1, 100);
        r.onAck(1, 300, -1, 100);
        r.onAck(2, 200, 250, 100);
        JsonObject m = r.progressMessage(System.nanoTime());
        assertEquals("progress", m.get("op").getAsString());
        assertEquals(9, m.get("id").getAsLong());
        assertEquals(3, m.get("acked").getAsLong());
        assertEquals(0, m.get("elapsed_ns").getAsLong(), "no send yet: the clock has not started");
        assertEquals(3, m.get("window_count").getAsLong());
        assertEquals(600, m.get("window_latency_sum_us").getAsLong());
        assertEquals(300, m.get("window_latency_max_us").getAsLong());

        // The next window starts empty; cumulative counts go on.
        r.onAck(3, 50, -1, 100);
        m = r.progressMessage(System.nanoTime());
        assertEquals(4, m.get("acked").getAsLong());
        assertEquals(1, m.get("window_count").getAsLong());
        assertEquals(50, m.get("window_latency_sum_us").getAsLong());
        assertEquals(50, m.get("window_latency_max_us").getAsLong());

        m = r.progressMessage(System.nanoTime());
        assertEquals(0, m.get("window_count").getAsLong());
        assertEquals(0, m.get("window_latency_max_us").getAsLong());
    }

    @Test
    void encodesOneLine() {
        String line = Protocol.encode(Protocol.progress(1, 2_001_000_000L, 52000, 51873, 2,
                new Protocol.Window(25000, 75_000_000L, 9100)));
        assertEquals("{\"op\":\"progress\",\"id\":1,\"elapsed_ns\":2001000000,\"sent\":52000,\"acked\":51873,"
                + "\"failed\":2,\"window_count\":25000,\"window_latency_sum_us\":75000000,"
                + "\"window_latency_max_us\":9100}", line);
    }
}
