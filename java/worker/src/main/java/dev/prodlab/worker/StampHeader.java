package dev.prodlab.worker;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;

/**
 * The hand-off time header of one record ("prodlab-t" = microseconds since
 * the Unix epoch, ASCII), written only when an end-to-end latency consumer
 * reads the trial's topic (RunRequest.stamp). prodlab's consumer subtracts
 * it from the same host's clock.
 */
record StampHeader(byte[] value) implements Header {
    /** The header key, as Go's auditheader.TimeKey. */
    static final String KEY = "prodlab-t";

    static StampHeader of(long epochMicros) {
        return new StampHeader(Long.toString(epochMicros).getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public String key() {
        return KEY;
    }
}
