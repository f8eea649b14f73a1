package dev.prodlab.worker;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;

/** One {"op":"run"} request: everything the worker needs for one trial. */
final class RunRequest {
    /** Default trial bound when timeout_ms is absent or 0. */
    static final long DEFAULT_TIMEOUT_MS = 600_000;

    long id;
    String bootstrap = "";
    String topic = "";
    Map<String, String> props = new LinkedHashMap<>();
    long records;
    int recordSize;
    String payload = "json";
    double rate;
    long seed;
    String tag = "";
    long timeoutMs = DEFAULT_TIMEOUT_MS;
    /** When > 0, the measured window ends after this long (or after records), whichever first. */
    long durationMs;
    /** Warm-up before the measured window: this many records and/or this long, whichever first. */
    long warmupRecords;
    long warmupMs;
    /**
     * When > 0, a rate-limited steady-state warm-up runs on past warmupMs
     * until the producer is within this many ms of its schedule (how late
     * its sends run, plus the wait of the records it holds unacknowledged
     * at the rate beyond the fastest completion: Pacing.lagNanos), for
     * at most catchUpMaxMs more and not once it falls further behind: a
     * window that begins behind its schedule measures that backlog, not
     * the steady state.
     */
    long catchUpMs;
    long catchUpMaxMs;
    /** When > 0, the result carries a timeline with one point per this many ms. */
    long timelineIntervalMs;
    /** The key space ("none" for keyless records), see KeySampler. */
    String keyDistribution = "none";
    long keyCount;
    int keySize;
    double keyExponent;
    /** When true, every record carries its hand-off time (StampHeader) for an end-to-end consumer. */
    boolean stamp;

    /**
     * Parses a run request. Property values may be JSON strings, numbers or
     * booleans; they are passed to the producer as strings.
     *
     * @throws IllegalArgumentException when a field is missing or malformed
     */
    static RunRequest parse(JsonObject o) {
        RunRequest r = new RunRequest();
        r.id = getLong(o, "id", 0);
        r.bootstrap = getString(o, "bootstrap", "");
        r.topic = getString(o, "topic", "");
        if (o.has("props") && !o.get("props").isJsonNull()) {
            JsonElement p = o.get("props");
            if (!p.isJsonObject()) {
                throw new IllegalArgumentException("props must be an object");
            }
            for (Map.Entry<String, JsonElement> e : p.getAsJsonObject().entrySet()) {
                JsonElement v = e.getValue();
                if (v.isJsonNull()) {
                    continue;
                }
                if (!v.isJsonPrimitive()) {
                    throw new IllegalArgumentException("props." + e.getKey() + " must be a string, number or boolean");
                }
                r.props.put(e.getKey(), v.getAsString());
            }
        }
        if (!o.has("records")) {
            throw new IllegalArgumentException("records is required");
        }
        r.records = getLong(o, "records", 0);
        if (r.records < 0) {
            throw new IllegalArgumentException("records must be >= 0, got " + r.records);
        }
        long size = getLong(o, "record_size", 0);
        if (size < 0 || size > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("record_size out of range: " + size);
        }
        r.recordSize = (int) size;
        r.payload = getString(o, "payload", "json");
        if (r.payload.isEmpty()) {
            r.payload = "json";
        }
        r.rate = o.has("rate") && !o.get("rate").isJsonNull() ? o.get("rate").getAsDouble() : 0;
        if (r.rate < 0 || Double.isNaN(r.rate)) {
            throw new IllegalArgumentException("rate must be >= 0");
        }
        r.seed = getLong(o, "seed", 0);
        r.tag = getString(o, "tag", "");
        long t = getLong(o, "timeout_ms", 0);
        r.timeoutMs = t > 0 ? t : DEFAULT_TIMEOUT_MS;
        r.durationMs = getNonNegative(o, "duration_ms");
        r.warmupRecords = getNonNegative(o, "warmup_records");
        r.warmupMs = getNonNegative(o, "warmup_ms");
        r.catchUpMs = getNonNegative(o, "catch_up_ms");
        r.catchUpMaxMs = getNonNegative(o, "catch_up_max_ms");
        r.timelineIntervalMs = getNonNegative(o, "timeline_interval_ms");
        parseKeys(o, r);
        r.stamp = o.has("stamp") && !o.get("stamp").isJsonNull() && o.get("stamp").getAsBoolean();
        return r;
    }

    /** Reads the optional "keys" object: distribution, count, size, exponent. */
    private static void parseKeys(JsonObject o, RunRequest r) {
        JsonElement k = o.get("keys");
        if (k == null || k.isJsonNull()) {
            return;
        }
        if (!k.isJsonObject()) {
            throw new IllegalArgumentException("keys must be an object, got " + k);
        }
        JsonObject ko = k.getAsJsonObject();
        r.keyDistribution = getString(ko, "distribution", "none");
        r.keyCount = getNonNegative(ko, "count");
        long size = getNonNegative(ko, "size");
        if (size > KeySampler.MAX_SIZE) {
            throw new IllegalArgumentException("keys.size out of range: " + size);
        }
        r.keySize = (int) size;
        JsonElement ex = ko.get("exponent");
        r.keyExponent = ex == null || ex.isJsonNull() ? 0 : ex.getAsDouble();
    }

    /** True when the trial begins with a warm-up. */
    boolean hasWarmup() {
        return warmupRecords > 0 || warmupMs > 0;
    }

    private static long getNonNegative(JsonObject o, String key) {
        long v = getLong(o, key, 0);
        if (v < 0) {
            throw new IllegalArgumentException(key + " must be >= 0, got " + v);
        }
        return v;
    }

    private static long getLong(JsonObject o, String key, long def) {
        JsonElement e = o.get(key);
        if (e == null || e.isJsonNull()) {
            return def;
        }
        try {
            return e.getAsLong();
        } catch (RuntimeException ex) {
            throw new IllegalArgumentException(key + " must be an integer, got " + e);
        }
    }

    private static String getString(JsonObject o, String key, String def) {
        JsonElement e = o.get(key);
        if (e == null || e.isJsonNull()) {
            return def;
        }
        if (!e.isJsonPrimitive()) {
            throw new IllegalArgumentException(key + " must be a string, got " + e);
        }
        return e.getAsString();
    }
}
