package dev.prodlab.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** KeySampler draws the same keys as Go's internal/keys for the same seed. */
class KeySamplerTest {
    /**
     * The vectors of testdata/shared/keys.json, which the Go package keys'
     * TestSharedVectors reads too: one file, so Go and Java cannot drift.
     */
    @Test
    void sharedVectors() throws Exception {
        java.nio.file.Path file = java.nio.file.Paths.get("..", "..", "testdata", "shared", "keys.json");
        com.google.gson.JsonObject root = com.google.gson.JsonParser.parseString(
                java.nio.file.Files.readString(file)).getAsJsonObject();
        com.google.gson.JsonArray cases = root.getAsJsonArray("cases");
        org.junit.jupiter.api.Assertions.assertTrue(cases.size() > 0, "no cases in " + file);
        for (com.google.gson.JsonElement e : cases) {
            com.google.gson.JsonObject c = e.getAsJsonObject();
            KeySampler k = KeySampler.create(c.get("distribution").getAsString(), c.get("count").getAsLong(),
                    c.get("size").getAsInt(), c.get("exponent").getAsDouble(), c.get("seed").getAsLong());
            com.google.gson.JsonArray first = c.getAsJsonArray("first");
            for (int seq = 0; seq < first.size(); seq++) {
                assertEquals(first.get(seq).getAsLong(), k.index(seq),
                        c.get("distribution").getAsString() + " seq " + seq);
            }
        }
    }

    @Test
    void sequentialPadded() {
        KeySampler k = KeySampler.create("sequential", 3, 4, 0, 1);
        assertEquals("0000", new String(k.key(0), StandardCharsets.US_ASCII));
        assertEquals("0002", new String(k.key(2), StandardCharsets.US_ASCII));
        assertEquals("0000", new String(k.key(3), StandardCharsets.US_ASCII));
    }

    @Test
    void keylessAndRefusals() {
        assertNull(KeySampler.create("none", 0, 0, 0, 1));
        assertNull(KeySampler.create("", 0, 0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> KeySampler.create("uniform", 0, 8, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> KeySampler.create("uniform", 1001, 3, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> KeySampler.create("zipf", 10, 8, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> KeySampler.create("gauss", 10, 8, 0, 1));
    }

    @Test
    void partitionCounts() {
        PartitionCounts c = new PartitionCounts();
        c.add(0);
        c.add(40);
        c.add(40);
        c.add(-1);
        assertEquals("{\"0\":1,\"40\":2}", c.toJson().toString());
    }
}
