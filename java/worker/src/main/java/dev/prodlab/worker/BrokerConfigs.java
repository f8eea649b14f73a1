package dev.prodlab.worker;

import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Prints the broker's own configuration definitions: one line per property,
 * "name TAB TYPE", sorted by name. It runs on the class path of a Kafka
 * release or local build (the worker jar first, then the broker's jars), so
 * that prodlab checks cluster.configs against the definitions of the very
 * broker it will start, never against a list written by hand, and a
 * property that only exists in a local build is known when that build is
 * the broker.
 *
 * <p>The definitions are found by reflection, since the broker is not on the
 * worker's compile class path and the public entry moved between releases:
 * kafka.server.KafkaConfig.configDef() (3.x and 4.x, the Scala object's
 * static forwarder), else
 * org.apache.kafka.server.config.AbstractKafkaConfig.CONFIG_DEF (4.x).
 *
 * <p>Usage: java -cp worker.jar:BROKER_JARS dev.prodlab.worker.BrokerConfigs
 * (exit 0; 1 when no definitions are found).
 */
public final class BrokerConfigs {
    private BrokerConfigs() {}

    public static void main(String[] args) {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        try {
            print(find(), out);
        } catch (ReflectiveOperationException | RuntimeException e) {
            System.err.println("prodlab: no broker ConfigDef on the class path: " + e);
            System.exit(1);
        }
        out.flush();
        System.exit(0);
    }

    /** Finds the broker ConfigDef, newest entry point last. */
    static ConfigDef find() throws ReflectiveOperationException {
        try {
            Method m = Class.forName("kafka.server.KafkaConfig").getMethod("configDef");
            return (ConfigDef) m.invoke(null);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            Field f = Class.forName("org.apache.kafka.server.config.AbstractKafkaConfig").getField("CONFIG_DEF");
            return (ConfigDef) f.get(null);
        }
    }

    /** Prints "name TAB TYPE" for every key of def, sorted by name. */
    static void print(ConfigDef def, PrintStream out) {
        Map<String, String> types = new TreeMap<>();
        for (ConfigDef.ConfigKey k : def.configKeys().values()) {
            types.put(k.name, k.type.name());
        }
        types.forEach((name, type) -> out.println(name + "\t" + type));
    }
}
