package dev.prodlab.worker;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The producer's properties in and out: what a run request gives the
 * client (prodlab's own keys removed, the serializers and metrics window
 * set) and every setting the client then runs with, as strings.
 */
final class ProducerProps {
    private ProducerProps() {}

    /** Builds the producer properties for a request; prodlab-only keys are removed. */
    static Properties of(RunRequest req) {
        Properties p = new Properties();
        p.putAll(req.props);
        for (String k : Transactions.KEYS) {
            p.remove(k);
        }
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
}
