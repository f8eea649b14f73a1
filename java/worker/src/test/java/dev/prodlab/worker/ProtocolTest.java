package dev.prodlab.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import org.junit.jupiter.api.Test;

class ProtocolTest {
    @Test
    void parsesFullRunRequest() {
        RunRequest r = RunRequest.parse(Protocol.parse(
                "{\"op\":\"run\",\"id\":7,\"bootstrap\":\"127.0.0.1:9092,127.0.0.1:9093\",\"topic\":\"t\","
                        + "\"props\":{\"acks\":\"all\",\"linger.ms\":5,\"enable.idempotence\":true},"
                        + "\"records\":100000,\"record_size\":1024,\"payload\":\"text\",\"rate\":2500.5,\"seed\":42,"
                        + "\"tag\":\"run1-s0-t0\",\"timeout_ms\":1000,\"duration_ms\":2000,"
                        + "\"warmup_records\":300,\"warmup_ms\":400,\"timeline_interval_ms\":250,"
                        + "\"catch_up_ms\":10,\"catch_up_max_ms\":2000}"));
        assertEquals(7, r.id);
        assertEquals("127.0.0.1:9092,127.0.0.1:9093", r.bootstrap);
        assertEquals("t", r.topic);
        assertEquals("all", r.props.get("acks"));
        assertEquals("5", r.props.get("linger.ms"), "numbers become strings");
        assertEquals("true", r.props.get("enable.idempotence"), "booleans become strings");
        assertEquals(100000, r.records);
        assertEquals(1024, r.recordSize);
        assertEquals("text", r.payload);
        assertEquals(2500.5, r.rate);
        assertEquals(42, r.seed);
        assertEquals("run1-s0-t0", r.tag);
        assertEquals(1000, r.timeoutMs);
        assertEquals(2000, r.durationMs);
        assertEquals(300, r.warmupRecords);
        assertEquals(400, r.warmupMs);
        assertEquals(250, r.timelineIntervalMs);
        assertEquals(10, r.catchUpMs);
        assertEquals(2000, r.catchUpMaxMs);
        assertTrue(r.hasWarmup());
    }

    @Test
    void appliesDefaults() {
        RunRequest r = RunRequest.parse(Protocol.parse("{\"op\":\"run\",\"id\":1,\"topic\":\"t\",\"records\":10}"));
        assertEquals("json", r.payload);
        assertEquals(0, r.rate);
        assertEquals("", r.tag);
        assertEquals(RunRequest.DEFAULT_TIMEOUT_MS, r.timeoutMs);
        assertEquals(0, r.durationMs, "a burst: exactly records");
        assertEquals(0, r.warmupRecords);
        assertEquals(0, r.warmupMs);
        assertEquals(0, r.timelineIntervalMs, "no timeline");
        assertFalse(r.hasWarmup());
        assertTrue(r.props.isEmpty());
    }

    @Test
    void rejectsMalformedRequests() {
        // records is required
        assertThrows(IllegalArgumentException.class, () -> RunRequest.parse(Protocol.parse("{\"op\":\"run\",\"id\":1}")));
        // records must be a number
        assertThrows(IllegalArgumentException.class,
                () -> RunRequest.parse(Protocol.parse("{\"op\":\"run\",\"records\":\"many\"}")));
        // props must be an object of scalars
        assertThrows(IllegalArgumentException.class,
                () -> RunRequest.parse(Protocol.parse("{\"op\":\"run\",\"records\":1,\"props\":{\"a\":[1]}}")));
        // negative durations and counts
        for (String f : new String[] {"duration_ms", "warmup_records", "warmup_ms", "timeline_interval_ms", "catch_up_ms", "catch_up_max_ms"}) {
            assertThrows(IllegalArgumentException.class,
                    () -> RunRequest.parse(Protocol.parse("{\"op\":\"run\",\"records\":1,\"" + f + "\":-1}")), f);
        }
        // negative rate
        assertThrows(IllegalArgumentException.class,
                () -> RunRequest.parse(Protocol.parse("{\"op\":\"run\",\"records\":1,\"rate\":-1}")));
        // not an object
        assertThrows(IllegalArgumentException.class, () -> Protocol.parse("[1,2]"));
    }

    @Test
    void encodesSingleLines() {
        String hello = Protocol.encode(Protocol.hello("3.9.1", "17.0.15"));
        assertEquals("{\"op\":\"hello\",\"client\":\"kafka-clients 3.9.1\",\"java\":\"17.0.15\"}", hello);
        String fail = Protocol.encode(Protocol.failure(3, "a \"quoted\"\nmessage <x>", "hint"));
        assertFalse(fail.contains("\n"), "one message is one line");
        assertEquals("{\"op\":\"result\",\"id\":3,\"ok\":false,\"error\":\"a \\\"quoted\\\"\\nmessage <x>\",\"hint\":\"hint\"}", fail);
        JsonObject o = new JsonObject();
        Protocol.addFinite(o, "nan", Double.NaN);
        Protocol.addFinite(o, "inf", Double.POSITIVE_INFINITY);
        Protocol.addFinite(o, "one", 1.5);
        assertEquals("{\"one\":1.5}", Protocol.encode(o));
    }

    @Test
    void seqRanges() {
        BitSet b = new BitSet();
        assertEquals("[]", SeqRanges.of(b).toString());
        b.set(0, 5);
        b.set(7);
        b.set(9, 12);
        assertEquals("[[0,5],[7,8],[9,12]]", SeqRanges.of(b).toString());
    }

    @Test
    void auditValue() {
        byte[] v = AuditHeader.valueOf("run1-s0-t0/".getBytes(StandardCharsets.US_ASCII), 1234);
        assertEquals("run1-s0-t0/1234", new String(v, StandardCharsets.US_ASCII));
        assertEquals("x/0", new String(AuditHeader.valueOf("x/".getBytes(StandardCharsets.US_ASCII), 0),
                StandardCharsets.US_ASCII));
    }

    @Test
    void servesHelloRunAndExit() {
        String in = String.join("\n",
                "{\"op\":\"hello\"}",
                "not json",
                "{\"op\":\"nope\"}",
                "{\"op\":\"run\",\"id\":5,\"bootstrap\":\"127.0.0.1:1\",\"topic\":\"t\","
                        + "\"props\":{\"enable.idempotence\":\"true\",\"acks\":\"1\"},\"records\":10,\"record_size\":200}",
                "{\"op\":\"exit\"}",
                "{\"op\":\"hello\"}") + "\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = new Main(out).serve(new ByteArrayInputStream(in.getBytes(StandardCharsets.UTF_8)));
        assertEquals(0, code);
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(4, lines.length, out.toString(StandardCharsets.UTF_8));
        // answers come in request order
        assertTrue(lines[0].startsWith("{\"op\":\"hello\",\"client\":\"kafka-clients "), lines[0]);
        assertTrue(lines[1].startsWith("{\"op\":\"error\",\"error\":\"bad request line"), lines[1]);
        assertEquals("{\"op\":\"error\",\"error\":\"unknown op \\\"nope\\\"\"}", lines[2]);
        JsonObject r = Protocol.parse(lines[3]);
        assertEquals(5, r.get("id").getAsLong());
        assertFalse(r.get("ok").getAsBoolean());
    }

    @Test
    void endOfInputExits() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = new Main(out).serve(new ByteArrayInputStream(new byte[0]));
        assertEquals(0, code);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }
}
