package dev.prodlab.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A rate-limited warm-up runs on past its time while the producer is
 * further behind its schedule than catch_up_ms (late sends plus the
 * outstanding records at the rate), for at most catch_up_max_ms more.
 */
class CatchUpTest {
    private static final long MS = 1_000_000L;
    private static final double PER_RECORD = 1e9 / 1000; // 1,000 records/s: 1 ms each

    @Test
    void runsOnWhileBehind() {
        long until = 1_000 * MS;
        long now = until + 10 * MS;
        // 50 records outstanding at 1 ms each: 50 ms behind, beyond 10 ms.
        assertEquals(true, TrialRunner.behindSchedule(10, 3000, PER_RECORD, now, now, until, 50));
        // 5 outstanding, sends on time: 5 ms, caught up.
        assertEquals(false, TrialRunner.behindSchedule(10, 3000, PER_RECORD, now, now, until, 5));
        // 5 outstanding, the next send 20 ms late: 25 ms behind.
        assertEquals(true, TrialRunner.behindSchedule(10, 3000, PER_RECORD, now - 20 * MS, now, until, 5));
        // Sends early (due in the future) count nothing.
        assertEquals(false, TrialRunner.behindSchedule(10, 3000, PER_RECORD, now + 20 * MS, now, until, 5));
    }

    @Test
    void boundedAndOptIn() {
        long until = 1_000 * MS;
        // catch_up_max_ms past the warm-up's time: the window begins anyway.
        assertEquals(false, TrialRunner.behindSchedule(10, 3000, PER_RECORD, until, until + 3000 * MS, until, 500));
        assertEquals(true, TrialRunner.behindSchedule(10, 3000, PER_RECORD, until, until + 2999 * MS, until, 500));
        // No catch-up asked, or unthrottled: never.
        assertEquals(false, TrialRunner.behindSchedule(0, 3000, PER_RECORD, until, until, until, 500));
        assertEquals(false, TrialRunner.behindSchedule(10, 3000, 0, until, until, until, 500));
    }
}
