package dev.prodlab.worker;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * A trial's timeline (docs/worker-protocol.md, "Timeline"): per-interval accounting, cut
 * into points at offsets of the trial's clock.
 *
 * <p>{@link #onAck} and {@link #onFailure} must be called under the lock
 * given to the constructor, the one the producer callback already takes for
 * the trial histogram, so the hot path takes no extra lock and allocates
 * nothing. {@link #noteInFlight} comes from the sampler thread. {@link #cut}
 * swaps the interval histogram for a spare under that lock and encodes the
 * full one outside it; it is called by the cutter thread at each boundary
 * and once more, for the last partial interval, by the trial thread.
 */
final class Timeline {
    private final Object lock;
    private final long intervalNs;

    // The open interval; guarded by lock.
    private Histogram active = Histograms.create();
    private long acked;
    private long ackedBytes;
    private long failed;

    // Maximum requests-in-flight sampled in the open interval; -1 when none.
    private final AtomicLong inFlightMax = new AtomicLong(-1);

    // Cut state; guarded by this.
    private Histogram spare = Histograms.create();
    private long startNs; // start of the open interval, on the trial's clock
    private long prevSent;
    private double prevRetries;
    private final JsonArray points = new JsonArray();

    Timeline(Object lock, long intervalNs) {
        if (intervalNs <= 0) {
            throw new IllegalArgumentException("timeline interval must be > 0");
        }
        this.lock = lock;
        this.intervalNs = intervalNs;
    }

    /** Counts an acknowledged record (latency in µs, value bytes); call under the lock. */
    void onAck(long us, long bytes) {
        acked++;
        ackedBytes += bytes;
        active.recordValue(us);
    }

    /** Counts a failed record; call under the lock. */
    void onFailure() {
        failed++;
    }

    /** Notes one sample of the requests-in-flight gauge. */
    void noteInFlight(long v) {
        inFlightMax.accumulateAndGet(v, Math::max);
    }

    /** Where, on the trial's clock, the open interval ends when it is cut on schedule. */
    synchronized long nextBoundaryNs() {
        return startNs + intervalNs;
    }

    /**
     * Closes the open interval at endNs (trial clock) and appends its point;
     * returns it, or null when endNs does not lie after the interval's start.
     *
     * @param sentTotal records handed to send() so far, warm-up included
     * @param retriesTotal the producer's record-retry-total now; NaN when the client has none
     * @param inFlightNow the requests-in-flight gauge now; -1 when unknown
     * @param measuredFromNs when the measured window began (trial clock); -1 when it has not
     */
    synchronized JsonObject cut(long endNs, long sentTotal, double retriesTotal, long inFlightNow,
            long measuredFromNs) {
        if (endNs <= startNs) {
            return null;
        }
        Histogram h;
        long a;
        long b;
        long f;
        synchronized (lock) {
            h = active;
            active = spare;
            spare = h;
            a = acked;
            b = ackedBytes;
            f = failed;
            acked = 0;
            ackedBytes = 0;
            failed = 0;
        }
        long inFlight = Math.max(inFlightMax.getAndSet(-1), inFlightNow);
        long retries = -1;
        if (!Double.isNaN(retriesTotal)) {
            retries = Math.max(0, Math.round(retriesTotal - prevRetries));
            prevRetries = retriesTotal;
        }
        JsonObject p = new JsonObject();
        p.addProperty("t_ns", startNs);
        p.addProperty("dur_ns", endNs - startNs);
        p.addProperty("warmup", measuredFromNs < 0 || measuredFromNs > startNs);
        p.addProperty("sent", sentTotal - prevSent);
        p.addProperty("acked", a);
        p.addProperty("acked_bytes", b);
        p.addProperty("failed", f);
        p.addProperty("retries", retries);
        p.addProperty("in_flight", inFlight < 0 ? -1 : inFlight);
        p.addProperty("histogram", Histograms.encode(h));
        h.reset(); // the spare for the next cut
        points.add(p);
        startNs = endNs;
        prevSent = sentTotal;
        return p;
    }

    /** The points cut so far, in time order (the live array: read it after the last cut). */
    synchronized JsonArray points() {
        return points;
    }
}
