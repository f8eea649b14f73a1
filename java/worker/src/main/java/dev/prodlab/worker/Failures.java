package dev.prodlab.worker;

import org.apache.kafka.common.config.ConfigException;

/**
 * Reads the Java client's exceptions: the configuration error inside a
 * failed construction, a message with its causes, and whether a producer
 * was fenced.
 */
final class Failures {
    private Failures() {}

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

    /**
     * "Class: message" of t, then its direct cause and, when deeper, its root
     * cause: the client wraps the reason a producer cannot be built (a bad
     * sasl.jaas.config, say) two levels down, under "Failed to construct
     * kafka producer".
     */
    static String message(Throwable t) {
        StringBuilder sb = new StringBuilder(describe(t));
        Throwable c = t.getCause();
        if (c != null && c != t && c.getMessage() != null && !c.getMessage().equals(t.getMessage())) {
            sb.append(" (caused by ").append(describe(c));
            Throwable root = rootCause(c);
            if (root != c && root.getMessage() != null && !root.getMessage().equals(c.getMessage())) {
                sb.append("; root cause ").append(describe(root));
            }
            sb.append(')');
        }
        return sb.toString();
    }

    /** "SimpleClassName: message", or the class name alone. */
    private static String describe(Throwable t) {
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    /** The innermost cause of t (t itself when it has none); stops at cycles. */
    static Throwable rootCause(Throwable t) {
        java.util.Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        Throwable c = t;
        while (c.getCause() != null && seen.add(c)) {
            c = c.getCause();
        }
        return c;
    }

    /** Whether t (or a cause) says another producer registered this one's transactional.id. */
    static boolean isFenced(Throwable t) {
        for (; t != null; t = t.getCause()) {
            // InvalidTxnState: what a commit racing the fence gets (as the
            // Go drivers' franzFenced and rdFenced).
            if (t instanceof org.apache.kafka.common.errors.ProducerFencedException
                    || t instanceof org.apache.kafka.common.errors.InvalidProducerEpochException
                    || t instanceof org.apache.kafka.common.errors.InvalidTxnStateException) {
                return true;
            }
        }
        return false;
    }
}
