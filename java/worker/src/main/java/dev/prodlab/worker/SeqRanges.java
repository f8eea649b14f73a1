package dev.prodlab.worker;

import com.google.gson.JsonArray;
import java.util.BitSet;

/** Compact [from,to) ranges of set bits, for acked/failed sequence numbers. */
final class SeqRanges {
    private SeqRanges() {}

    static JsonArray of(BitSet bits) {
        JsonArray out = new JsonArray();
        int from = bits.nextSetBit(0);
        while (from >= 0) {
            int to = bits.nextClearBit(from);
            JsonArray r = new JsonArray(2);
            r.add(from);
            r.add(to);
            out.add(r);
            from = bits.nextSetBit(to);
        }
        return out;
    }
}
