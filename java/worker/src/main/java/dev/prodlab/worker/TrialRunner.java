package dev.prodlab.worker;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * Runs one trial: creates a producer from the request's properties, sends the
 * records asynchronously, flushes, and reports what it measured. One
 * TrialRunner serves one run request; the worker creates a new one per trial.
 */
final class TrialRunner {
    /** prodlab-only property: commit a transaction every this many ms. */
    static final String TRANSACTION_DURATION = "transaction.duration.ms";
    /** Audit header key. */
    static final String AUDIT_HEADER = "prodlab";
    /** Latency histogram bounds (µs): 1 µs .. 10 min, 3 significant digits. */
    static final long HIST_MAX_US = 600_000_000L;

    /** producer-metrics reported as they are at the end of the trial. */
    static final List<String> METRICS = List.of(
            "batch-size-avg", "batch-size-max", "records-per-request-avg", "record-queue-time-avg",
            "record-queue-time-max", "request-latency-avg", "request-latency-max", "record-retry-total",
            "record-error-total", "record-send-total", "compression-rate-avg", "outgoing-byte-total",
            "produce-throttle-time-avg", "bufferpool-wait-time-total", "bufferpool-wait-time-ns-total");

    private final RunRequest req;
    private final Protocol progressOut; // may be null (tests)
    private volatile boolean cancelled;
    private volatile boolean aborted;
    private volatile String abortReason;

    // Callback state; counters are read by the sampler thread.
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final Object lock = new Object();
    private final Histogram hist = newHistogram();
    private final Histogram histIntended = newHistogram();
    private final Map<String, Long> errors = new HashMap<>();
    // Progress window (guarded by lock, updated with the histogram so the
    // callback takes no extra lock); taken and reset by the sampler.
    private long windowCount;
    private long windowSumUs;
    private long windowMaxUs;
    private volatile long clockStart; // System.nanoTime() of the first send; 0 before
    private final BitSet ackedSeqs;
    private final BitSet failedSeqs;
    private final boolean tracking;

    TrialRunner(RunRequest req, Protocol progressOut) {
        this.req = req;
        this.progressOut = progressOut;
        this.tracking = !req.tag.isEmpty();
        this.ackedSeqs = tracking ? new BitSet() : null;
        this.failedSeqs = tracking ? new BitSet() : null;
    }

    static Histogram newHistogram() {
        return new Histogram(1, HIST_MAX_US, 3);
    }

    static String clientVersion() {
        return AppInfoParser.getVersion();
    }

    /** Asks a running trial to stop as soon as possible (it then reports ok=false). */
    void cancel() {
        cancelled = true;
    }

    /** Builds the producer properties for a request; prodlab-only keys are removed. */
    static Properties producerProps(RunRequest req) {
        Properties p = new Properties();
        p.putAll(req.props);
        p.remove(TRANSACTION_DURATION);
        if (!req.bootstrap.isEmpty() && !p.containsKey(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)) {
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, req.bootstrap);
        }
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        // Make windowed averages and maxima cover the whole trial (the default
        // window is 2 × 30 s). This changes no producer behaviour.
        if (!p.containsKey(ProducerConfig.METRICS_SAMPLE_WINDOW_MS_CONFIG)) {
            p.put(ProducerConfig.METRICS_SAMPLE_WINDOW_MS_CONFIG, Long.toString(req.timeoutMs + 60_000));
        }
        return p;
    }

    /** Every producer setting after defaults, as strings, with secrets masked. */
    static Map<String, String> effective(ProducerConfig cfg) {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, ?> e : cfg.values().entrySet()) {
            out.put(e.getKey(), configString(e.getKey(), e.getValue()));
        }
        return out;
    }

    static String configString(String key, Object v) {
        if (v == null) {
            return "";
        }
        String k = key.toLowerCase(Locale.ROOT);
        if (v instanceof Password || k.contains("password") || k.equals("sasl.jaas.config")) {
            return "[hidden]";
        }
        if (v instanceof Class) {
            return ((Class<?>) v).getName();
        }
        if (v instanceof List) {
            StringBuilder sb = new StringBuilder();
            for (Object o : (List<?>) v) {
                if (sb.length() > 0) {
                    sb.append(',');
                }
                sb.append(o instanceof Class ? ((Class<?>) o).getName() : String.valueOf(o));
            }
            return sb.toString();
        }
        return v.toString();
    }

    /** Finds the innermost ConfigException in a cause chain, or null. */
    static ConfigException configCause(Throwable t) {
        ConfigException found = null;
        for (Throwable c = t; c != null && c != c.getCause(); c = c.getCause()) {
            if (c instanceof ConfigException) {
                found = (ConfigException) c;
            }
        }
        return found;
    }

    static String message(Throwable t) {
        StringBuilder sb = new StringBuilder(t.getClass().getSimpleName());
        if (t.getMessage() != null) {
            sb.append(": ").append(t.getMessage());
        }
        Throwable c = t.getCause();
        if (c != null && c != t && c.getMessage() != null && !c.getMessage().equals(t.getMessage())) {
            sb.append(" (caused by ").append(c.getClass().getSimpleName()).append(": ").append(c.getMessage()).append(')');
        }
        return sb.toString();
    }

    /** Runs the trial; never throws. */
    JsonObject run() {
        try {
            return runChecked();
        } catch (Throwable t) {
            ConfigException ce = configCause(t);
            if (ce != null) {
                return Protocol.failure(req.id, ce.getMessage(), Hints.forConfigError(ce.getMessage()));
            }
            return Protocol.failure(req.id, message(t), "the Java producer failed; see the worker log");
        }
    }

    private JsonObject runChecked() throws Exception {
        long txDuration = req.transactionDurationMs;
        String txProp = req.props.get(TRANSACTION_DURATION);
        if (txProp != null) {
            try {
                txDuration = Long.parseLong(txProp.trim());
            } catch (NumberFormatException e) {
                return Protocol.failure(req.id, "Invalid value " + txProp + " for configuration " + TRANSACTION_DURATION,
                        "transaction.duration.ms must be a positive number of milliseconds");
            }
            if (txDuration <= 0) {
                return Protocol.failure(req.id, TRANSACTION_DURATION + " must be > 0, got " + txDuration,
                        "transaction.duration.ms must be a positive number of milliseconds");
            }
        }
        Set<String> known = ProducerConfig.configNames();
        for (String k : req.props.keySet()) {
            if (!known.contains(k) && !k.equals(TRANSACTION_DURATION)) {
                String msg = "unknown producer property " + k + " for kafka-clients " + clientVersion();
                return Protocol.failure(req.id, msg, Hints.forConfigError(msg));
            }
        }
        if (req.topic.isEmpty()) {
            return Protocol.failure(req.id, "no topic given", "the run request needs a topic");
        }
        if (tracking && req.records > Integer.MAX_VALUE) {
            return Protocol.failure(req.id, "audit headers support at most " + Integer.MAX_VALUE + " records",
                    "lower records or turn the audit off");
        }
        Payloads payloads;
        try {
            payloads = Payloads.create(req.payload, req.recordSize, req.seed, req.records);
        } catch (IllegalArgumentException | java.io.IOException e) {
            return Protocol.failure(req.id, e.getMessage(), "check workload payload and record.size");
        }

        Properties props = producerProps(req);
        Map<String, String> effective;
        try {
            effective = effective(new ProducerConfig(props));
        } catch (ConfigException e) {
            return Protocol.failure(req.id, e.getMessage(), Hints.forConfigError(e.getMessage()));
        }
        boolean transactional = props.getProperty(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "").length() > 0;

        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props);
        Sampler sampler = null;
        try {
            String clientId = clientIdOf(producer);
            if (clientId != null) {
                effective.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
            }
            long commits = 0;
            long aborts = 0;
            long deadline = System.nanoTime() + req.timeoutMs * 1_000_000L;
            sampler = new Sampler(producer, deadline);
            sampler.start();
            if (transactional) {
                producer.initTransactions();
                producer.beginTransaction();
            }
            byte[] topicTag = (req.tag + "/").getBytes(StandardCharsets.US_ASCII);
            long start = System.nanoTime();
            clockStart = start;
            long txStart = start;
            long txNanos = txDuration * 1_000_000L;
            double nanosPerRecord = req.rate > 0 ? 1e9 / req.rate : 0;
            for (long seq = 0; seq < req.records && !aborted; seq++) {
                long intended = 0;
                if (nanosPerRecord > 0) {
                    intended = start + (long) (seq * nanosPerRecord);
                    long wait;
                    while ((wait = intended - System.nanoTime()) > 0 && !aborted) {
                        LockSupport.parkNanos(Math.min(wait, 100_000_000L));
                    }
                    if (aborted) {
                        break;
                    }
                }
                if (transactional && System.nanoTime() - txStart >= txNanos) {
                    if (commitOrAbort(producer)) {
                        commits++;
                    } else {
                        aborts++;
                    }
                    producer.beginTransaction();
                    txStart = System.nanoTime();
                }
                RecordHeaders headers = null;
                if (tracking) {
                    headers = new RecordHeaders();
                    headers.add(AUDIT_HEADER, auditValue(topicTag, seq));
                }
                ProducerRecord<byte[], byte[]> rec =
                        new ProducerRecord<>(req.topic, null, null, null, payloads.next(seq), headers);
                long now = System.nanoTime();
                try {
                    producer.send(rec, new Cb(seq, now, intended));
                    sent.incrementAndGet();
                } catch (RuntimeException e) {
                    onFailure(seq, e);
                    if (aborted) {
                        break;
                    }
                }
            }
            if (transactional && !aborted) {
                if (commitOrAbort(producer)) {
                    commits++;
                } else {
                    aborts++;
                }
            } else if (!aborted) {
                producer.flush();
            }
            long elapsed = System.nanoTime() - start;
            sampler.halt();
            return result(producer, effective, elapsed, commits, aborts, sampler.maxInFlight);
        } finally {
            if (sampler != null) {
                sampler.halt();
            }
            producer.close(aborted ? Duration.ZERO : Duration.ofSeconds(30));
        }
    }

    /** Commits the open transaction; on failure aborts it and returns false. */
    private boolean commitOrAbort(KafkaProducer<byte[], byte[]> producer) {
        try {
            producer.commitTransaction();
            return true;
        } catch (RuntimeException e) {
            countError(message(e));
            producer.abortTransaction(); // throws (ending the trial) if the producer is fenced
            return false;
        }
    }

    static byte[] auditValue(byte[] prefix, long seq) {
        int digits = Payloads.Json.digits(seq);
        byte[] v = new byte[prefix.length + digits];
        System.arraycopy(prefix, 0, v, 0, prefix.length);
        for (int i = v.length - 1; i >= prefix.length; i--) {
            v[i] = (byte) ('0' + seq % 10);
            seq /= 10;
        }
        return v;
    }

    private static String clientIdOf(KafkaProducer<?, ?> producer) {
        for (MetricName n : producer.metrics().keySet()) {
            String id = n.tags().get("client-id");
            if (id != null) {
                return id;
            }
        }
        return null;
    }

    private void countError(String msg) {
        synchronized (lock) {
            errors.merge(msg, 1L, Long::sum);
        }
    }

    private void onFailure(long seq, Exception e) {
        failed.incrementAndGet();
        synchronized (lock) {
            errors.merge(message(e), 1L, Long::sum);
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

        Cb(long seq, long start, long intended) {
            this.seq = seq;
            this.start = start;
            this.intended = intended;
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception e) {
            long now = System.nanoTime();
            if (e != null) {
                onFailure(seq, e);
                return;
            }
            onAck(seq, clamp((now - start) / 1000), intended == 0 ? -1 : clamp((now - intended) / 1000));
        }
    }

    /**
     * Counts one acknowledged record: its latency in µs and, with a rate, its
     * latency from the intended send time (-1 without a rate).
     */
    void onAck(long seq, long us, long intendedUs) {
        acked.incrementAndGet();
        synchronized (lock) {
            hist.recordValue(us);
            windowCount++;
            windowSumUs += us;
            if (us > windowMaxUs) {
                windowMaxUs = us;
            }
            if (intendedUs >= 0) {
                histIntended.recordValue(intendedUs);
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

    /** The progress message for now. */
    JsonObject progressMessage(long nowNs) {
        long start = clockStart;
        return Protocol.progress(req.id, start == 0 ? 0 : nowNs - start, sent.get(), acked.get(), failed.get(),
                takeWindow());
    }

    static long clamp(long us) {
        return us < 0 ? 0 : Math.min(us, HIST_MAX_US);
    }

    static String encode(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), n));
    }

    private JsonObject result(KafkaProducer<byte[], byte[]> producer, Map<String, String> effective,
            long elapsedNs, long commits, long aborts, double maxInFlight) {
        JsonObject o = new JsonObject();
        o.addProperty("op", "result");
        o.addProperty("id", req.id);
        if (aborted) {
            o.addProperty("ok", false);
            o.addProperty("error", abortReason + ": sent " + sent.get() + " of " + req.records
                    + " records, acked " + acked.get());
            o.addProperty("hint", cancelled ? "the trial was cancelled" : "raise the timeout or lower records or rate");
        } else {
            o.addProperty("ok", true);
        }
        o.addProperty("client", "kafka-clients " + clientVersion());
        o.addProperty("sent", sent.get());
        o.addProperty("acked", acked.get());
        o.addProperty("failed", failed.get());
        o.addProperty("elapsed_ns", elapsedNs);

        Map<String, Double> pm = new TreeMap<>();
        double topicBytes = Double.NaN;
        double topicCompression = Double.NaN;
        for (Map.Entry<MetricName, ? extends Metric> e : producer.metrics().entrySet()) {
            MetricName n = e.getKey();
            Object v = e.getValue().metricValue();
            if (!(v instanceof Number)) {
                continue;
            }
            double d = ((Number) v).doubleValue();
            if (n.group().equals("producer-metrics") && METRICS.contains(n.name())) {
                pm.put(n.name(), d);
            } else if (n.group().equals("producer-topic-metrics") && req.topic.equals(n.tags().get("topic"))) {
                if (n.name().equals("byte-total")) {
                    topicBytes = d;
                } else if (n.name().equals("compression-rate")) {
                    topicCompression = d;
                }
            }
        }
        pm.put("requests-in-flight", maxInFlight);
        JsonObject metrics = new JsonObject();
        for (Map.Entry<String, Double> e : pm.entrySet()) {
            Protocol.addFinite(metrics, e.getKey(), e.getValue());
        }
        // Derivations (PROTOCOL.md, "Byte and batch counts").
        long compressed = finite(topicBytes) ? Math.round(topicBytes) : 0;
        double rate = finite(topicCompression) && topicCompression > 0 ? topicCompression
                : pm.getOrDefault("compression-rate-avg", Double.NaN);
        long uncompressed = compressed > 0 && finite(rate) && rate > 0 ? Math.round(compressed / rate) : compressed;
        double batchAvg = pm.getOrDefault("batch-size-avg", Double.NaN);
        long batches = compressed > 0 && finite(batchAvg) && batchAvg > 0 ? Math.round(compressed / batchAvg) : 0;
        double recPerReq = pm.getOrDefault("records-per-request-avg", Double.NaN);
        double recSent = pm.getOrDefault("record-send-total", Double.NaN);
        long requests = finite(recPerReq) && recPerReq > 0 && finite(recSent) ? Math.round(recSent / recPerReq) : 0;
        o.add("metrics", metrics);
        o.addProperty("compressed_bytes", compressed);
        o.addProperty("uncompressed_bytes", uncompressed);
        o.addProperty("batches", batches);
        o.addProperty("produce_requests", requests);
        o.addProperty("commits", commits);
        o.addProperty("aborts", aborts);

        JsonObject eff = new JsonObject();
        effective.forEach(eff::addProperty);
        o.add("effective", eff);

        synchronized (lock) {
            JsonObject errs = new JsonObject();
            errors.forEach(errs::addProperty);
            o.add("errors", errs);
            o.addProperty("histogram", encode(hist));
            if (req.rate > 0) {
                o.addProperty("histogram_intended", encode(histIntended));
            }
            if (tracking) {
                JsonArray a = SeqRanges.of(ackedSeqs);
                JsonArray f = SeqRanges.of(failedSeqs);
                o.add("acked_ranges", a);
                o.add("failed_ranges", f);
            }
        }
        return o;
    }

    private static boolean finite(double d) {
        return !Double.isNaN(d) && !Double.isInfinite(d);
    }

    /**
     * Samples requests-in-flight every ~10 ms (keeping the maximum), reports
     * progress every ~1 s, and aborts the trial (force-closing the producer,
     * which fails what is still pending) on timeout or cancel.
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
            try {
                join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void run() {
            Metric inFlight = null;
            for (Map.Entry<MetricName, ? extends Metric> e : producer.metrics().entrySet()) {
                if (e.getKey().group().equals("producer-metrics") && e.getKey().name().equals("requests-in-flight")) {
                    inFlight = e.getValue();
                }
            }
            long nextProgress = System.nanoTime() + 1_000_000_000L;
            while (!stop) {
                if (inFlight != null) {
                    Object v = inFlight.metricValue();
                    if (v instanceof Number && ((Number) v).doubleValue() > maxInFlight) {
                        maxInFlight = ((Number) v).doubleValue();
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
