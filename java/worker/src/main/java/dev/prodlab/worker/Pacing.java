package dev.prodlab.worker;

/**
 * The arithmetic of a rate-limited producer's schedule: how far behind it
 * runs, and whether a warm-up waits on for it to catch up.
 */
final class Pacing {
    private Pacing() {}

    /**
     * How far behind its schedule a rate-limited producer runs at nanoTime
     * now: how late the next record (due at nanoTime due) runs, plus the
     * wait of the newest outstanding record at nanosPerRecord each (Little's
     * law) less the fastest completion seen (minLatNanos: the pipeline's own
     * latency, which a producer on schedule has too).
     */
    static long lagNanos(double nanosPerRecord, long due, long now, long outstanding, long minLatNanos) {
        return Math.max(0, now - due) + Math.max(0, (long) (outstanding * nanosPerRecord) - minLatNanos);
    }

    /**
     * Whether a warm-up that reached its time (until) runs on at nanoTime
     * now: a catch-up is asked (catchUpMs), catchUpMaxMs past until has not
     * run out, and the producer is still further behind its schedule (lag)
     * than catchUpMs, but no further than it was when the warm-up's time
     * ended (lag0) by more than catchUpMs: one that falls further behind
     * cannot keep up, and waiting only deepens the overload.
     */
    static boolean behindSchedule(long catchUpMs, long catchUpMaxMs, long now, long until, long lag, long lag0) {
        if (catchUpMs <= 0 || now - until - catchUpMaxMs * 1_000_000L >= 0) {
            return false;
        }
        long bound = catchUpMs * 1_000_000L;
        return lag > bound && lag <= lag0 + bound;
    }
}
