package dev.prodlab.worker.trogdor;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.trogdor.agent.Agent;
import org.apache.kafka.trogdor.agent.AgentRestResource;
import org.apache.kafka.trogdor.common.Node;
import org.apache.kafka.trogdor.common.Platform;
import org.apache.kafka.trogdor.coordinator.Coordinator;
import org.apache.kafka.trogdor.coordinator.CoordinatorRestResource;
import org.apache.kafka.trogdor.rest.JsonRestServer;

/**
 * Starts a Trogdor coordinator or agent of prodlab's local fleet whose REST
 * server listens on 127.0.0.1 only.
 *
 * <p>Trogdor's own main classes leave the host of their Jetty connector
 * unset, so they listen on every interface; nothing prodlab starts may. This
 * launcher does what their main does (parse the platform config, make the
 * REST server, the daemon and its resource, start, wait for shutdown) with
 * the connector's host set to 127.0.0.1 first. The daemon's constructor is
 * found by reflection: its Scheduler parameter moved packages between
 * trogdor 3.x and 4.x.
 *
 * <p>Usage: {@code LoopbackDaemon agent|coordinator CONFIG_FILE NODE_NAME}.
 */
public final class LoopbackDaemon {
    /** The only address the REST server listens on. */
    static final String HOST = "127.0.0.1";

    private LoopbackDaemon() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3 || !("agent".equals(args[0]) || "coordinator".equals(args[0]))) {
            System.err.println("usage: LoopbackDaemon agent|coordinator CONFIG_FILE NODE_NAME");
            System.exit(2);
        }
        boolean agent = "agent".equals(args[0]);
        Platform platform = Platform.Config.parse(args[2], args[1]);
        Node node = platform.curNode();
        JsonRestServer rest = new JsonRestServer(agent ? Node.Util.getTrogdorAgentPort(node) : Node.Util.getTrogdorCoordinatorPort(node));
        bindLoopback(rest);
        Object daemon;
        Object resource;
        if (agent) {
            resource = new AgentRestResource();
            daemon = construct(Agent.class, platform, rest, resource);
        } else {
            resource = new CoordinatorRestResource();
            daemon = construct(Coordinator.class, platform, rest, resource, ThreadLocalRandom.current().nextLong(0, Long.MAX_VALUE / 2));
        }
        rest.start(resource);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> shutdown(daemon, agent)));
        daemon.getClass().getMethod("waitForShutdown").invoke(daemon);
    }

    /** Sets the host of the REST server's connector; refuses to go on when the field is not there. */
    static void bindLoopback(JsonRestServer rest) throws ReflectiveOperationException {
        Field f;
        try {
            f = JsonRestServer.class.getDeclaredField("connector");
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("this trogdor's JsonRestServer has no connector field: refusing to start a REST server on every interface", e);
        }
        f.setAccessible(true);
        Object connector = f.get(rest);
        connector.getClass().getMethod("setHost", String.class).invoke(connector, HOST);
    }

    /**
     * Calls the daemon's public constructor (platform, scheduler, rest,
     * resource[, seed]) with the scheduler's SYSTEM instance, whatever the
     * scheduler's package.
     */
    static Object construct(Class<?> type, Platform platform, JsonRestServer rest, Object resource, Object... more)
            throws ReflectiveOperationException {
        for (Constructor<?> c : type.getConstructors()) {
            Class<?>[] p = c.getParameterTypes();
            if (p.length == 4 + more.length && p[0] == Platform.class && p[2] == JsonRestServer.class) {
                Object system = p[1].getField("SYSTEM").get(null);
                Object[] values = new Object[p.length];
                values[0] = platform;
                values[1] = system;
                values[2] = rest;
                values[3] = resource;
                System.arraycopy(more, 0, values, 4, more.length);
                return c.newInstance(values);
            }
        }
        throw new IllegalStateException(type.getName() + " has no constructor (Platform, Scheduler, JsonRestServer, resource"
                + (more.length > 0 ? ", long" : "") + ") in this trogdor release");
    }

    /** Shuts the daemon down as Trogdor's own main does on SIGTERM. */
    private static void shutdown(Object daemon, boolean agent) {
        try {
            if (agent) {
                daemon.getClass().getMethod("beginShutdown").invoke(daemon);
            } else {
                daemon.getClass().getMethod("beginShutdown", boolean.class).invoke(daemon, false);
            }
            daemon.getClass().getMethod("waitForShutdown").invoke(daemon);
        } catch (ReflectiveOperationException e) {
            System.err.println("prodlab: trogdor shutdown: " + e);
        }
    }
}
