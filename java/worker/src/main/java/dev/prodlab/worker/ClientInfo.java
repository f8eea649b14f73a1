package dev.prodlab.worker;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;

/**
 * What the worker says about the kafka-clients release on its class path,
 * using only what every release from 3.0 on ships publicly: the version
 * file in the jar and ProducerConfig.configDef(). The client's internal
 * AppInfoParser moved in 4.4 (common.utils to common.utils.internals), so
 * the worker never calls it.
 */
final class ClientInfo {
    /** The resource every kafka-clients jar carries with its version. */
    static final String VERSION_RESOURCE = "kafka/kafka-version.properties";
    /** Reported when the version file is missing or unreadable. */
    static final String UNKNOWN = "unknown";

    private static volatile String version;

    private ClientInfo() {}

    /** The kafka-clients version on the class path, e.g. "4.4.0"; read once. */
    static String version() {
        String v = version;
        if (v == null) {
            v = readVersion(ProducerConfig.class.getClassLoader());
            version = v;
        }
        return v;
    }

    /** Reads the version file through a class loader; UNKNOWN when absent. */
    static String readVersion(ClassLoader loader) {
        try (InputStream in = loader.getResourceAsStream(VERSION_RESOURCE)) {
            if (in == null) {
                return UNKNOWN;
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", UNKNOWN).trim();
        } catch (IOException e) {
            return UNKNOWN;
        }
    }

    /**
     * Every producer property the client defines, with its ConfigDef type
     * name (e.g. "PASSWORD", "LONG"), sorted by name: prodlab's secret table
     * is checked against it for each supported release.
     */
    static Map<String, String> producerConfigTypes() {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, ConfigDef.ConfigKey> e : ProducerConfig.configDef().configKeys().entrySet()) {
            out.put(e.getKey(), e.getValue().type.name());
        }
        return out;
    }
}
