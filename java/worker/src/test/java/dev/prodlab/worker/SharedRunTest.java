package dev.prodlab.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Run requests with producers, and the hand-off stamp, without a broker. */
class SharedRunTest {
    private static String producer(long id, String acks) {
        return "{\"op\":\"run\",\"id\":" + id + ",\"bootstrap\":\"127.0.0.1:1\",\"topic\":\"t\",\"records\":1,"
                + "\"props\":{\"acks\":\"" + acks + "\"}}";
    }

    @Test
    void everyProducerAnswersUnderItsOwnId() {
        // acks=banana: each KafkaProducer refuses its configuration at once.
        JsonObject msg = Protocol.parse("{\"op\":\"run\",\"id\":7,\"producers\":["
                + producer(8, "banana") + "," + producer(9, "banana") + "]}");
        List<Integer> seen = new ArrayList<>();
        JsonObject res = SharedRun.run(msg, null, rs -> seen.add(rs.size()));
        assertEquals(List.of(2, 0), seen, "the runners are published while they run, then cleared");
        assertEquals("result", res.get("op").getAsString());
        assertEquals(7, res.get("id").getAsLong());
        assertTrue(res.get("ok").getAsBoolean(), "the request itself was well formed");
        JsonArray ps = res.getAsJsonArray("producers");
        assertEquals(2, ps.size());
        for (int i = 0; i < 2; i++) {
            JsonObject p = ps.get(i).getAsJsonObject();
            assertEquals(8 + i, p.get("id").getAsLong(), "producer results keep their order and ids");
            assertFalse(p.get("ok").getAsBoolean(), "a refused configuration fails that producer");
        }
    }

    @Test
    void malformedProducersAreRefused() {
        for (String bad : new String[] {"[]", "[1]", "{}", "[{\"op\":\"run\",\"id\":8}]"}) {
            JsonObject res = SharedRun.run(Protocol.parse("{\"op\":\"run\",\"id\":7,\"producers\":" + bad + "}"), null, rs -> {});
            assertFalse(res.get("ok").getAsBoolean(), bad);
            assertTrue(res.get("error").getAsString().startsWith("bad run request"), bad);
            assertFalse(res.has("producers"), bad);
        }
    }

    @Test
    void stampIsParsedAndWritten() {
        assertTrue(RunRequest.parse(Protocol.parse("{\"op\":\"run\",\"records\":1,\"stamp\":true}")).stamp);
        assertFalse(RunRequest.parse(Protocol.parse("{\"op\":\"run\",\"records\":1}")).stamp);
        StampHeader h = StampHeader.of(1_763_900_000_123_456L);
        assertEquals("prodlab-t", h.key());
        assertEquals("1763900000123456", new String(h.value(), StandardCharsets.US_ASCII));
    }
}
