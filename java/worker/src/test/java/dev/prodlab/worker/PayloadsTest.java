package dev.prodlab.worker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PayloadsTest {
    @Test
    void jsonIsExactSizeValidAndUnique() throws Exception {
        for (int size : new int[] {Payloads.Json.MIN_SIZE, 131, 1024, 4096, 100_000}) {
            Payloads p = Payloads.create("json", size, 1, 100_000);
            Set<String> ids = new HashSet<>();
            for (long seq : new long[] {0, 1, 9, 10, 99_999}) {
                byte[] v = p.next(seq);
                assertEquals(size, v.length, "size " + size);
                String s = new String(v, StandardCharsets.US_ASCII);
                JsonObject o = JsonParser.parseString(s).getAsJsonObject();
                assertEquals(seq, o.get("seq").getAsLong());
                assertTrue(o.get("id").getAsString().matches(
                        "[0-9a-f]{16}"), o.get("id").getAsString());
                assertTrue(o.get("ts").getAsLong() > 1_600_000_000_000L);
                assertTrue(o.get("event").getAsString().startsWith("order_"));
                assertTrue(o.get("payload").getAsString().matches("[0-9a-f]*"));
                ids.add(o.get("id").getAsString());
            }
            assertEquals(5, ids.size(), "ids are unique");
        }
    }

    @Test
    void jsonTooSmall() {
        assertEquals(100, Payloads.Json.MIN_SIZE, "same minimum as the Go package payload");
        assertThrows(IllegalArgumentException.class, () -> Payloads.create("json", 99, 1, 10));
        assertThrows(IllegalArgumentException.class, () -> Payloads.create("random", 0, 1, 10));
    }

    @Test
    void jsonIsReproducible() throws Exception {
        byte[] a = Payloads.create("json", 300, 7, 10).next(3).clone();
        byte[] b = Payloads.create("json", 300, 7, 10).next(3).clone();
        // ts differs between calls at most; compare the id, which depends on seed and seq only
        String ida = JsonParser.parseString(new String(a, StandardCharsets.US_ASCII)).getAsJsonObject().get("id").getAsString();
        String idb = JsonParser.parseString(new String(b, StandardCharsets.US_ASCII)).getAsJsonObject().get("id").getAsString();
        assertEquals(ida, idb);
    }

    @Test
    void randomAndText() throws Exception {
        for (int size : new int[] {1, 100, 1024, 70_000}) {
            byte[] r0 = Payloads.create("random", size, 1, 10).next(0).clone();
            assertEquals(size, r0.length);
            Payloads t = Payloads.create("text", size, 1, 10);
            byte[] t0 = t.next(0).clone();
            byte[] t1 = t.next(1).clone();
            assertEquals(size, t0.length);
            for (byte c : t0) {
                assertTrue(c >= 'A' && c <= 'Z');
            }
            if (size >= 100) {
                assertNotEquals(Arrays.toString(t0), Arrays.toString(t1), "records differ");
            }
        }
    }

    /**
     * No 16-byte run of one record appears in another among 64 consecutive
     * records, for every kind: a batch never repeats bytes for a compressor
     * to find (JSON is checked on its random hex padding).
     */
    @Test
    void consecutiveRecordsShareNoBytes() throws Exception {
        for (String kind : new String[] {"random", "text", "json"}) {
            Payloads p = Payloads.create(kind, 1024, 5, 100);
            Map<String, Long> seen = new HashMap<>();
            for (long seq = 0; seq < 64; seq++) {
                byte[] v = p.next(seq);
                int from = 0;
                if (kind.equals("json")) {
                    String s = new String(v, StandardCharsets.US_ASCII);
                    from = s.indexOf("\"payload\":\"") + 11;
                }
                for (int i = from; i + 16 <= v.length - (kind.equals("json") ? 2 : 0); i++) {
                    String run = new String(v, i, 16, StandardCharsets.ISO_8859_1);
                    Long other = seen.putIfAbsent(run, seq);
                    if (other != null && other != seq) {
                        fail(kind + ": records " + other + " and " + seq + " share the bytes at offset " + i);
                    }
                }
            }
        }
    }

    @Test
    void fileLinesCycle(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("lines.txt");
        Files.writeString(f, "one\n\ntwo\r\nthree");
        Payloads p = Payloads.create("file:" + f, 0, 1, 10);
        assertArrayEquals("one".getBytes(StandardCharsets.UTF_8), p.next(0));
        assertArrayEquals("two".getBytes(StandardCharsets.UTF_8), p.next(1));
        assertArrayEquals("three".getBytes(StandardCharsets.UTF_8), p.next(2));
        assertArrayEquals("one".getBytes(StandardCharsets.UTF_8), p.next(3));
    }

    @Test
    void unknownKind() {
        assertThrows(IllegalArgumentException.class, () -> Payloads.create("xml", 10, 1, 10));
    }
}
