package dev.prodlab.worker;

import org.apache.kafka.common.header.Header;

/**
 * The audit header of one record ("prodlab" = "tag/seq"), built on the
 * public Header interface rather than the client's internal RecordHeaders.
 */
record AuditHeader(byte[] value) implements Header {
    /** The header's key. */
    static final String KEY = "prodlab";

    @Override
    public String key() {
        return KEY;
    }

    /** The header's value: prefix ("tag/") and seq in decimal. */
    static byte[] valueOf(byte[] prefix, long seq) {
        int digits = Payloads.Json.digits(seq);
        byte[] v = new byte[prefix.length + digits];
        System.arraycopy(prefix, 0, v, 0, prefix.length);
        for (int i = v.length - 1; i >= prefix.length; i--) {
            v[i] = (byte) ('0' + seq % 10);
            seq /= 10;
        }
        return v;
    }
}
