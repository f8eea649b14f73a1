package dev.prodlab.worker;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Bounds a steady-state trial's outstanding records (handed to the producer,
 * callback not yet run) to what the recent completion rate finishes within
 * the horizon, so that the trial ends with its window instead of draining a
 * full buffer, and latency is not time spent in that buffer. The same rule
 * as the Go driver's horizon (internal/driver/horizon.go): horizon 500 ms,
 * stretched to 4 × the fastest completion; 32 records before any completed;
 * the rate over the last second.
 */
final class Horizon {
    static final long HORIZON_NANOS = 500_000_000L;
    static final int HORIZON_RTTS = 4;
    static final long FLOOR = 32;
    static final long SPAN_NANOS = 1_000_000_000L;
    static final int SAMPLES = 10;

    private long handed; // send loop only
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong minLatNanos = new AtomicLong(Long.MAX_VALUE);
    private volatile Thread waiter;

    private final long[] at = new long[SAMPLES];
    private final long[] count = new long[SAMPLES];
    private int n;
    private long start;

    /** The records handed over and not yet completed; send loop only. */
    long outstanding() {
        return handed - completed.get();
    }

    /** The fastest completion seen, in nanoseconds; 0 before any. */
    long minLatNanos() {
        long m = minLatNanos.get();
        return m == Long.MAX_VALUE ? 0 : m;
    }

    /** Counts one record handed over at nanoTime now. */
    void handOff(long now) {
        if (handed == 0) {
            start = now;
        }
        handed++;
    }

    /** Counts one completed record that took latNanos from hand-off; any thread. */
    void done(long latNanos) {
        completed.incrementAndGet();
        long m;
        while (latNanos < (m = minLatNanos.get()) && !minLatNanos.compareAndSet(m, latNanos)) {
            // retry
        }
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /** The most records that may be outstanding at nanoTime now. */
    long limit(long now) {
        long c = completed.get();
        long step = SPAN_NANOS / SAMPLES;
        if (n == 0 || now - at[(n - 1) % SAMPLES] >= step) {
            at[n % SAMPLES] = now;
            count[n % SAMPLES] = c;
            n++;
        }
        long since = start;
        long base = 0;
        if (n > SAMPLES) {
            since = at[n % SAMPLES];
            base = count[n % SAMPLES];
        }
        long span = now - since;
        if (handed == 0 || span <= 0) {
            return FLOOR;
        }
        double rate = (c - base) * 1e9 / span;
        long min = minLatNanos.get();
        long horizon = min == Long.MAX_VALUE ? HORIZON_NANOS : Math.max(HORIZON_NANOS, HORIZON_RTTS * min);
        return Math.max(FLOOR, (long) (rate * horizon / 1e9));
    }

    /**
     * Waits until a record may be handed over; false when the deadline
     * (nanoTime, 0 for none) passes first or stop says so.
     */
    boolean room(long deadline, java.util.function.BooleanSupplier stop) {
        waiter = Thread.currentThread();
        try {
            while (true) {
                long now = System.nanoTime();
                if (handed - completed.get() < limit(now)) {
                    return true;
                }
                if (stop.getAsBoolean() || (deadline != 0 && now - deadline >= 0)) {
                    return false;
                }
                long wait = 50_000_000L;
                if (deadline != 0) {
                    wait = Math.min(wait, deadline - now);
                }
                LockSupport.parkNanos(wait);
            }
        } finally {
            waiter = null;
        }
    }
}
