package dev.prodlab.worker;

import com.google.gson.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * What the Java client reports about itself: its producer metrics, the
 * counts derived from them, its client id.
 */
final class ClientMetrics {
    private ClientMetrics() {}

    /** producer-metrics reported as they are at the end of the trial. */
    static final List<String> METRICS = List.of(
            "batch-size-avg", "batch-size-max", "records-per-request-avg", "record-queue-time-avg",
            "record-queue-time-max", "request-latency-avg", "request-latency-max", "record-retry-total",
            "record-error-total", "record-send-total", "compression-rate-avg", "outgoing-byte-total",
            "produce-throttle-time-avg", "bufferpool-wait-time-total", "bufferpool-wait-time-ns-total",
            "txn-commit-time-ns-total", "txn-abort-time-ns-total", "flush-time-ns-total");

    static String clientIdOf(KafkaProducer<?, ?> producer) {
        for (MetricName n : producer.metrics().keySet()) {
            String id = n.tags().get("client-id");
            if (id != null) {
                return id;
            }
        }
        return null;
    }

    /** The producer-metrics metric of that name, or null when this client version lacks it. */
    static Metric producerMetric(KafkaProducer<?, ?> producer, String name) {
        for (Map.Entry<MetricName, ? extends Metric> e : producer.metrics().entrySet()) {
            if (e.getKey().group().equals("producer-metrics") && e.getKey().name().equals(name)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** A metric's value now; NaN when absent or not a number. */
    static double valueOf(Metric m) {
        if (m == null) {
            return Double.NaN;
        }
        Object v = m.metricValue();
        return v instanceof Number ? ((Number) v).doubleValue() : Double.NaN;
    }

    /**
     * Adds what the client reports about itself: producer metrics, the byte,
     * batch and request counts derived from them (client totals, warm-up
     * included), transactions and the effective configuration.
     */
    static void add(JsonObject o, KafkaProducer<byte[], byte[]> producer, String topic, Map<String, String> effective,
            Transactions txn, double maxInFlight, boolean tracking) {
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
            } else if (n.group().equals("producer-topic-metrics") && topic.equals(n.tags().get("topic"))) {
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
        // Derivations (docs/worker-protocol.md, "Metrics and derived counts").
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
        if (txn != null) {
            o.addProperty("commits", txn.committed);
            o.addProperty("aborts", txn.aborted);
            txn.report(o, metrics, tracking);
        }
        JsonObject eff = new JsonObject();
        effective.forEach(eff::addProperty);
        o.add("effective", eff);
    }

    private static boolean finite(double d) {
        return !Double.isNaN(d) && !Double.isInfinite(d);
    }
}
