package dev.prodlab.worker;

import com.google.gson.JsonObject;
import java.util.Arrays;

/**
 * Counts the measured records acknowledged by partition, so that results
 * show how keys (or the sticky partitioner) spread records: the result's
 * partition_records. Thread-safe: callbacks run on the producer's I/O thread.
 */
final class PartitionCounts {
    private long[] counts = new long[16];

    /** Counts one acknowledged record of partition p (ignored when p < 0: unknown). */
    synchronized void add(int p) {
        if (p < 0) {
            return;
        }
        if (p >= counts.length) {
            counts = Arrays.copyOf(counts, Math.max(p + 1, counts.length * 2));
        }
        counts[p]++;
    }

    /** {"partition": count, …} for the partitions that got records. */
    synchronized JsonObject toJson() {
        JsonObject o = new JsonObject();
        for (int p = 0; p < counts.length; p++) {
            if (counts[p] > 0) {
                o.addProperty(Integer.toString(p), counts[p]);
            }
        }
        return o;
    }
}
