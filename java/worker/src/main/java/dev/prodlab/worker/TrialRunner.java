package dev.prodlab.worker;

import com.google.gson.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.header.Header;

/**
 * Runs one trial: creates a producer from the request's properties, sends the
 * records asynchronously, flushes, and reports what it measured. One
 * TrialRunner serves one run request; the worker creates a new one per trial.
 */
final class TrialRunner {


    private final RunRequest req;
    private final Protocol progressOut; // may be null (tests)
    private volatile boolean cancelled;
    private volatile boolean aborted;
    private volatile String abortReason;
    /** Set when the trial ended because another producer fenced this one. */
    private volatile boolean fenced;

    // Counts of the measured window and of the warm-up; read by the sampler
    // and cutter threads. A record is warm-up when its sequence number is
    // below measuredFromSeq (docs/worker-protocol.md, "Warm-up and duration").
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong warmupSent = new AtomicLong();
    private final AtomicLong warmupAcked = new AtomicLong();
    private final AtomicLong warmupFailed = new AtomicLong();
    private volatile long measuredFromSeq; // first measured seq; MAX until a warm-up ends
    /** Measured records acknowledged, by partition. */
    private final PartitionCounts partitionCounts = new PartitionCounts();

    // Callback state guarded by lock: the histograms, errors, audit bits, the
    // progress window and the timeline's open interval, all updated under the
    // one lock the callback takes.
    private final Object lock = new Object();
    private final Histogram hist = Histograms.create();
    private final Histogram histIntended = Histograms.create();
    /** The warm-up records' latencies, for perf-test's whole-run line. */
    private final Histogram histWarmup = Histograms.create();
    private final Map<String, Long> errors = new HashMap<>();
    /** Failed warm-up records by message, apart from the measured ones'. */
    private final Map<String, Long> warmupErrors = new HashMap<>();
    // Progress window; taken and reset by the sampler.
    private long windowCount;
    private long windowSumUs;
    private long windowMaxUs;
    private final BitSet ackedSeqs;
    private final BitSet failedSeqs;
    private final boolean tracking;
    private final Timeline timeline; // null unless timeline_interval_ms > 0

    // The trial's clock: System.nanoTime() of the first send (warm-up
    // included), 0 before; measuredStart is the first measured send's.
    private volatile long clockStart;
    private volatile long measuredStart;
    private volatile boolean measuring;
    // Producer gauges read by the sampler and the cutter; null when the
    // client has no such metric.
    private volatile Metric inFlightMetric;
    private volatile Metric retryMetric;

    TrialRunner(RunRequest req, Protocol progressOut) {
        this.req = req;
        this.progressOut = progressOut;
        this.tracking = !req.tag.isEmpty();
        this.ackedSeqs = tracking ? new BitSet() : null;
        this.failedSeqs = tracking ? new BitSet() : null;
        this.measuredFromSeq = req.hasWarmup() ? Long.MAX_VALUE : 0;
        this.timeline = req.timelineIntervalMs > 0 ? new Timeline(lock, req.timelineIntervalMs * 1_000_000L) : null;
    }

    /** The kafka-clients version on the class path (ClientInfo). */
    static String clientVersion() {
        return ClientInfo.version();
    }

    /** Asks a running trial to stop as soon as possible (it then reports ok=false). */
    void cancel() {
        cancelled = true;
    }

    /** Runs the trial; never throws. */
    JsonObject run() {
        try {
            return runChecked();
        } catch (Rejected r) {
            return Protocol.failure(req.id, r.getMessage(), r.hint);
        } catch (Throwable t) {
            ConfigException ce = Failures.configCause(t);
            if (ce != null) {
                return Protocol.failure(req.id, ce.getMessage(), Hints.forConfigError(ce.getMessage()));
            }
            return Protocol.failure(req.id, Failures.message(t), "the Java producer failed; see the worker log");
        }
    }

    /** A request the worker refuses before any producer exists: the message and a hint. */
    static final class Rejected extends Exception {
        private static final long serialVersionUID = 1L;
        final String hint;

        Rejected(String message, String hint) {
            super(message, null, false, false);
            this.hint = hint;
        }
    }

    /** What a valid request sets up before the producer starts. */
    record Setup(Properties props, Map<String, String> effective, Payloads payloads, KeySampler keys,
            Transactions txn) {}

    private JsonObject runChecked() throws Exception {
        Setup setup = setup();
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(setup.props());
        Sampler sampler = null;
        Cutter cutter = null;
        try {
            String clientId = ClientMetrics.clientIdOf(producer);
            if (clientId != null) {
                setup.effective().put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
            }
            inFlightMetric = ClientMetrics.producerMetric(producer, "requests-in-flight");
            retryMetric = ClientMetrics.producerMetric(producer, "record-retry-total");
            sampler = new Sampler(producer, System.nanoTime() + req.timeoutMs * 1_000_000L);
            sampler.start();
            SendLoop loop = new SendLoop(producer, setup);
            loop.beginTransaction();
            startClock();
            if (timeline != null) {
                cutter = new Cutter();
                cutter.start();
            }
            loop.run();
            long end = System.nanoTime();
            sampler.halt();
            if (cutter != null) {
                cutter.halt();
                cutLast(end);
            }
            JsonObject o = measurements(end);
            ClientMetrics.add(o, producer, req.topic, setup.effective(), setup.txn(), sampler.maxInFlight, tracking);
            return o;
        } finally {
            if (sampler != null) {
                sampler.halt();
            }
            if (cutter != null) {
                cutter.halt();
            }
            producer.close(aborted ? Duration.ZERO : Duration.ofSeconds(30));
        }
    }

    /**
     * Validates the request and prepares the producer properties and
     * payloads; throws Rejected for what the client would never accept.
     */
    Setup setup() throws Rejected {
        Transactions txn = Transactions.of(req.props, req.seed, req.tag);
        Set<String> known = ProducerConfig.configNames();
        for (String k : req.props.keySet()) {
            if (!known.contains(k) && !List.of(Transactions.KEYS).contains(k)) {
                String msg = "unknown producer property " + k + " for kafka-clients " + clientVersion();
                throw new Rejected(msg, Hints.forConfigError(msg));
            }
        }
        if (req.topic.isEmpty()) {
            throw new Rejected("no topic given", "the run request needs a topic");
        }
        if (tracking && req.records + req.warmupRecords > Integer.MAX_VALUE) {
            throw new Rejected("audit headers support at most " + Integer.MAX_VALUE + " records",
                    "lower records (and warm-up records) or turn the audit off");
        }
        Payloads payloads;
        try {
            payloads = Payloads.create(req.payload, req.recordSize, req.seed, req.warmupRecords + req.records);
        } catch (IllegalArgumentException | java.io.IOException e) {
            throw new Rejected(e.getMessage(), "check workload payload and record.size");
        }
        KeySampler keys;
        try {
            keys = KeySampler.create(req.keyDistribution, req.keyCount, req.keySize, req.keyExponent, req.seed);
        } catch (IllegalArgumentException e) {
            throw new Rejected(e.getMessage(), "check workload.keys");
        }
        Properties props = ProducerProps.of(req);
        Map<String, String> effective;
        try {
            effective = ProducerProps.effective(new ProducerConfig(props));
        } catch (ConfigException e) {
            throw new Rejected(e.getMessage(), Hints.forConfigError(e.getMessage()));
        }
        boolean transactional = props.getProperty(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "").length() > 0;
        if (transactional && txn.everyNanos == 0 && txn.records == 0) {
            throw new Rejected("a transactional producer's run request names no transaction schedule",
                    "the driver sends " + Transactions.DURATION + " or " + Transactions.RECORDS
                            + " with every transactional request (docs/worker-protocol.md)");
        }
        if (transactional) {
            effective.put(Transactions.DURATION, Long.toString(txn.everyNanos / 1_000_000L));
            effective.put(Transactions.RECORDS, Long.toString(txn.records));
            effective.put(Transactions.ABORT_RATIO, Double.toString(txn.abortRatio));
        }
        return new Setup(props, effective, payloads, keys, transactional ? txn : null);
    }

    /** Starts the trial's clock: now is the first send, warm-up included. */
    void startClock() {
        clockStart = System.nanoTime();
        if (!req.hasWarmup()) {
            startMeasured(0, clockStart);
        }
    }

    /**
     * Opens the measured window at sequence number seq, at nanoTime now:
     * records from seq on are measured, those before it warm-up.
     */
    void startMeasured(long seq, long now) {
        measuredFromSeq = seq;
        measuredStart = now;
        measuring = true;
    }

    /** The measured window's start on the trial's clock, or -1 before it began. */
    long measuredFromNs() {
        return measuring ? measuredStart - clockStart : -1;
    }

    /**
     * The send loop: the warm-up, then the measured window, in one stream
     * through one producer (no flush in between), then the final flush or
     * commit. Bounded by the record counts, the durations and the trial's
     * timeout (which sets aborted).
     */
    private final class SendLoop {
        private final KafkaProducer<byte[], byte[]> producer;
        private final Payloads payloads;
        private final KeySampler keys; // null when keyless
        private final Transactions txn; // null unless transactional
        private final byte[] topicTag = (req.tag + "/").getBytes(StandardCharsets.US_ASCII);
        private final double nanosPerRecord = req.rate > 0 ? 1e9 / req.rate : 0;
        /** The lag when the warm-up's time ended and it began to wait for a catch-up; -1 before. */
        private long lag0 = -1;
        private final long maxSeq = tracking ? Integer.MAX_VALUE : Long.MAX_VALUE;
        /** Wall-clock µs since the epoch at nanoTime 0: stamps cost one clock read. */
        private final long epochBaseUs = epochMicros(0);
        /** Bounds the queue of a steady-state trial; null for a burst. */
        private final Horizon horizon = req.durationMs > 0 ? new Horizon() : null;

        SendLoop(KafkaProducer<byte[], byte[]> producer, Setup setup) {
            this.producer = producer;
            this.payloads = setup.payloads();
            this.keys = setup.keys();
            this.txn = setup.txn();
        }

        void beginTransaction() {
            if (txn != null) {
                producer.initTransactions();
                producer.beginTransaction();
            }
        }

        void run() {
            long seq = 0;
            if (req.hasWarmup()) {
                long end = req.warmupRecords > 0 ? req.warmupRecords : maxSeq;
                seq = send(0, Math.min(end, maxSeq), req.warmupMs, clockStart, true);
                if (aborted) {
                    return;
                }
                startMeasured(seq, System.nanoTime());
            }
            seq = send(seq, Math.min(seq + req.records, maxSeq), req.durationMs, measuredStart, false);
            if (aborted) {
                return;
            }
            if (txn != null) {
                endTransaction(seq);
            } else {
                producer.flush();
            }
        }

        /**
         * Sends records from seq up to endSeq, or until limitMs (when > 0)
         * has passed since phaseStart; returns the next sequence number.
         */
        private long send(long seq, long endSeq, long limitMs, long phaseStart, boolean warmup) {
            long until = phaseStart + limitMs * 1_000_000L;
            long last = phaseStart; // the previous send's time: no extra clock read per record
            for (; seq < endSeq && !aborted; seq++) {
                if (limitMs > 0 && last - until >= 0 && !(warmup && behind(seq, last, until))) {
                    break;
                }
                long intended = 0;
                if (nanosPerRecord > 0) {
                    intended = clockStart + (long) (seq * nanosPerRecord);
                    if (!waitUntil(intended)) {
                        break;
                    }
                    long now = System.nanoTime();
                    if (limitMs > 0 && now - until >= 0 && !(warmup && behind(seq, now, until))) {
                        break;
                    }
                }
                if (horizon != null && !horizon.room(warmup ? 0 : until, () -> aborted)) {
                    break; // the window ended while the producer's queue was full
                }
                if (txn != null && txn.due(System.nanoTime(), seq)) {
                    endTransaction(seq);
                    if (aborted || !begin()) {
                        break;
                    }
                }
                List<Header> headers = headers(seq, warmup);
                ProducerRecord<byte[], byte[]> rec =
                        new ProducerRecord<>(req.topic, null, null, keys == null ? null : keys.key(seq),
                                payloads.next(seq), headers);
                last = System.nanoTime();
                try {
                    producer.send(rec, new Cb(seq, last, intended, horizon));
                    if (horizon != null) {
                        horizon.handOff(last);
                    }
                    (warmup ? warmupSent : sent).incrementAndGet();
                } catch (RuntimeException e) {
                    onFailure(seq, e);
                }
            }
            return seq;
        }

        /**
         * Whether a warm-up that reached its time (until) runs on at nanoTime
         * now, record seq next (behindSchedule, with the lag of lagNanos).
         */
        private boolean behind(long seq, long now, long until) {
            if (horizon == null || nanosPerRecord <= 0 || req.catchUpMs <= 0) {
                return false;
            }
            long lag = Pacing.lagNanos(nanosPerRecord, clockStart + (long) (seq * nanosPerRecord), now,
                    horizon.outstanding(), horizon.minLatNanos());
            if (lag0 < 0) {
                lag0 = lag;
            }
            return Pacing.behindSchedule(req.catchUpMs, req.catchUpMaxMs, now, until, lag, lag0);
        }

        /**
         * The headers of record seq: the audit header when tracking, the
         * hand-off time when stamping a measured record (taken now, just
         * before the send's own clock reading, so end-to-end latency never
         * starts after send→ack does; warm-up records get none, to stay out
         * of the end-to-end figures); null when neither.
         */
        private List<Header> headers(long seq, boolean warmup) {
            Header audit = tracking ? new AuditHeader(AuditHeader.valueOf(topicTag, seq)) : null;
            if (!req.stamp || warmup) {
                return audit == null ? null : List.of(audit);
            }
            Header stamp = StampHeader.of(epochBaseUs + System.nanoTime() / 1000);
            return audit == null ? List.of(stamp) : List.of(audit, stamp);
        }

        /** Parks until nanoTime reaches t; false when the trial was aborted meanwhile. */
        private boolean waitUntil(long t) {
            long wait;
            while ((wait = t - System.nanoTime()) > 0 && !aborted) {
                LockSupport.parkNanos(Math.min(wait, 100_000_000L));
            }
            return !aborted;
        }

        /**
         * Ends the open transaction, whose records run up to nextSeq: flushes
         * (so the commit's own latency is measured apart), then commits it,
         * or aborts it when the abort ratio picks it or the commit fails.
         * An abort that throws (a fenced producer) ends the trial, leaving
         * the records' fate undecided.
         */
        private void endTransaction(long nextSeq) {
            try {
                producer.flush();
            } catch (RuntimeException e) {
                end("flush before ending the transaction", e, null);
                return;
            }
            if (!txn.abortNext()) {
                long t0 = System.nanoTime();
                try {
                    producer.commitTransaction();
                    txn.committed(nextSeq, System.nanoTime() - t0);
                    return;
                } catch (RuntimeException e) {
                    countError(Failures.message(e));
                    abort(nextSeq, true, e);
                    return;
                }
            }
            abort(nextSeq, false, null);
        }

        /**
         * Aborts the open transaction; an abort that throws (a fenced
         * producer, whose commit failed for the same reason) ends the
         * trial with what was decided so far.
         */
        private void abort(long nextSeq, boolean failedCommit, RuntimeException commitErr) {
            try {
                producer.abortTransaction();
                txn.aborted(nextSeq, failedCommit);
            } catch (RuntimeException e) {
                end("abort transaction", e, commitErr);
            }
        }

        /** Begins the next transaction; false (the trial ended) when the producer refuses. */
        private boolean begin() {
            try {
                producer.beginTransaction();
                return true;
            } catch (RuntimeException e) {
                end("begin transaction", e, null);
                return false;
            }
        }

        /**
         * Ends the trial on a transactional call that threw, with what was
         * decided so far; fenced when the producer's id was taken over.
         */
        private void end(String what, RuntimeException e, RuntimeException earlier) {
            fenced = Failures.isFenced(e) || Failures.isFenced(earlier);
            abortReason = what + ": " + Failures.message(e);
            aborted = true;
        }
    }

    private void countError(String msg) {
        synchronized (lock) {
            errors.merge(msg, 1L, Long::sum);
        }
    }

    /** Counts one failed record (a failed callback or a send() that threw). */
    void onFailure(long seq, Exception e) {
        boolean warm = seq < measuredFromSeq;
        (warm ? warmupFailed : failed).incrementAndGet();
        synchronized (lock) {
            (warm ? warmupErrors : errors).merge(Failures.message(e), 1L, Long::sum);
            if (timeline != null) {
                timeline.onFailure();
            }
            if (tracking) {
                failedSeqs.set((int) seq);
            }
        }
    }

    /** Per-record completion: latency from hand-off to callback, in µs. */
    private final class Cb implements Callback {
        private final long seq;
        private final long start;
        private final long intended;
        private final Horizon horizon; // null for a burst

        Cb(long seq, long start, long intended, Horizon horizon) {
            this.seq = seq;
            this.start = start;
            this.intended = intended;
            this.horizon = horizon;
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception e) {
            long now = System.nanoTime();
            if (horizon != null) {
                horizon.done(now - start);
            }
            if (e != null) {
                onFailure(seq, e);
                return;
            }
            onAck(seq, Histograms.clamp((now - start) / 1000), intended == 0 ? -1 : Histograms.clamp((now - intended) / 1000),
                    Math.max(0, metadata.serializedValueSize()));
            if (seq >= measuredFromSeq) {
                partitionCounts.add(metadata.partition());
            }
        }
    }

    /**
     * Counts one acknowledged record: its latency in µs, with a rate its
     * latency from the intended send time (-1 without a rate), and its value
     * size. Warm-up records (seq below the measured window's first) count
     * in the warm-up (with its own latency histogram), the progress window
     * and the timeline only.
     */
    void onAck(long seq, long us, long intendedUs, long bytes) {
        boolean warm = seq < measuredFromSeq;
        (warm ? warmupAcked : acked).incrementAndGet();
        synchronized (lock) {
            if (warm) {
                histWarmup.recordValue(us);
            } else {
                hist.recordValue(us);
                if (intendedUs >= 0) {
                    histIntended.recordValue(intendedUs);
                }
            }
            windowCount++;
            windowSumUs += us;
            if (us > windowMaxUs) {
                windowMaxUs = us;
            }
            if (timeline != null) {
                timeline.onAck(us, bytes);
            }
            if (tracking) {
                ackedSeqs.set((int) seq);
            }
        }
    }

    /** Returns the progress window since the previous call and starts a new one. */
    Protocol.Window takeWindow() {
        synchronized (lock) {
            Protocol.Window w = new Protocol.Window(windowCount, windowSumUs, windowMaxUs);
            windowCount = 0;
            windowSumUs = 0;
            windowMaxUs = 0;
            return w;
        }
    }

    /** The progress message for now: counts of the whole stream, warm-up included. */
    JsonObject progressMessage(long nowNs) {
        long start = clockStart;
        return Protocol.progress(req.id, start == 0 ? 0 : nowNs - start, warmupSent.get() + sent.get(),
                warmupAcked.get() + acked.get(), warmupFailed.get() + failed.get(), takeWindow());
    }

    /** Cuts the timeline's open interval at nanoTime now. */
    void cutAt(long now) {
        Metric inFlight = inFlightMetric;
        double v = ClientMetrics.valueOf(inFlight);
        long inFlightNow = inFlight == null || Double.isNaN(v) ? -1 : (long) v;
        timeline.cut(now - clockStart, warmupSent.get() + sent.get(), ClientMetrics.valueOf(retryMetric), inFlightNow,
                measuredFromNs());
    }

    /**
     * Cuts the timeline's last interval at nanoTime end, after cutting any
     * boundary the halted cutter had not reached yet (a late wake-up on a busy
     * machine), so that only the last point is partial and none is longer
     * than the interval.
     */
    void cutLast(long end) {
        long boundary;
        while ((boundary = clockStart + timeline.nextBoundaryNs()) < end) {
            cutAt(boundary);
        }
        cutAt(end);
    }

    /** Wall-clock µs since the epoch of a System.nanoTime() value. */
    static long epochMicros(long nanoTime) {
        Instant now = Instant.now();
        long nowNanos = System.nanoTime();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000 + (nanoTime - nowNanos) / 1000;
    }

    /**
     * The result's own measurements, taken when the trial ended at nanoTime
     * end: status, counts, clock, histograms, errors, audit ranges and
     * timeline (everything but the client's figures).
     */
    JsonObject measurements(long end) {
        JsonObject o = new JsonObject();
        o.addProperty("op", "result");
        o.addProperty("id", req.id);
        if (aborted) {
            o.addProperty("ok", false);
            o.addProperty("error", abortReason + ": sent " + sent.get() + " of " + req.records
                    + " records, acked " + acked.get()
                    + (req.hasWarmup() ? " (warm-up: sent " + warmupSent.get() + ", acked " + warmupAcked.get() + ")" : ""));
            o.addProperty("hint", cancelled ? "the trial was cancelled"
                    : fenced ? "another producer registered this producer's transactional.id"
                    : "raise the timeout or lower records or rate");
            if (fenced) {
                o.addProperty("fenced", true);
            }
        } else {
            o.addProperty("ok", true);
        }
        o.addProperty("client", "kafka-clients " + clientVersion());
        o.addProperty("sent", sent.get());
        o.addProperty("acked", acked.get());
        o.addProperty("failed", failed.get());
        o.addProperty("warmup_sent", warmupSent.get());
        o.addProperty("warmup_acked", warmupAcked.get());
        o.addProperty("warmup_failed", warmupFailed.get());
        long from = measuredFromNs();
        o.addProperty("elapsed_ns", from < 0 ? 0 : end - measuredStart);
        if (clockStart != 0) {
            o.addProperty("clock_start_epoch_us", epochMicros(clockStart));
        }
        if (from >= 0) {
            o.addProperty("measured_from_ns", from);
        }
        synchronized (lock) {
            JsonObject errs = new JsonObject();
            errors.forEach(errs::addProperty);
            o.add("errors", errs);
            if (!warmupErrors.isEmpty()) {
                JsonObject werrs = new JsonObject();
                warmupErrors.forEach(werrs::addProperty);
                o.add("warmup_errors", werrs);
            }
            o.addProperty("histogram", Histograms.encode(hist));
            if (req.rate > 0) {
                o.addProperty("histogram_intended", Histograms.encode(histIntended));
            }
            if (req.hasWarmup()) {
                o.addProperty("histogram_warmup", Histograms.encode(histWarmup));
            }
            if (tracking) {
                o.add("acked_ranges", SeqRanges.of(ackedSeqs));
                o.add("failed_ranges", SeqRanges.of(failedSeqs));
            }
        }
        if (timeline != null) {
            o.add("timeline", timeline.points());
        }
        o.add("partition_records", partitionCounts.toJson());
        return o;
    }

    /**
     * Waits up to 5 s for a helper thread told to stop, keeping the caller's
     * interrupt status: both helper threads stop this way.
     */
    private static void awaitEnd(Thread t) {
        try {
            t.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Cuts a timeline point at each interval boundary of the trial's clock
     * (clockStart + k × interval). A wake-up that comes late cuts late: the
     * point keeps its regular t_ns and dur_ns, and the records of the delay
     * count in it rather than the next.
     */
    private final class Cutter extends Thread {
        private volatile boolean stop;

        Cutter() {
            super("prodlab-timeline");
            setDaemon(true);
        }

        void halt() {
            stop = true;
            LockSupport.unpark(this);
            awaitEnd(this);
        }

        @Override
        public void run() {
            while (!stop) {
                long boundary = clockStart + timeline.nextBoundaryNs();
                long wait;
                while (!stop && (wait = boundary - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(this, wait);
                }
                if (!stop) {
                    cutAt(boundary);
                }
            }
        }
    }

    /**
     * Samples requests-in-flight every ~10 ms (keeping the maximum, and the
     * timeline's per-interval maximum), reports progress every ~1 s, and
     * aborts the trial (force-closing the producer, which fails what is
     * still pending) on timeout or cancel.
     */
    private final class Sampler extends Thread {
        private final KafkaProducer<byte[], byte[]> producer;
        private final long deadline;
        private volatile boolean stop;
        volatile double maxInFlight;

        Sampler(KafkaProducer<byte[], byte[]> producer, long deadline) {
            super("prodlab-sampler");
            setDaemon(true);
            this.producer = producer;
            this.deadline = deadline;
        }

        void halt() {
            stop = true;
            interrupt();
            awaitEnd(this);
        }

        @Override
        public void run() {
            Metric inFlight = inFlightMetric;
            long nextProgress = System.nanoTime() + 1_000_000_000L;
            while (!stop) {
                double v = ClientMetrics.valueOf(inFlight);
                if (!Double.isNaN(v)) {
                    if (v > maxInFlight) {
                        maxInFlight = v;
                    }
                    if (timeline != null) {
                        timeline.noteInFlight((long) v);
                    }
                }
                long now = System.nanoTime();
                if (!aborted && (cancelled || now - deadline > 0)) {
                    abortReason = cancelled ? "trial cancelled" : "trial timed out after " + req.timeoutMs + " ms";
                    aborted = true;
                    producer.close(Duration.ZERO);
                }
                if (progressOut != null && now - nextProgress > 0) {
                    progressOut.send(progressMessage(now));
                    nextProgress = now + 1_000_000_000L;
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    if (stop) {
                        return;
                    }
                }
            }
        }
    }
}
