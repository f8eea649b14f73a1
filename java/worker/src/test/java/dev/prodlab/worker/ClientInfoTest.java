package dev.prodlab.worker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The client version and ConfigDef come from public parts of kafka-clients. */
class ClientInfoTest {
    @Test
    void versionFromTheJar() {
        // The tests compile and run against kafka-clients 3.9.1 (pom.xml).
        assertEquals("3.9.1", ClientInfo.version());
    }

    @Test
    void versionUnknownWithoutTheFile() throws Exception {
        try (URLClassLoader empty = new URLClassLoader(new URL[0], null)) {
            assertEquals(ClientInfo.UNKNOWN, ClientInfo.readVersion(empty));
        }
    }

    @Test
    void configTypes() {
        Map<String, String> types = ClientInfo.producerConfigTypes();
        for (Map.Entry<String, String> want : Map.of(
                "ssl.key.password", "PASSWORD",
                "sasl.jaas.config", "PASSWORD",
                "linger.ms", "LONG",
                "acks", "STRING").entrySet()) {
            assertEquals(want.getValue(), types.get(want.getKey()), want.getKey());
        }
    }

    @Test
    void auditHeader() {
        AuditHeader h = new AuditHeader(new byte[] {'t', '/', '7'});
        assertEquals(AuditHeader.KEY, h.key());
        assertArrayEquals(new byte[] {'t', '/', '7'}, h.value());
    }
}
