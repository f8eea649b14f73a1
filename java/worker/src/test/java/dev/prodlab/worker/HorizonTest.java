package dev.prodlab.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The same cases as the Go driver's TestHorizonLimit and TestHorizonRoom. */
class HorizonTest {
    private static final long MS = 1_000_000L;

    private static Horizon after(long completed, long minLatNanos) {
        Horizon h = new Horizon();
        h.handOff(1_000 * MS);
        for (long i = 0; i < completed; i++) {
            h.done(minLatNanos);
        }
        return h;
    }

    @Test
    void limitFollowsTheCompletionRate() {
        long t = 1_000 * MS + 100 * MS; // 0.1 s after the first hand-off
        assertEquals(Horizon.FLOOR, after(0, 0).limit(1_000 * MS + 50 * MS), "nothing completed yet");
        assertEquals(5000, after(1000, MS).limit(t), "10k/s over 0.1 s → 0.5 s of it");
        assertEquals(375, after(75, 20 * MS).limit(t), "750/s → 375");
        assertEquals(Horizon.FLOOR, after(5, 20 * MS).limit(t), "a trickle keeps the floor");
        assertEquals(6000, after(1000, 150 * MS).limit(t), "150 ms round trips stretch the horizon to 600 ms");
    }

    @Test
    void roomWaitsForACompletionOrGivesUp() throws Exception {
        Horizon full = new Horizon();
        long now = System.nanoTime();
        for (int i = 0; i < Horizon.FLOOR; i++) {
            full.handOff(now);
        }
        assertFalse(full.room(System.nanoTime() + 30 * MS, () -> false), "a full queue found room without a completion");
        assertFalse(full.room(0, () -> true), "a stopped trial found room");
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
            full.done(MS);
        });
        t.start();
        assertTrue(full.room(System.nanoTime() + 10_000 * MS, () -> false), "a completion did not make room");
        t.join();
    }
}
