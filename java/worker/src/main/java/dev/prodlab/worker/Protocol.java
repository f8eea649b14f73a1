package dev.prodlab.worker;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The line-delimited JSON protocol (see docs/worker-protocol.md): parses request lines and
 * writes one JSON object per line to the protocol stream. Writes are
 * synchronized because progress messages come from the sampler thread.
 */
final class Protocol {
    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

    private final PrintStream out;

    Protocol(OutputStream out) {
        this.out = new PrintStream(out, false, StandardCharsets.UTF_8);
    }

    /** Parses one request line into a JSON object. */
    static JsonObject parse(String line) {
        JsonElement e = JsonParser.parseString(line);
        if (!e.isJsonObject()) {
            throw new IllegalArgumentException("request is not a JSON object");
        }
        return e.getAsJsonObject();
    }

    /** Serializes a message to its single-line JSON form (no trailing newline). */
    static String encode(JsonObject msg) {
        return GSON.toJson(msg);
    }

    /** Writes one message as one line and flushes. */
    synchronized void send(JsonObject msg) {
        out.print(encode(msg));
        out.print('\n');
        out.flush();
    }

    static JsonObject hello(String clientVersion, String javaVersion) {
        JsonObject o = new JsonObject();
        o.addProperty("op", "hello");
        o.addProperty("client", "kafka-clients " + clientVersion);
        o.addProperty("java", javaVersion);
        return o;
    }

    /**
     * The answer of the configdef command: the client version and each
     * producer property's ConfigDef type name.
     */
    static JsonObject configDef(String clientVersion, java.util.Map<String, String> types) {
        JsonObject o = new JsonObject();
        o.addProperty("client", "kafka-clients " + clientVersion);
        JsonObject t = new JsonObject();
        types.forEach(t::addProperty);
        o.add("types", t);
        return o;
    }

    /**
     * A progress report: cumulative counts plus the latency window of the
     * records acknowledged since the previous report (see docs/worker-protocol.md).
     */
    static JsonObject progress(long id, long elapsedNs, long sent, long acked, long failed, Window w) {
        JsonObject o = new JsonObject();
        o.addProperty("op", "progress");
        o.addProperty("id", id);
        o.addProperty("elapsed_ns", elapsedNs);
        o.addProperty("sent", sent);
        o.addProperty("acked", acked);
        o.addProperty("failed", failed);
        o.addProperty("window_count", w.count);
        o.addProperty("window_latency_sum_us", w.sumUs);
        o.addProperty("window_latency_max_us", w.maxUs);
        return o;
    }

    /** Latency figures of the records acknowledged in one progress window. */
    static final class Window {
        final long count;
        final long sumUs;
        final long maxUs;

        Window(long count, long sumUs, long maxUs) {
            this.count = count;
            this.sumUs = sumUs;
            this.maxUs = maxUs;
        }
    }

    /** A failed trial: the client's own message plus a one-line hint. */
    static JsonObject failure(long id, String error, String hint) {
        JsonObject o = new JsonObject();
        o.addProperty("op", "result");
        o.addProperty("id", id);
        o.addProperty("ok", false);
        o.addProperty("error", error == null ? "unknown error" : error);
        if (hint != null && !hint.isEmpty()) {
            o.addProperty("hint", hint);
        }
        return o;
    }

    /** A protocol-level error not tied to a trial (bad JSON, unknown op). */
    static JsonObject error(String message) {
        JsonObject o = new JsonObject();
        o.addProperty("op", "error");
        o.addProperty("error", message);
        return o;
    }

    /** Adds a double, skipping NaN and infinities, which JSON cannot carry. */
    static void addFinite(JsonObject o, String key, double v) {
        if (!Double.isNaN(v) && !Double.isInfinite(v)) {
            o.addProperty(key, v);
        }
    }
}
