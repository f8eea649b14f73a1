package dev.prodlab.worker;

import java.nio.charset.StandardCharsets;

/**
 * The keys of a keyed workload: the key of record seq depends only on the
 * trial's seed, seq and the key space, as in Go's internal/keys package,
 * whose arithmetic this class repeats (splitmix64 on seed and seq, a
 * uniform double from its top 53 bits, an inverse-CDF table for Zipf), so
 * that both clients send the same keys for the same seed. A key is its index
 * in decimal, zero-padded on the left to the space's size.
 */
final class KeySampler {
    /** Largest key space (the Zipf table holds 8 bytes a key). */
    static final long MAX_COUNT = 10_000_000L;
    /** Largest key, in bytes. */
    static final int MAX_SIZE = 1 << 16;
    /** Separates the key stream from the payload's ("keys" in ASCII). */
    private static final long SEED_MIX = 0x6b657973L;

    private final String distribution;
    private final long count;
    private final int size;
    private final long seed;
    /** Running sums of the Zipf weights; null for other distributions. */
    private final double[] cum;

    private KeySampler(String distribution, long count, int size, double exponent, long seed) {
        this.distribution = distribution;
        this.count = count;
        this.size = size;
        this.seed = seed ^ SEED_MIX;
        this.cum = distribution.equals("zipf") ? zipfTable((int) count, exponent) : null;
    }

    /**
     * Returns the sampler of a key space, or null for keyless records
     * (distribution "none" or empty).
     *
     * @throws IllegalArgumentException when the space cannot generate keys
     */
    static KeySampler create(String distribution, long count, int size, double exponent, long seed) {
        if (distribution == null || distribution.isEmpty() || distribution.equals("none")) {
            return null;
        }
        if (!distribution.equals("uniform") && !distribution.equals("zipf") && !distribution.equals("sequential")) {
            throw new IllegalArgumentException("unknown key distribution " + distribution
                    + " (want none, uniform, zipf or sequential)");
        }
        if (count < 1 || count > MAX_COUNT) {
            throw new IllegalArgumentException("key count must be in 1.." + MAX_COUNT + ", got " + count);
        }
        int digits = Long.toString(count - 1).length();
        if (size < digits || size > MAX_SIZE) {
            throw new IllegalArgumentException("key size " + size + " cannot hold " + count + " distinct keys: it must be in "
                    + digits + ".." + MAX_SIZE);
        }
        if (distribution.equals("zipf") && !(exponent > 0 && !Double.isInfinite(exponent))) {
            throw new IllegalArgumentException("zipf exponent must be a finite number > 0, got " + exponent);
        }
        return new KeySampler(distribution, count, size, exponent, seed);
    }

    private static double[] zipfTable(int n, double s) {
        double[] cum = new double[n];
        double sum = 0;
        for (int k = 0; k < n; k++) {
            sum += 1 / Math.pow(k + 1, s);
            cum[k] = sum;
        }
        return cum;
    }

    /** The key index (0..count-1) of record seq. */
    long index(long seq) {
        switch (distribution) {
            case "sequential":
                return seq % count;
            case "zipf": {
                double target = unit(seed, seq) * cum[cum.length - 1];
                // The first k with target < cum[k] (Go's sort.Search).
                int lo = 0;
                int hi = cum.length;
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (target < cum[mid]) {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                return Math.min(lo, cum.length - 1);
            }
            default:
                return Math.min((long) (unit(seed, seq) * (double) count), count - 1);
        }
    }

    /** The key of record seq: its index in decimal, zero-padded to the size. */
    byte[] key(long seq) {
        String digits = Long.toString(index(seq));
        byte[] out = new byte[size];
        int pad = size - digits.length();
        java.util.Arrays.fill(out, 0, pad, (byte) '0');
        System.arraycopy(digits.getBytes(StandardCharsets.US_ASCII), 0, out, pad, digits.length());
        return out;
    }

    /** A uniform double in [0,1): splitmix64 of seed + (seq+1)·golden gamma, top 53 bits. */
    static double unit(long seed, long seq) {
        long z = seed + (seq + 1) * 0x9e3779b97f4a7c15L;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        z ^= z >>> 31;
        return (z >>> 11) * 0x1.0p-53;
    }
}
