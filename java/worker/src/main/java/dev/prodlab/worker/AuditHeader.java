package dev.prodlab.worker;

import org.apache.kafka.common.header.Header;

/**
 * The audit header of one record ("prodlab" = "tag/seq"), built on the
 * public Header interface rather than the client's internal RecordHeaders.
 */
record AuditHeader(byte[] value) implements Header {
    @Override
    public String key() {
        return TrialRunner.AUDIT_HEADER;
    }
}
