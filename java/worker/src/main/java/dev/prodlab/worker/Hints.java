package dev.prodlab.worker;

import java.util.Locale;

/** One-line hints for configuration errors the Java client reports. */
final class Hints {
    private Hints() {}

    static String forConfigError(String message) {
        String m = message == null ? "" : message.toLowerCase(Locale.ROOT);
        if (m.contains("idempot") && m.contains("max.in.flight")) {
            return "the idempotent producer allows at most 5 in-flight requests per connection:"
                    + " lower max.in.flight.requests.per.connection or set enable.idempotence=false";
        }
        if (m.contains("idempot") && m.contains("acks")) {
            return "the idempotent producer needs acks=all: set acks=all or enable.idempotence=false";
        }
        if (m.contains("idempot") && m.contains("retries")) {
            return "the idempotent producer needs retries > 0: raise retries or set enable.idempotence=false";
        }
        if (m.contains("transactional")) {
            return "transactions need the idempotent producer (acks=all, max.in.flight <= 5, retries > 0)";
        }
        if (m.contains("bootstrap.servers")) {
            return "no usable bootstrap servers: check the cluster address";
        }
        if (m.contains("unknown producer property")) {
            return "check the property name against the producer configs of this kafka-clients version";
        }
        if (m.contains("delivery.timeout.ms")) {
            return "delivery.timeout.ms must be >= linger.ms + request.timeout.ms";
        }
        return "check the producer property named in the message against this kafka-clients version";
    }
}
