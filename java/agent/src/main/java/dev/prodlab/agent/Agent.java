package dev.prodlab.agent;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.net.URL;
import java.security.ProtectionDomain;

/**
 * Entry point of -javaagent:prodlab-agent.jar=broker|client, emulating
 * KIP-1269 on stock Kafka releases.
 *
 * <ul>
 * <li>{@code broker}: ProducerStateEntry.addBatchMetadata retains
 * {@code -Dprodlab.kip1269.retain=N} batches per producer and partition
 * instead of NUM_BATCHES_TO_RETAIN (5).</li>
 * <li>{@code client}: ProducerConfig's check "at most 5 in flight to use the
 * idempotent producer" is lifted; nothing else changes.</li>
 * </ul>
 *
 * Both verify the class before the JVM goes on (premain reads it from the
 * class path): a release whose bytecode is not what the agent expects makes
 * the JVM exit with status 1 and the agent's one-line message. What
 * was changed is logged on stderr, prefixed "prodlab-agent:".
 */
public final class Agent {
    /** The system property holding the broker's retained batches. */
    public static final String RETAIN_PROPERTY = "prodlab.kip1269.retain";
    /** The Kafka release prodlab started, for messages only. */
    public static final String RELEASE_PROPERTY = "prodlab.kafka.release";
    /** KIP-1269's own minimum, and the stock limit. */
    public static final int MIN_RETAIN = 5;

    static final String BROKER_CLASS = "org/apache/kafka/storage/internals/log/ProducerStateEntry";
    static final String BROKER_METHOD = "addBatchMetadata";
    static final String CLIENT_CLASS = "org/apache/kafka/clients/producer/ProducerConfig";
    static final String CLIENT_METHOD = "postProcessAndValidateIdempotenceConfigs";
    static final String CLIENT_MARKER = "max.in.flight.requests.per.connection";

    private Agent() {
    }

    /**
     * Called by the JVM before main. On bad settings or bytecode it prints the
     * refusal (one line naming the release) and ends the JVM with status 1
     * before Kafka starts.
     */
    public static void premain(String args, Instrumentation inst) {
        try {
            install(args, inst);
        } catch (RefusedException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
    }

    /**
     * Checks, without patching anything, that the release on the class path
     * can be patched: {@code java -cp prodlab-agent.jar:<kafka jars>
     * dev.prodlab.agent.Agent broker|client} prints what it would change and
     * exits 0, or prints the refusal and exits 1. prodlab runs it before
     * anything starts.
     */
    public static void main(String[] args) {
        try {
            Patch patch = verify(args.length == 1 ? args[0] : String.join(" ", args));
            System.out.println("prodlab-agent: can patch " + describe(patch));
        } catch (RefusedException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
    }

    /** Verifies the class on the class path and registers the transformer; throws RefusedException. */
    static void install(String args, Instrumentation inst) {
        Patch patch = verify(args);
        inst.addTransformer(new Transformer(patch));
        System.err.println("prodlab-agent: will patch " + describe(patch) + " in " + named(release(ClassLoader.getSystemResource(patch.owner + ".class"))));
    }

    /** Reads the class the mode patches from the class path and checks its layout; throws RefusedException. */
    static Patch verify(String mode) {
        Patch patch = patchFor(mode, System.getProperty(RETAIN_PROPERTY));
        String release = named(release(ClassLoader.getSystemResource(patch.owner + ".class")));
        patch.apply(read(patch.owner, release), release); // a refusal throws before anything is patched
        return patch;
    }

    /** The patch for the agent argument: "broker" (with the retain property) or "client". */
    static Patch patchFor(String args, String retain) {
        if ("broker".equals(args)) {
            return new Patch(BROKER_CLASS, BROKER_METHOD, null, parseRetain(retain));
        }
        if ("client".equals(args)) {
            return new Patch(CLIENT_CLASS, CLIENT_METHOD, CLIENT_MARKER, Integer.MAX_VALUE);
        }
        throw new RefusedException("prodlab-agent: argument must be broker or client, got \"" + args + "\"");
    }

    /** Parses -Dprodlab.kip1269.retain: an integer of at least 5. */
    static int parseRetain(String retain) {
        if (retain == null) {
            throw new RefusedException("prodlab-agent: broker mode needs -D" + RETAIN_PROPERTY + "=N");
        }
        int n;
        try {
            n = Integer.parseInt(retain.trim());
        } catch (NumberFormatException e) {
            throw new RefusedException("prodlab-agent: -D" + RETAIN_PROPERTY + " is not an integer: \"" + retain + "\"");
        }
        if (n < MIN_RETAIN) {
            throw new RefusedException("prodlab-agent: -D" + RETAIN_PROPERTY + "=" + n + " is below KIP-1269's minimum of " + MIN_RETAIN);
        }
        return n;
    }

    /** Prefixes the Kafka release prodlab started (-Dprodlab.kafka.release), when given. */
    static String named(String jar) {
        String v = System.getProperty(RELEASE_PROPERTY, "");
        return v.isEmpty() ? jar : "Kafka " + v + " (" + jar + ")";
    }

    static String describe(Patch p) {
        if (p.owner.equals(BROKER_CLASS)) {
            return "ProducerStateEntry.addBatchMetadata: retains " + p.value + " batches (stock: 5)";
        }
        return "ProducerConfig.postProcessAndValidateIdempotenceConfigs: idempotence allows any max.in.flight (stock: at most 5)";
    }

    /** Names the release by the jar the class comes from, e.g. "kafka-storage-4.4.0.jar". */
    static String release(URL url) {
        if (url == null) {
            return "a release without this class";
        }
        String s = url.toString();
        int bang = s.indexOf("!/");
        if (bang >= 0) {
            s = s.substring(0, bang);
        }
        return s.substring(s.lastIndexOf('/') + 1);
    }

    private static byte[] read(String owner, String release) {
        try (InputStream in = ClassLoader.getSystemResourceAsStream(owner + ".class")) {
            if (in == null) {
                throw new RefusedException("prodlab-agent: " + owner.replace('/', '.') + " is not on the class path ("
                        + release + "); this Kafka release is not supported");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new RefusedException("prodlab-agent: reading " + owner + ": " + e);
        }
    }

    /** Applies the verified patch when the class loads, and logs it. */
    private static final class Transformer implements ClassFileTransformer {
        private final Patch patch;

        Transformer(Patch patch) {
            this.patch = patch;
        }

        @Override
        public byte[] transform(ClassLoader loader, String name, Class<?> cls, ProtectionDomain pd, byte[] bytes) {
            if (!patch.owner.equals(name)) {
                return null;
            }
            String release = named(pd == null || pd.getCodeSource() == null ? "unknown jar" : release(pd.getCodeSource().getLocation()));
            try {
                byte[] out = patch.apply(bytes, release);
                System.err.println("prodlab-agent: patched " + describe(patch) + " in " + release);
                return out;
            } catch (RuntimeException e) {
                // Verified in premain, so only a different copy of the class gets here:
                // never run it unpatched while claiming the emulation.
                System.err.println(e.getMessage());
                Runtime.getRuntime().halt(1);
                return null;
            }
        }
    }
}
