package dev.prodlab.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A rate-limited warm-up runs on past its time while the producer is
 * further behind its schedule than catch_up_ms (late sends plus the
 * outstanding records at the rate) and catching up, for at most
 * catch_up_max_ms more.
 */
class CatchUpTest {
    private static final long MS = 1_000_000L;
    private static final double PER_RECORD = 1e9 / 1000; // 1,000 records/s: 1 ms each

    @Test
    void lagIsLateSendsPlusOutstandingBeyondThePipe() {
        long now = 5_000 * MS;
        assertEquals(50 * MS, Pacing.lagNanos(PER_RECORD, now, now, 50, 0));
        assertEquals(25 * MS, Pacing.lagNanos(PER_RECORD, now - 20 * MS, now, 5, 0));
        assertEquals(5 * MS, Pacing.lagNanos(PER_RECORD, now + 20 * MS, now, 5, 0), "an early send counts nothing");
        assertEquals(5 * MS, Pacing.lagNanos(PER_RECORD, now, now, 55, 50 * MS), "on schedule behind a 50 ms pipe");
        assertEquals(0, Pacing.lagNanos(PER_RECORD, now, now, 40, 50 * MS), "fewer held than the pipe carries");
    }

    @Test
    void runsOnWhileBehindAndCatchingUp() {
        long until = 1_000 * MS;
        long now = until + 10 * MS;
        assertTrue(Pacing.behindSchedule(10, 3000, now, until, 50 * MS, 50 * MS), "50 ms behind, as when it began to wait");
        assertTrue(Pacing.behindSchedule(10, 3000, now, until, 50 * MS, 200 * MS), "50 ms behind, catching up");
        assertFalse(Pacing.behindSchedule(10, 3000, now, until, 5 * MS, 200 * MS), "caught up");
        assertFalse(Pacing.behindSchedule(10, 3000, now, until, 50 * MS, 30 * MS), "falling further behind: give up");
    }

    @Test
    void boundedAndOptIn() {
        long until = 1_000 * MS;
        assertFalse(Pacing.behindSchedule(10, 3000, until + 3000 * MS, until, 500 * MS, 500 * MS), "catch_up_max_ms ran out");
        assertTrue(Pacing.behindSchedule(10, 3000, until + 2999 * MS, until, 500 * MS, 500 * MS));
        assertFalse(Pacing.behindSchedule(0, 3000, until, until, 500 * MS, 500 * MS), "no catch-up asked");
    }
}
