package dev.prodlab.worker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Record value generators. A generator may return the same array on every
 * call: KafkaProducer.send copies the value into its batch before it returns,
 * so the caller must not keep a returned array past the next call.
 *
 * <ul>
 *   <li>json: a unique JSON order event
 *       {"seq":N,"id":"uuid","ts":ms,"event":"order_…","payload":"hex…"},
 *       padded with random hex to exactly recordSize bytes (the same layout,
 *       event names and minimum size as the Go package payload);
 *   <li>random: random bytes;
 *   <li>text: random uppercase letters A–Z (as kafka-producer-perf-test, but
 *       different for every record);
 *   <li>file:PATH: the non-empty lines of the file (without line ends),
 *       cycled; recordSize is ignored.
 * </ul>
 */
abstract class Payloads {
    /**
     * Size of the pools of random bytes, letters and hex digits, drawn once
     * per generator. Record seq copies window (seq mod n) of recordSize
     * bytes, so consecutive records never share bytes and no batch smaller
     * than the pool (max.request.size defaults to 1 MiB) shows a compressor a
     * repeat, while drawing costs nothing per record. The Go package payload
     * pools its text letters the same way.
     */
    static final int POOL_BYTES = 16 << 20;

    /** Number of recordSize windows in a pool. */
    static int windows(int recordSize) {
        return Math.max(1, POOL_BYTES / recordSize);
    }

    /** Offset of record seq's window in a pool of recordSize windows. */
    static int windowOffset(long seq, int recordSize) {
        return (int) Math.floorMod(seq, (long) windows(recordSize)) * recordSize;
    }

    /** Returns the value for record seq (0-based). */
    abstract byte[] next(long seq);

    static Payloads create(String kind, int recordSize, long seed, long records) throws IOException {
        if (kind.startsWith("file:")) {
            return new FileLines(Path.of(kind.substring("file:".length())));
        }
        if (recordSize <= 0 && (kind.equals("json") || kind.equals("random") || kind.equals("text"))) {
            throw new IllegalArgumentException("payload " + kind + ": record size must be positive, got " + recordSize);
        }
        switch (kind) {
            case "json":
                return new Json(recordSize, seed, records);
            case "random":
                return new Window(recordSize, randomBytes(windows(recordSize) * recordSize, seed));
            case "text":
                return new Window(recordSize, randomLetters(windows(recordSize) * recordSize, seed));
            default:
                throw new IllegalArgumentException("unknown payload kind \"" + kind
                        + "\" (want json, random, text or file:PATH)");
        }
    }

    static byte[] randomBytes(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i += 8) {
            long v = r.nextLong();
            for (int j = 0; j < 8 && i + j < n; j++) {
                b[i + j] = (byte) (v >>> (8 * j));
            }
        }
        return b;
    }

    static byte[] randomLetters(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('A' + r.nextInt(26));
        }
        return b;
    }

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    static byte[] randomHex(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = HEX[r.nextInt(16)];
        }
        return b;
    }

    /** splitmix64 finalizer: a cheap, well-mixed hash of a long. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** Window (seq mod n) of a pool of n windows of recordSize bytes. */
    static final class Window extends Payloads {
        private final byte[] pool;
        private final byte[] buf;

        Window(int recordSize, byte[] pool) {
            this.pool = pool;
            this.buf = new byte[recordSize];
        }

        @Override
        byte[] next(long seq) {
            System.arraycopy(pool, windowOffset(seq, buf.length), buf, 0, buf.length);
            return buf;
        }
    }

    /** Lines of a file, cycled. */
    static final class FileLines extends Payloads {
        private final byte[][] lines;

        FileLines(Path path) throws IOException {
            List<byte[]> out = new ArrayList<>();
            for (String line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
                if (!line.isEmpty()) {
                    out.add(line.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (out.isEmpty()) {
                throw new IllegalArgumentException("payload file " + path + " has no non-empty lines");
            }
            lines = out.toArray(new byte[0][]);
        }

        @Override
        byte[] next(long seq) {
            return lines[(int) Math.floorMod(seq, (long) lines.length)];
        }
    }

    /** Unique JSON order events padded with hex to an exact size, written without allocation. */
    static final class Json extends Payloads {
        static final String[] EVENTS = {"order_created", "order_paid", "order_packed", "order_shipped",
            "order_delivered", "order_cancelled", "order_refunded"};
        private static final byte[] SEQ = ascii("{\"seq\":");
        private static final byte[] ID = ascii(",\"id\":\"");
        private static final byte[] TS = ascii("\",\"ts\":");
        private static final byte[] EVENT = ascii(",\"event\":\"");
        private static final byte[] PAYLOAD = ascii("\",\"payload\":\"");
        private static final byte[] END = ascii("\"}");
        private static final byte[][] EVENT_BYTES = new byte[EVENTS.length][];

        static {
            for (int i = 0; i < EVENTS.length; i++) {
                EVENT_BYTES[i] = ascii(EVENTS[i]);
            }
        }

        /**
         * The smallest record size accepted (as in the Go package payload): the
         * layout with a 10-digit seq, a 16-hex-digit id, a 13-digit ms
         * timestamp and the longest event name, with an empty payload.
         */
        static final int MIN_SIZE = SEQ.length + 10 + ID.length + 16 + TS.length + 13
                + EVENT.length + longestEvent() + PAYLOAD.length + END.length;

        private final byte[] buf;
        private final byte[] hex;
        private final long seed;

        Json(int recordSize, long seed, long records) {
            if (recordSize < MIN_SIZE) {
                throw new IllegalArgumentException("payload json: record size " + recordSize
                        + " is too small: the JSON order event needs at least " + MIN_SIZE + " bytes");
            }
            this.buf = new byte[recordSize];
            this.hex = randomHex(windows(recordSize) * recordSize, seed);
            this.seed = seed;
        }

        private static int longestEvent() {
            int n = 0;
            for (String e : EVENTS) {
                n = Math.max(n, e.length());
            }
            return n;
        }

        private static byte[] ascii(String s) {
            return s.getBytes(StandardCharsets.US_ASCII);
        }

        @Override
        byte[] next(long seq) {
            byte[] b = buf;
            long h = mix(seed * 0x9e3779b97f4a7c15L + seq);
            long lo = mix(h);
            int p = put(b, 0, SEQ);
            p = putLong(b, p, seq);
            p = put(b, p, ID);
            p = putHex(b, p, lo, 16);
            p = put(b, p, TS);
            p = putLong(b, p, System.currentTimeMillis());
            p = put(b, p, EVENT);
            p = put(b, p, EVENT_BYTES[(int) Math.floorMod(h >>> 1, (long) EVENTS.length)]);
            p = put(b, p, PAYLOAD);
            int pad = Math.max(0, b.length - p - END.length);
            System.arraycopy(hex, windowOffset(seq, b.length), b, p, pad);
            p += pad;
            put(b, p, END);
            return b;
        }

        private static int putHex(byte[] b, int p, long v, int n) {
            for (int i = n - 1; i >= 0; i--) {
                b[p++] = HEX[(int) (v >>> (4 * i)) & 15];
            }
            return p;
        }

        static int digits(long v) {
            int d = 1;
            for (long t = v; t >= 10; t /= 10) {
                d++;
            }
            return d;
        }

        private static int put(byte[] b, int p, byte[] s) {
            System.arraycopy(s, 0, b, p, s.length);
            return p + s.length;
        }

        private static int putLong(byte[] b, int p, long v) {
            if (v < 0) {
                b[p++] = '-';
                v = -v; // seq and ts are never Long.MIN_VALUE
            }
            int digits = digits(v);
            for (int i = p + digits - 1; i >= p; i--) {
                b[i] = (byte) ('0' + (v % 10));
                v /= 10;
            }
            return p + digits;
        }
    }
}
