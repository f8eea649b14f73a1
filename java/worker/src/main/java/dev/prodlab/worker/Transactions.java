package dev.prodlab.worker;

import com.google.gson.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.Map;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;

/**
 * A transactional producer's schedule and figures, as the Go driver's
 * txnSchedule keeps them: a transaction ends after transaction.duration.ms
 * or transaction.records records, whichever comes first, and ends in an
 * abort with probability transaction.abort.ratio (seeded, so a trial
 * repeats). Each transaction holds the contiguous sequence numbers sent
 * while it was open; their fate (committed or aborted) is reported as
 * committed_ranges and aborted_ranges, which the audit reconciles with a
 * read_committed consumer.
 */
final class Transactions {
    static final String DURATION = "transaction.duration.ms";
    static final String RECORDS = "transaction.records";
    static final String ABORT_RATIO = "transaction.abort.ratio";
    /** The prodlab-only keys, removed before the producer sees the properties. */
    static final String[] KEYS = {DURATION, RECORDS, ABORT_RATIO};

    final long everyNanos; // 0: no time bound
    final long records; // 0: no count bound
    final double abortRatio;
    private final SplittableRandom rng;
    /** Whether record fates are kept (an audited trial: a tag). */
    private final boolean tracking;

    private long start; // nanoTime the open transaction began; 0 before the first
    private long firstSeq;
    private final BitSet committedSeqs = new BitSet();
    private final BitSet abortedSeqs = new BitSet();
    long committed;
    long aborted;
    long commitFailed;
    private long recordsEnded;
    private final Histogram commitLatUs = new Histogram(1, Histograms.HIST_MAX_US, 3);

    Transactions(long everyMs, long records, double abortRatio, long seed, String tag) {
        this.everyNanos = everyMs * 1_000_000L;
        this.records = records;
        this.abortRatio = abortRatio;
        long h = 0xcbf29ce484222325L; // FNV-1a of the tag: producers of a trial differ
        for (byte b : tag.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        this.rng = new SplittableRandom(seed ^ h);
        this.tracking = !tag.isEmpty();
    }

    /**
     * Reads the schedule from the properties (prodlab's keys): the written
     * bounds, 0 for a bound not written. The Go driver writes the default
     * (kafka-producer-perf-test's 3 s, kafkaconf.DefaultTransactionDurationMs,
     * its one owner) into every transactional request that names neither.
     */
    static Transactions of(Map<String, String> props, long seed, String tag) throws TrialRunner.Rejected {
        String d = props.get(DURATION);
        String r = props.get(RECORDS);
        long every = positive(DURATION, d);
        long recs = positive(RECORDS, r);
        double ratio = 0;
        String a = props.get(ABORT_RATIO);
        if (a != null) {
            try {
                ratio = Double.parseDouble(a.trim());
            } catch (NumberFormatException e) {
                ratio = Double.NaN;
            }
            if (!(ratio >= 0 && ratio <= 1)) {
                throw new TrialRunner.Rejected("Invalid value " + a + " for configuration " + ABORT_RATIO,
                        ABORT_RATIO + " is the share of transactions aborted on purpose, between 0 and 1");
            }
        }
        return new Transactions(every, recs, ratio, seed, tag);
    }

    /** A positive long setting, 0 when absent. */
    private static long positive(String key, String v) throws TrialRunner.Rejected {
        if (v == null) {
            return 0;
        }
        long n;
        try {
            n = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n <= 0) {
            throw new TrialRunner.Rejected("Invalid value " + v + " for configuration " + key,
                    key + " must be a positive integer");
        }
        return n;
    }

    /** Whether the open transaction ends before record seq is sent at nanoTime now. */
    boolean due(long now, long seq) {
        if (start == 0) {
            start = now;
            firstSeq = seq;
            return false;
        }
        if (seq == firstSeq) {
            return false;
        }
        return (everyNanos > 0 && now - start >= everyNanos) || (records > 0 && seq - firstSeq >= records);
    }

    /** Whether the transaction about to end is aborted on purpose. */
    boolean abortNext() {
        return abortRatio > 0 && rng.nextDouble() < abortRatio;
    }

    /** Records a commit of the records up to nextSeq that took commitNanos. */
    void committed(long nextSeq, long commitNanos) {
        commitLatUs.recordValue(Math.max(1, Math.min(commitNanos / 1000, Histograms.HIST_MAX_US)));
        committed++;
        mark(committedSeqs, nextSeq);
    }

    /** Records an abort of the records up to nextSeq; failedCommit when a commit failed first. */
    void aborted(long nextSeq, boolean failedCommit) {
        aborted++;
        if (failedCommit) {
            commitFailed++;
        }
        mark(abortedSeqs, nextSeq);
    }

    private void mark(BitSet bits, long nextSeq) {
        if (tracking && nextSeq <= Integer.MAX_VALUE && firstSeq < nextSeq) {
            bits.set((int) firstSeq, (int) nextSeq);
        }
        recordsEnded += nextSeq - firstSeq;
        firstSeq = nextSeq;
        start = System.nanoTime();
    }

    /** Adds the figures to the result's metrics and the record fates to the result. */
    void report(JsonObject result, JsonObject metrics, boolean tracking) {
        metrics.addProperty("transactions-commit-failed", commitFailed);
        if (committed + aborted > 0) {
            metrics.addProperty("records-per-transaction-avg", (double) recordsEnded / (committed + aborted));
        }
        if (committed > 0) {
            metrics.addProperty("transaction-commit-p50-ms", commitLatUs.getValueAtPercentile(50) / 1e3);
            metrics.addProperty("transaction-commit-p99-ms", commitLatUs.getValueAtPercentile(99) / 1e3);
        }
        if (tracking) {
            result.add("committed_ranges", SeqRanges.of(committedSeqs));
            result.add("aborted_ranges", SeqRanges.of(abortedSeqs));
        }
    }
}
