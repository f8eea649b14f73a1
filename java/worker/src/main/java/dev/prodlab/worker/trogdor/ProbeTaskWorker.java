package dev.prodlab.worker.trogdor;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.util.Arrays;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.apache.kafka.common.utils.AppInfoParser;
import org.apache.kafka.trogdor.common.Platform;
import org.apache.kafka.trogdor.task.TaskWorker;
import org.apache.kafka.trogdor.task.WorkerStatusTracker;

/** Publishes what this agent is ({@link ProbeTaskSpec}) and finishes. */
final class ProbeTaskWorker implements TaskWorker {
    /**
     * The version of the task API prodlab's Go side speaks to this jar's
     * tasks: raised whenever ProduceTaskSpec or its status changes in a way
     * the other side must know.
     */
    static final int TASK_API = 1;

    @Override
    public void start(Platform platform, WorkerStatusTracker status, KafkaFutureImpl<String> done) {
        ObjectNode s = JsonNodeFactory.instance.objectNode();
        s.put("node", platform.curNode().name());
        s.put("hostname", platform.curNode().hostname());
        ProbeTaskSpec.agents(platform.topology()).forEach(s.putArray("agents")::add);
        s.put("kafka_clients", AppInfoParser.getVersion());
        s.put("java", System.getProperty("java.version"));
        s.put("task_api", TASK_API);
        File dir = workerDir();
        if (dir != null) {
            s.put("worker_dir", dir.getAbsolutePath());
            ArrayNode exes = s.putArray("executables");
            File[] files = dir.listFiles();
            if (files != null) {
                Arrays.stream(files)
                    .filter(f -> f.getName().startsWith("prodlab") && !f.getName().endsWith(".jar"))
                    .filter(f -> f.isFile() && f.canExecute())
                    .map(File::getName)
                    .sorted()
                    .forEach(exes::add);
            }
        }
        status.update(s);
        done.complete("");
    }

    /**
     * Where prodlab's worker executables are on this agent (the franz-go
     * and librdkafka workers, which Trogdor's ExternalCommandSpec runs):
     * $PRODLAB_WORKER_DIR, else the directory of the jar holding this
     * class; null when neither is known.
     */
    static File workerDir() {
        String env = System.getenv("PRODLAB_WORKER_DIR");
        if (env != null && !env.isEmpty()) {
            return new File(env);
        }
        try {
            File jar = new File(ProbeTaskWorker.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return jar.isFile() ? jar.getParentFile() : jar;
        } catch (Exception e) {
            return null;
        }
    }

    @Override
    public void stop(Platform platform) {
        // Nothing runs after start.
    }
}
