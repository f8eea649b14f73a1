package dev.prodlab.worker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** KeySampler draws the same keys as Go's internal/keys for the same seed. */
class KeySamplerTest {
    private static long[] first8(KeySampler k) {
        long[] out = new long[8];
        for (int i = 0; i < 8; i++) {
            out[i] = k.index(i);
        }
        return out;
    }

    @Test
    void uniformMatchesGo() {
        // The same figures as keys_test.go's TestDeterministic.
        assertArrayEquals(new long[] {598, 988, 414, 588, 209, 687, 564, 178},
                first8(KeySampler.create("uniform", 1000, 8, 0, 42)));
    }

    @Test
    void zipfMatchesGo() {
        assertArrayEquals(new long[] {12, 819, 3, 11, 0, 25, 9, 0},
                first8(KeySampler.create("zipf", 1000, 8, 1.2, 42)));
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
